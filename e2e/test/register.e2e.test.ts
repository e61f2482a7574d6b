import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, TAKE_SCREENSHOTS } from '../src/browser.ts';
import { ARTIFACTS, describeFindings, NARROW_PHONE, scan, settle, splitKnown, switchLanguage, writeReport, type Finding } from '../src/a11y.ts';
import { startPortalProcess, type PortalProcess } from '../src/global-setup.ts';
import { adminSession, createAgent, seedAgentPatents, withAdmin } from '../src/setup.ts';
import { FakeOps, fixture, RECORDED_HEADERS } from '../../packages/registers/test/ops-server.ts';
import en from '../../packages/i18n/locales/en/register.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/register.json' with { type: 'json' };

/**
 * Issue 29 §3, the discrepancies screen in both languages (decisions 196, 197). A portal of its own, with OPS
 * credentials pointing at a local OPS that serves the recorded answers of packages/registers; an agent's three EP
 * patents: EP2400812 year 9 unpaid (the register records the 9th fee paid on 2018-06-20), EP1000000 (its register
 * answer made "revoked" on 2023-03-01) year 15 instructed and year 16 due. The admin syncs from the screen (live
 * progress to Done), then sees the three discrepancies, each with its register link; English accepts the register
 * for the paid one, French keeps one with a note. axe on each state; pictures at 1440 and 360 px:
 * artifacts/screenshots/w{1440,360}-register-discrepancies-<lang>.png.
 */
type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const xml = (body: string) => ({ status: 200, headers: RECORDED_HEADERS, body });
const NOT_FOUND = { status: 404, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-entity-not-found.xml') };
const REVOKED_UPP = fixture('register-upp-EP2400812.xml').replace(
  '<ns3:ep-patent-status change-date="20201002" status-code="7">No opposition filed within time limit</ns3:ep-patent-status>',
  '<ns3:ep-patent-status change-date="20230301" status-code="7">The patent has been revoked</ns3:ep-patent-status>',
);

let ops: FakeOps;
let server: PortalProcess;
let browser: Browser;
const findings: Finding[] = [];

/** The admin of this file's portal, logged in through the API. */
const adminPage = (lang: Lang) => adminSession(browser, server.info, { lang });

beforeAll(async () => {
  ops = await new FakeOps().tokens().start();
  ops
    .route('GET /3.2/rest-services/register/publication/epodoc/EP2400812/procedural-steps', xml(fixture('register-procedural-steps-EP2400812.xml')))
    .route('GET /3.2/rest-services/register/publication/epodoc/EP2400812/upp', xml(fixture('register-upp-EP2400812.xml')))
    .route('GET /3.2/rest-services/legal/publication/epodoc/EP2400812', NOT_FOUND)
    .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/procedural-steps', xml(fixture('register-procedural-steps-EP2400812.xml')))
    .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/upp', xml(REVOKED_UPP))
    .route('GET /3.2/rest-services/legal/publication/epodoc/EP1000000', xml(fixture('legal-EP1000000.xml')));
  [server, browser] = await Promise.all([startPortalProcess({ OPS_CONSUMER_KEY: 'e2e-consumer-key', OPS_CONSUMER_SECRET: 'e2e-consumer-secret', OPS_BASE_URL: ops.url }), launchBrowser()]);
  await withAdmin(browser, server.info, async (page) => {
    const agent = await createAgent(page, { tag: 'register-agent', langue: 'en', code: 'CODE-REGISTER', company: 'Cabinet Register' });
    await seedAgentPatents(
      browser,
      server.info,
      page,
      agent,
      [
        { numero_depot: 'EP10167109', numero_publication: 'EP2400812', reference_client: 'ACME-BLUETOOTH', quantieme: 9, date_echeance_annuites: '2027-06-30', instruction_paiement: null },
        { numero_depot: 'EP99203729', numero_publication: 'EP1000000', reference_client: 'BETA-15', quantieme: 15, date_echeance_annuites: '2027-05-31', instruction_paiement: 1 },
        { numero_depot: 'EP99203729', numero_publication: 'EP1000000', reference_client: 'BETA-16', quantieme: 16, date_echeance_annuites: '2027-05-31', instruction_paiement: null },
      ].map((p) => ({ ...p, date_depot: '2010-06-24', reference_cabinet: `NS-${p.reference_client}`, pays: 'EP', origine: 'national', cout: 500 })),
    );
  });
}, 240_000);

afterAll(async () => {
  const { blocking } = splitKnown(findings);
  writeReport('register', findings, findings.length);
  await browser?.close();
  await server?.stop();
  await ops?.stop();
  expect(blocking, describeFindings(blocking)).toEqual([]);
});

/** axe at the current state, and the pictures at 1440 and 360 px. */
async function capture(page: Page, lang: Lang): Promise<void> {
  findings.push(...(await scan(page, `register-${lang}`)));
  for (const [width, height] of [
    [1440, 900],
    [NARROW_PHONE.width, NARROW_PHONE.height],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    // No sideways scroll at any width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    findings.push(...(await scan(page, `register-${width}-${lang}`)));
    if (TAKE_SCREENSHOTS) {
      mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'screenshots', `w${width}-register-discrepancies-${lang}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe.each(['en', 'fr'] as const)('register discrepancies screen (%s)', (lang) => {
  const t = TEXTS[lang];

  it(lang === 'en' ? 'syncs from the screen with live progress, lists the three discrepancies, accepts the register' : 'lists what is left in French and keeps one with a note', async () => {
    const { ctx, page } = await adminPage(lang);
    try {
      await page.goto('/annuites/register');
      await switchLanguage(page, lang);
      await settle(page);
      await expect.poll(() => page.locator('main h1').first().textContent()).toBe(t.title);
      if (lang === 'en') {
        await page.getByTestId('register-empty').waitFor();
        await page.getByTestId('register-sync-now').click();
        // Live progress over socket.io: the run ends Done with its summary, then the discrepancies are read again.
        await page.getByTestId('register-run-summary').waitFor({ timeout: 60_000 });
        expect(await page.getByTestId('register-run-progress').textContent()).toBe('Patents read: 3 of 3');
        await expect.poll(() => page.getByTestId('register-discrepancy').count(), { timeout: 15_000 }).toBe(3);
        const kinds = await page.getByTestId('register-discrepancy-kind').allTextContents();
        expect(kinds.sort()).toEqual([t.kinds.instruction_on_lapsed, t.kinds.register_lapsed, t.kinds.register_paid].sort());
        const paid = page.getByTestId('register-discrepancy').filter({ hasText: t.kinds.register_paid });
        expect(await paid.getByTestId('register-discrepancy-register').textContent()).toMatch(/^Fee paid on 20\sJun\s2018$/);
        expect(await paid.getByTestId('register-discrepancy-link').getAttribute('href')).toBe('https://register.epo.org/application?number=EP10167109&lng=en&tab=main');
        await capture(page, lang);
        await paid.getByTestId('register-accept').click();
        await expect.poll(() => page.getByTestId('register-discrepancy').count()).toBe(2);
        expect(await page.getByTestId('register-total').textContent()).toBe('2 discrepancies');
      } else {
        await expect.poll(() => page.getByTestId('register-discrepancy').count()).toBe(2);
        expect(await page.getByTestId('register-sync-now').textContent()).toBe(t.sync.now);
        await capture(page, lang);
        const lapsed = page.getByTestId('register-discrepancy').filter({ hasText: t.kinds.register_lapsed });
        expect(await lapsed.getByTestId('register-discrepancy-portal').textContent()).toBe(t.states.due);
        await lapsed.getByTestId('register-keep').click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        await dialog.getByTestId('register-keep-save').click();
        await dialog.getByText(t.keep.required).waitFor();
        findings.push(...(await scan(page, 'register-keep-fr')));
        await dialog.getByTestId('register-keep-note').fill('Restauration demandée le 12-04-2023');
        await dialog.getByTestId('register-keep-save').click();
        await expect.poll(() => page.getByTestId('register-discrepancy').count()).toBe(1);
        expect(await page.getByTestId('register-total').textContent()).toBe('1 écart');
      }
    } finally {
      await ctx.close();
    }
  }, 180_000);
});
