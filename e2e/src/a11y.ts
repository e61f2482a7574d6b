import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';


const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into the page as a script (no browser extension, no download). */
export const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.resolve(ROOT, 'e2e/artifacts');
const SAMPLES = path.resolve(ROOT, 'packages/ledes/test/fixtures/samples');
export const VALID_SAMPLE = path.join(SAMPLES, 'travisbashor-ledes-parser_tests-data-ledes_98B.txt');
export const INVALID_SAMPLE = path.join(SAMPLES, 'mikewagner-ledes_parser_spec-fixtures-ledes.txt');

import type { Lang } from './users.ts';
export const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } } as const;
/** The narrowest phone of the spec's screenshots, for states that broke only there (issue 26: the role listbox). */
export const NARROW_PHONE = { width: 360, height: 740 } as const;

export interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: AxeNode[];
}
export interface Finding {
  scan: string;
  rule: string;
  impact: string;
  target: string;
  html: string;
  summary: string;
}

/**
 * Findings in files owned by another branch of issue 9 (web-seams: the forms, the upload drop zone, the radio
 * groups). They are reported, not fixed here; the lead empties this list once that branch is merged.
 * Each entry matches a finding by rule and by a pattern on the scan name and the element's selector or html.
 */
export const KNOWN_WEB_SEAMS_FINDINGS: { rule: string; scan: RegExp; element: RegExp; why: string }[] = [];

function isKnown(f: Finding): boolean {
  return KNOWN_WEB_SEAMS_FINDINGS.some((k) => k.rule === f.rule && k.scan.test(f.scan) && (k.element.test(f.target) || k.element.test(f.html)));
}

export interface ScanOptions {
  /**
   * Rules gated on this scan whatever their impact (e.g. `region`, moderate, on a state known to have broken it):
   * a targeted check, without gating every moderate rule everywhere.
   */
  alsoGate?: readonly string[];
}

/**
 * Runs axe on the page as it is; returns the critical and serious findings (minor and moderate are not gating),
 * plus those of the rules in `alsoGate`.
 */
export async function scan(page: Page, name: string, { alsoGate = [] }: ScanOptions = {}): Promise<Finding[]> {
  // The portal's CSP refuses inline scripts (addScriptTag); an evaluation from the test is not subject to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource}\n;void 0`);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  });
  const out: Finding[] = [];
  for (const v of violations) {
    if (v.impact !== 'critical' && v.impact !== 'serious' && !alsoGate.includes(v.id)) continue;
    for (const n of v.nodes) {
      out.push({ scan: name, rule: v.id, impact: v.impact ?? 'unknown', target: n.target.join(' '), html: n.html.slice(0, 200), summary: (n.failureSummary ?? '').slice(0, 300) });
    }
  }
  return out;
}

export function splitKnown(findings: Finding[]): { blocking: Finding[]; known: Finding[] } {
  return { blocking: findings.filter((f) => !isKnown(f)), known: findings.filter(isKnown) };
}

export function writeReport(name: string, findings: Finding[], scans: number): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, `axe-${name}.json`), JSON.stringify({ scans, findings }, null, 2));
}

/** A one-line-per-finding text for an assertion message. */
export function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.scan} · ${f.rule} (${f.impact}) · ${f.target} · ${f.html}`).join('\n');
}

/** Client-side navigation (no reload): the router listens to popstate, like a click on a link. */
export async function goClient(page: Page, to: string): Promise<void> {
  if ((await page.evaluate(() => `${window.location.pathname}${window.location.search}`)) === to) return settle(page);
  await page.evaluate((p) => {
    // Marks the current heading, so settle() waits for the next screen's own.
    document.querySelector('main h1')?.setAttribute('data-previous-screen', '');
    (document.activeElement as HTMLElement | null)?.blur();
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  // The next screen is there when the frame has moved the focus into it (a heading the router reused keeps the
  // mark) or when a heading of its own is in the page.
  await page.waitForFunction(() => document.activeElement !== document.body || !!document.querySelector('main h1:not([data-previous-screen])'));
  await settle(page);
}

/** Waits for the page's heading and for loaders and skeletons to go. */
export async function settle(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor({ state: 'attached' });
  await page.waitForFunction(
    () => !document.querySelector('main .mantine-Skeleton-root, main [role="status"][aria-live="polite"] > [aria-hidden="true"], [data-loading]'),
    undefined,
    { timeout: 15_000 },
  );
}

export async function switchLanguage(page: Page, lang: Lang): Promise<void> {
  if ((await page.evaluate(() => document.documentElement.lang)) === lang) return;
  await page.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

let invoiceSeq = 0;
/** A copy of a sample with fresh invoice numbers (a number already accepted for the client is refused). */
export function freshSample(sample: string, name = path.basename(sample)): string {
  const number = `${Date.now() % 1_000_000}${++invoiceSeq}`;
  const text = readFileSync(sample, 'utf8').replace(/^(\d{8})\|(9654\d)\|/gm, `$1|$2${number}|`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'a11y-e2e-')), name);
  writeFileSync(file, text);
  return file;
}
