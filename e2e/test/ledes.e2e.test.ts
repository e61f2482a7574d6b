import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { chooseOption, launchBrowser, login, loginAsAdmin, newContext, screenshot } from '../src/browser.ts';
import { freshSample, INVALID_SAMPLE, VALID_SAMPLE } from '../src/a11y.ts';
import { createLedesAgent, type LedesAgent } from '../src/users.ts';
import { shownDayPattern } from '../src/format.ts';
import enLedes from '../../packages/i18n/locales/en/ledes.json' with { type: 'json' };
import frLedes from '../../packages/i18n/locales/fr/ledes.json' with { type: 'json' };
import enCommon from '../../packages/i18n/locales/en/common.json' with { type: 'json' };
import frCommon from '../../packages/i18n/locales/fr/common.json' with { type: 'json' };

const COMMON = { en: enCommon, fr: frCommon } as const;
import { POLL_INTERVAL_MS } from '../../apps/web/src/features/ledes/model.ts';

/**
 * Issue 3, LEDES screens, in both languages: an admin sets up a LEDES agent (through the API), the agent
 * checks a valid and an invalid sample, follows both runs live to their verdict, reads the findings,
 * finds them in the history and downloads the treated file; an admin checks a file for that agent and
 * finds it in the admin log with both downloads. Screenshots: artifacts/screenshots/ledes-<screen>-<lang>.png.
 */

const VALID = VALID_SAMPLE;
const INVALID = INVALID_SAMPLE;
const VALID_NAME = path.basename(VALID);
const INVALID_NAME = path.basename(INVALID);

const TEXTS = { en: enLedes, fr: frLedes } as const;
/** Labels of the findings the samples produce, from the engine's catalogue. */
const LABELS = {
  'CON-001': { en: "Invoice-level value differs from the invoice's first line", fr: 'Valeur d’en-tête différente de la 1re ligne de la facture' },
  'FMT-006': { en: 'Non-ASCII or control character', fr: 'Caractère non ASCII ou de contrôle' },
} as const;
const OFFICE_PAR = { en: 'Paris office', fr: 'Bureau de Paris' } as const;

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(VALID) || !existsSync(INVALID)) throw new Error(`LEDES samples not found: ${VALID}`);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Records every state each result card shows, from the first paint (to see in progress → done without a reload). */
const RECORD_RUN_STATES = `
  window.__runStates = {};
  window.__runStateTimes = {};
  window.__linesChecked = {};
  new MutationObserver(() => {
    document.querySelectorAll('[data-testid="run-card"]').forEach((el) => {
      const id = el.getAttribute('data-run-id');
      const state = el.getAttribute('data-run-state');
      const seen = (window.__runStates[id] = window.__runStates[id] || []);
      const times = (window.__runStateTimes[id] = window.__runStateTimes[id] || []);
      if (seen[seen.length - 1] !== state) { seen.push(state); times.push(Date.now()); }
      const count = Number((el.querySelector('[data-testid="lines-checked"]')?.textContent || '').replace(/[^0-9]/g, '') || 0);
      window.__linesChecked[id] = Math.max(window.__linesChecked[id] || 0, count);
    });
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-run-state'] });
`;

async function runStates(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => (window as unknown as { __runStates: Record<string, string[]> }).__runStates);
}

let bigFileSeq = 0;
/** Refused lines of the paging test: a few pages of the e2e portal's LEDES_RESULT_PAGE_FINDINGS (global-setup). */
const BAD_LINES = 250;
/** A generated file of `lines` invoice lines (from the valid sample's first line), long enough to show progress. */
function bigFile(lines: number, change: (line: string) => string = (line) => line): string {
  const [format = '', header = '', first = ''] = readFileSync(VALID, 'utf8').split(/\r?\n/);
  const invoice = `${Date.now() % 1_000_000}${++bigFileSeq}`;
  const body = Array.from({ length: lines }, (_, i) => change(first.replace(/^(\d{8})\|96542\|/, `$1|${invoice}|`).replace(/\|1\|F\|/, `|${i + 1}|F|`)));
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ledes-e2e-')), `ledes-progress-${lines}.txt`);
  writeFileSync(file, [format, header, ...body].join('\r\n'));
  return file;
}

async function waitAllFinished(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const cards = [...document.querySelectorAll('[data-testid="run-card"]')];
      return cards.length === n && cards.every((c) => c.getAttribute('data-run-state') !== 'in_progress');
    },
    count,
    { timeout: 30_000 },
  );
}

function card(page: Page, filename: string): Locator {
  return page.getByTestId('run-card').filter({ has: page.getByTestId('run-filename').filter({ hasText: filename }) });
}

async function findingRows(scope: Locator, kind: 'errors' | 'warnings'): Promise<{ line: string; field: string; code: string; label: string }[]> {
  const rows = scope.getByTestId(`finding-${kind}`);
  await rows.first().waitFor();
  const out = [];
  for (const row of await rows.all()) {
    out.push({
      line: (await row.getByTestId('finding-line').textContent()) ?? '',
      field: (await row.getByTestId('finding-field').textContent()) ?? '',
      code: (await row.getByTestId('finding-code').textContent()) ?? '',
      label: (await row.getByTestId('finding-label').textContent()) ?? '',
    });
  }
  return out;
}

async function download(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

describe.each(['en', 'fr'] as const)('LEDES in %s', (lang) => {
  const T = TEXTS[lang];
  let agent: LedesAgent;
  let adminContext: BrowserContext;
  let adminPage: Page;

  beforeAll(async () => {
    adminContext = await newContext(browser, { lang });
    adminPage = await adminContext.newPage();
    await loginAsAdmin(adminPage);
    // The admin account's own language applies at login: switch to the language under test.
    await adminPage.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
    await adminPage.waitForFunction((l) => document.documentElement.lang === l, lang);
    agent = await createLedesAgent(adminPage, lang, lang);
  });
  afterAll(async () => {
    await adminContext?.close();
  });

  it('the agent checks a valid and an invalid file, follows them live, reads the findings, finds them in the history and downloads the treated file', async () => {
    const context = await newContext(browser, { lang });
    await context.addInitScript(RECORD_RUN_STATES);
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();

    // Nothing checked yet: the empty history, and no result to show.
    await page.goto('/ledes/history');
    await page.getByTestId('history-empty').waitFor();
    expect(await page.getByTestId('history-empty').textContent()).toContain(lang === 'fr' ? 'Aucun historique disponible' : 'No history available');
    await screenshot(page, 'ledes-history-empty', lang);
    await page.goto('/result-ledes');
    await page.waitForURL((u) => u.pathname === '/ledes/history');

    // The checks run in the spec's order, each message under its field.
    await page.goto('/ledes/upload');
    const form = page.getByTestId('ledes-upload-form');
    await form.waitFor();
    expect(await page.getByTestId('admin-section').count()).toBe(0);
    await page.getByTestId('ledes-submit').click();
    expect(await page.getByTestId('error-file').textContent()).toBe(T.upload.errors.error_file);
    if (lang === 'en') expect(T.upload.errors.error_file).toBe('Please select at least one file.');

    // A file of another kind is not added, and says why.
    const xlsx = path.join(mkdtempSync(path.join(tmpdir(), 'ledes-e2e-')), 'invoices.xlsx');
    writeFileSync(xlsx, 'PK');
    await page.getByTestId('ledes-file-input').setInputFiles(xlsx);
    expect(await page.getByTestId('file-notice').textContent()).toContain('invoices.xlsx');
    expect(await page.getByTestId('file-list').count()).toBe(0);

    await page.getByTestId('ledes-file-input').setInputFiles([freshSample(VALID), INVALID]);
    await expect.poll(() => page.getByTestId('file-list').getByRole('listitem').count()).toBe(2);
    expect(await page.getByTestId('error-file').count()).toBe(0);
    await page.getByTestId('ledes-submit').click();
    expect(await page.getByTestId('error-type').textContent()).toBe(T.upload.errors.missing_type);

    await page.getByTestId('type-annuites').click();
    expect(await page.getByTestId('annuity-hint').textContent()).toBe(T.upload.type.annuity_utility);
    await page.getByTestId('type-patent').click();
    expect(await page.getByTestId('annuity-hint').count()).toBe(0);
    await page.getByTestId('ledes-submit').click();
    expect(await page.getByTestId('error-office').textContent()).toBe(T.upload.errors.missing_office);
    await screenshot(page, 'ledes-upload-errors', lang);

    await page.getByTestId('office-PAR').click();
    expect(await page.getByTestId('office-PAR').textContent()).toContain(OFFICE_PAR[lang]);
    await screenshot(page, 'ledes-upload', lang);
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'ledes-upload-mobile', lang);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Two client ids: the recipient is chosen in the modal, with the names from the addresses.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByTestId('ledes-submit').click();
    const modal = page.getByRole('dialog');
    await modal.getByText(agent.recipients[0]).waitFor();
    await modal.getByText(agent.recipients[1]).waitFor();
    await screenshot(page, 'ledes-client-modal', lang, { fullPage: false });
    expect(await page.getByTestId('client-confirm').isDisabled()).toBe(true);
    await modal.getByRole('radio', { name: new RegExp(agent.recipients[1]) }).click();
    await page.getByTestId('client-confirm').click();

    // Both runs appear in progress and reach their verdict without a reload.
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    const ids = (new URL(page.url()).searchParams.get('runs') ?? '').split(',');
    expect(ids).toHaveLength(2);
    await waitAllFinished(page, 2);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const seen = await runStates(page);
    for (const id of ids) {
      expect(seen[id]?.[0], `first state of ${id}`).toBe('in_progress');
      expect(['accepted', 'refused']).toContain(seen[id]?.at(-1));
    }
    expect(await page.getByTestId('live-interrupted').count()).toBe(0);

    const invalid = card(page, INVALID_NAME);
    const valid = card(page, VALID_NAME);
    expect(await invalid.getAttribute('data-run-state')).toBe('refused');
    expect(await valid.getAttribute('data-run-state')).toBe('accepted');
    expect(await invalid.getByTestId('run-state').textContent()).toBe(T.state.refused);
    expect(await valid.getByTestId('run-state').textContent()).toBe(T.state.accepted);
    // Accepted files go on to step 2 (a non-admin always sends to the server).
    await valid.getByTestId('run-delivered').waitFor();

    // Findings: CON-001 on INVOICE_TOTAL (error), FMT-006 (warning), labels in the UI language, lines shown + 1.
    const errors = await findingRows(invalid, 'errors');
    const con = errors.find((r) => r.code === 'CON-001' && r.field === 'INVOICE_TOTAL');
    expect(con, JSON.stringify(errors)).toBeTruthy();
    expect(con!.label).toBe(LABELS['CON-001'][lang]);
    expect(Number(con!.line)).toBeGreaterThanOrEqual(1);
    expect(Number(await invalid.getByTestId('count-correct').textContent())).toBeGreaterThanOrEqual(0);

    await valid.getByTestId('tab-errors').click();
    await valid.getByTestId('no-errors').waitFor();
    await valid.getByTestId('tab-warnings').click();
    const warnings = await findingRows(valid, 'warnings');
    const fmt = warnings.find((r) => r.code === 'FMT-006');
    expect(fmt, JSON.stringify(warnings)).toBeTruthy();
    expect(fmt!.label).toBe(LABELS['FMT-006'][lang]);
    expect(Number(await valid.getByTestId('count-correct').textContent())).toBeGreaterThan(0);
    await screenshot(page, 'ledes-result', lang);
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'ledes-result-mobile', lang);
    await page.setViewportSize({ width: 1280, height: 860 });

    // The history lists both files with their verdicts; the treated workbook downloads.
    await page.goto('/ledes/history');
    const table = page.getByTestId('history-table');
    await table.waitFor();
    const rows = table.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(2);
    const validRow = rows.filter({ hasText: VALID_NAME });
    const invalidRow = rows.filter({ hasText: INVALID_NAME });
    expect(await validRow.getByTestId('run-state').textContent()).toBe(T.state.accepted);
    expect(await invalidRow.getByTestId('run-state').textContent()).toBe(T.state.refused);
    // The name shows the label only (parts from the 7th), the date in the page's language (decision 153).
    expect(await validRow.getByTestId('history-name').textContent()).toBe(VALID_NAME);
    expect(await validRow.getByTestId('history-date').textContent()).toMatch(shownDayPattern(lang));
    await screenshot(page, 'ledes-history', lang);

    const treated = await download(page, validRow.getByTestId('download-treated'));
    expect(treated.name).toMatch(/_treated\.xlsx$/);
    expect(treated.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // A row's name is the link to its result (issue 9: rows are no longer focusable themselves).
    await invalidRow.getByRole('link', { name: INVALID_NAME }).click();
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    expect(new URL(page.url()).searchParams.get('runs')).toBe(ids.find((id) => seen[id]?.at(-1) === 'refused'));
    await page.getByTestId('run-card').waitFor();
    expect(await page.getByTestId('run-card').count()).toBe(1);
    expect(await page.getByTestId('run-card').getAttribute('data-run-state')).toBe('refused');
    await context.close();
  });

  it('falls back to polling with a notice when live updates cannot connect', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    // Block both socket.io transports.
    await page.routeWebSocket(/\/realtime\//, (ws) => ws.close());
    await page.route(/\/realtime\//, (route) => route.abort());
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/ledes/upload');
    await page.getByTestId('ledes-file-input').setInputFiles(freshSample(VALID));
    await page.getByTestId('type-patent').click();
    await page.getByTestId('office-PAR').click();
    await page.getByTestId('ledes-submit').click();
    await page.getByRole('dialog').getByRole('radio').first().click();
    await page.getByTestId('client-confirm').click();
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    const notice = page.getByTestId('live-interrupted');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toBe(COMMON[lang].live.interrupted_other.replace('{{count, number}}', String(POLL_INTERVAL_MS / 1000)));
    // The run still reaches its verdict, through polling.
    await waitAllFinished(page, 1);
    await screenshot(page, 'ledes-result-polling', lang);
    expect(await page.getByTestId('run-card').getAttribute('data-run-state')).toBe('accepted');
    await context.close();
  });

  it('an admin checks a file for the agent and finds it in the admin log with both downloads', async () => {
    const page = adminPage;
    await page.goto('/ledes/upload');
    await page.getByTestId('admin-section').waitFor();
    const copy = freshSample(VALID);
    await page.getByTestId('ledes-file-input').setInputFiles(copy);
    await page.getByTestId('type-patent').click();
    await page.getByTestId('office-PAR').click();
    await page.getByTestId('ledes-submit').click();
    expect(await page.getByTestId('error-user').textContent()).toBe(T.upload.errors.missing_id_user);

    await chooseOption(page, 'admin-user', new RegExp(agent.company));
    // Both options default to yes.
    for (const id of ['send-history', 'send-server']) {
      expect(await page.getByTestId(id).getByRole('radio', { name: T.upload.admin.yes }).isChecked()).toBe(true);
    }
    await screenshot(page, 'ledes-upload-admin', lang);
    await page.getByTestId('ledes-submit').click();
    // The chosen user's client ids decide: two, so the modal asks.
    const modal = page.getByRole('dialog');
    await modal.getByText(agent.recipients[0]).waitFor();
    await modal.getByRole('radio', { name: new RegExp(agent.recipients[0]) }).click();
    await page.getByTestId('client-confirm').click();
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    await waitAllFinished(page, 1);
    const result = page.getByTestId('run-card');
    expect(await result.getAttribute('data-run-state')).toBe('accepted');
    await result.getByTestId('run-delivered').waitFor();

    // The admin log: search (debounced), provider, office, type, and both downloads.
    await page.goto('/ledes/history/admin');
    await page.getByTestId('admin-history-table').waitFor();
    expect(await page.getByTestId('admin-page-size').inputValue()).toContain('600');
    await page.getByTestId('admin-history-search').fill(agent.company);
    const rows = page.getByTestId('admin-history-table').getByTestId('history-row');
    // Two checks and the polling one by the agent, one by the admin.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
    for (const row of await rows.all()) {
      expect(await row.getByTestId('history-provider').textContent()).toBe(agent.company);
      const text = (await row.textContent()) ?? '';
      expect(text).toContain(OFFICE_PAR[lang]);
      expect(text).toContain(T.types.patent);
    }
    await screenshot(page, 'ledes-admin-history', lang);

    // Newest first: the admin's own check.
    const newest = rows.first();
    expect(await newest.getByTestId('history-name').textContent()).toBe(VALID_NAME);
    const original = await download(page, newest.getByTestId('download-original'));
    expect(original.name).toBe(VALID_NAME);
    expect(original.bytes.equals(readFileSync(copy))).toBe(true);
    const treated = await download(page, newest.getByTestId('download-treated'));
    expect(treated.name).toMatch(/_treated\.xlsx$/);
    expect(treated.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // The row's name is the link to the result (rows are not tab stops).
    await newest.getByRole('link', { name: VALID_NAME }).click();
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    await page.getByTestId('run-card').waitFor();
    expect(await page.getByTestId('run-card').getAttribute('data-run-state')).toBe('accepted');
  });

  it('shows the lines checked while a long file is in progress, then its verdict, without a reload', async () => {
    const context = await newContext(browser, { lang });
    await context.addInitScript(RECORD_RUN_STATES);
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/ledes/upload');
    await page.getByTestId('ledes-file-input').setInputFiles(bigFile(30_000));
    await page.getByTestId('type-patent').click();
    await page.getByTestId('office-PAR').click();
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByTestId('ledes-submit').click();
    await page.getByRole('dialog').getByRole('radio').first().click();
    await page.getByTestId('client-confirm').click();
    await page.waitForURL((u) => u.pathname === '/result-ledes', { timeout: 30_000 });
    const id = new URL(page.url()).searchParams.get('runs')!;
    // Progress comes every 500 ms over the socket while the worker streams the file, and is kept on the run: a
    // screen opened after the engine's last report reads the count from the API. Waited on until it shows or the
    // run ends (the card's state is recorded as it changes, with when it was first seen).
    const shown = await page
      .waitForFunction(() => {
        if (/[1-9]/.test(document.querySelector('[data-testid="lines-checked"]')?.textContent ?? '')) return 'progress';
        const state = document.querySelector('[data-testid="run-card"]')?.getAttribute('data-run-state');
        return state && state !== 'in_progress' ? 'finished' : false;
      }, undefined, { timeout: 60_000 })
      .then((handle) => handle.jsonValue());
    if (shown === 'progress') await screenshot(page, 'ledes-result-progress', lang, { fullPage: false });
    await waitAllFinished(page, 1);
    const states = (await runStates(page))[id] ?? [];
    const times = await page.evaluate((runId) => (window as unknown as { __runStateTimes: Record<string, number[]> }).__runStateTimes[runId] ?? [], id);
    const lines = await page.evaluate((runId) => (window as unknown as { __linesChecked: Record<string, number> }).__linesChecked[runId] ?? 0, id);
    expect(states[0]).toBe('in_progress');
    expect(['accepted', 'refused']).toContain(states.at(-1));
    // How long the page showed the run in progress. On a machine fast enough to finish within one progress
    // interval there is nothing to see.
    const shownInProgress = (times.at(-1) ?? 0) - (times[0] ?? 0);
    if (shownInProgress > 2000) {
      expect(lines, `no progress shown in ${shownInProgress} ms in progress`).toBeGreaterThan(0);
      expect(lines).toBeLessThanOrEqual(30_000);
    }
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await page.getByTestId('live-interrupted').count()).toBe(0);
    await context.close();
  }, 90_000);

  it('pages through a result with more findings than a page; the counts are the whole file\'s on every page', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/ledes/upload');
    // Each line refused (an impossible invoice date): more findings than the e2e portal's page of E2E_RESULT_PAGE_FINDINGS.
    await page.getByTestId('ledes-file-input').setInputFiles(bigFile(BAD_LINES, (line) => line.replace(/^\d{8}\|/, '20241345|')));
    await page.getByTestId('type-patent').click();
    await page.getByTestId('office-PAR').click();
    await page.getByTestId('ledes-submit').click();
    await page.getByRole('dialog').getByRole('radio').first().click();
    await page.getByTestId('client-confirm').click();
    await page.waitForURL((u) => u.pathname === '/result-ledes', { timeout: 30_000 });
    await waitAllFinished(page, 1);
    const card = page.getByTestId('run-card');
    const counts = async () => ({
      refused: await card.getByTestId('count-refused').textContent(),
      errors: await card.getByTestId('count-errors').textContent(),
    });
    // The lines of the findings table's first 50 rows (the table pages on screen too), 1-based as displayed.
    const lines = async () => (await card.getByTestId('finding-line').allTextContents()).map(Number).filter((n) => !Number.isNaN(n));
    const range = card.getByTestId('result-page-range');
    const bounds = async () => ((await range.textContent()) ?? '').match(/\d+/g)!.map(Number);
    await range.waitFor();
    const whole = await counts();
    expect(Number(whole.refused!.replace(/\D/g, ''))).toBe(BAD_LINES);
    expect(await range.textContent()).toMatch(lang === 'en' ? /^Findings up to line \d+; the file has more\.$/ : /^Anomalies jusqu’à la ligne \d+\u202f; le fichier en contient d’autres\.$/);
    let [to] = await bounds();
    expect(Math.min(...(await lines()))).toBe(1);
    let pages = 1;
    while ((await card.getByTestId('result-next-page').count()) > 0) {
      const before = await range.textContent();
      await card.getByTestId('result-next-page').click();
      await expect.poll(() => range.textContent(), { timeout: 10_000 }).not.toBe(before);
      const [from, next] = await bounds();
      // Each page starts on the line after the previous one ended, and shows its own lines.
      expect(from).toBe(to! + 1);
      expect(Math.min(...(await lines()))).toBeGreaterThanOrEqual(from!);
      if (next !== undefined) expect(Math.max(...(await lines()))).toBeLessThanOrEqual(next);
      to = next;
      pages++;
      // The figures stay the whole file's.
      expect(await counts()).toEqual(whole);
    }
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(await range.textContent()).toMatch(lang === 'en' ? /^Findings from line \d+ to the end of the file\.$/ : /^Anomalies de la ligne \d+ à la fin du fichier\.$/);
    expect(to).toBeUndefined();
    await card.getByTestId('result-first-page').click();
    await expect.poll(async () => Math.min(...(await lines()))).toBe(1);
    expect(await range.textContent()).toMatch(lang === 'en' ? /^Findings up to line/ : /^Anomalies jusqu’à la ligne/);
    expect(await card.getByTestId('result-first-page').count()).toBe(0);
    await screenshot(page, 'ledes-result-pages', lang);
    await context.close();
  }, 90_000);
});
