import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, newContext, screenshot } from '../src/browser.ts';
import { describeFindings, scan, settle, splitKnown, switchLanguage, WIDTHS, writeReport, type Finding } from '../src/a11y.ts';
import { asAdmin } from '../src/users.ts';
import { apiLogin, createPatentUser, seedPatents, type PatentAgent } from '../src/patents.ts';
import { buildZip } from '../../packages/annuities/test/support/zip.ts';
import { makePdf, receiptPdf } from '../../apps/api/test/support/pdf.ts';
import en from '../../packages/i18n/locales/en/receipts.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/receipts.json' with { type: 'json' };
import enCommon from '../../packages/i18n/locales/en/common.json' with { type: 'json' };
import frCommon from '../../packages/i18n/locales/fr/common.json' with { type: 'json' };
import enPatents from '../../packages/i18n/locales/en/patents.json' with { type: 'json' };
import frPatents from '../../packages/i18n/locales/fr/patents.json' with { type: 'json' };

/**
 * Issue 13, the receipt screens in both languages: an annuities agent reaches the list from the menu,
 * an empty submit says to choose a file, a zip with a manifest is uploaded through the screen ('Zip
 * upload', then home after 2 s), its receipts are in the list (search, the "to complete" badge, the
 * linked patent) and one is downloaded; the patent's detail lists it. axe on both screens (phone and
 * desktop). Screenshots at 1440 and 360 px: artifacts/screenshots/receipts-{upload,list}-<width>-<lang>.png.
 * The PDFs and the zip are made here (apps/api/test/support/pdf.ts, the annuities' zip builder).
 */
type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const COMMON = { en: enCommon, fr: frCommon } as const;
const PATENTS = { en: enPatents, fr: frPatents } as const;
const STAMP = Date.now().toString(36).toUpperCase();
const agents: Partial<Record<Lang, PatentAgent>> = {};
const reference = (lang: Lang) => `RCPT-${STAMP}-${lang.toUpperCase()}`;
/** The receipts' file names: this run and language only (the agents share a cabinet with other runs). */
const linkedName = (lang: Lang) => `linked-${STAMP}-${lang}.pdf`;
const blankName = (lang: Lang) => `blank-${STAMP}-${lang}.pdf`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await asAdmin(browser, async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) {
      const agent = await createPatentUser(adminPage, 'user_agent_annuites', `receipts-${lang}`, lang);
      const context = await newContext(browser);
      try {
        const agentPage = await context.newPage();
        await agentPage.goto('/');
        await apiLogin(agentPage, agent);
        await seedPatents(agentPage, adminPage, agent, [{ reference: reference(lang), dueIn: 60, pays: 'FR' }]);
      } finally {
        await context.close();
      }
      agents[lang] = agent;
    }
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** Two receipts: one described by the manifest (linked to the agent's patent), one without references (to complete). */
function receiptZip(lang: Lang): Buffer {
  const manifest = `file;reference_client;reference_inpi;reference_dennemeyer;date_ordre_paiement\r\n${linkedName(lang)};${reference(lang)};INPI-${STAMP};DEN-${STAMP};2027-02-15\r\n`;
  return buildZip([
    { name: 'manifest.csv', data: manifest },
    { name: linkedName(lang), data: receiptPdf({}) },
    { name: blankName(lang), data: makePdf(['Merci']) },
  ]);
}

describe.each(['en', 'fr'] as const)('receipt screens (%s)', (lang) => {
  const t = TEXTS[lang];

  it('uploads a zip with a manifest, finds its receipts in the list, downloads one, and sees it on the patent', async () => {
    const agent = agents[lang]!;
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await login(page, agent.email, agent.password);
      await page.waitForURL((url) => url.pathname !== '/login');
      await switchLanguage(page, lang);
      await page.getByRole('button', { name: COMMON[lang].nav.patentAnnuities }).first().click();
      await page.getByRole('menuitem', { name: COMMON[lang].nav.receipts }).click();
      await page.waitForURL('**/annuities/list-receipt');
      await expect.poll(() => page.locator('main h1').textContent()).toBe(t.list.title);

      await page.getByTestId('receipts-new-upload').click();
      await page.waitForURL('**/annuities/upload/receipt');
      await expect.poll(() => page.locator('main h1').textContent()).toBe(t.upload.title);
      // A file is required: the error flag.
      await page.getByTestId('receipt-upload-submit').click();
      await expect.poll(() => page.getByTestId('error-receipt-file').textContent()).toContain(t.upload.errors.chooseFile);
      await screenshot(page, 'receipts-upload-1440', lang);

      await page.getByTestId('receipt-file-input').setInputFiles({ name: `receipts-${lang}.zip`, mimeType: 'application/zip', buffer: receiptZip(lang) });
      await page.getByTestId('receipt-upload-submit').click();
      await expect.poll(() => page.getByTestId('receipt-upload-success').textContent()).toContain(t.upload.success);
      // Two seconds later, home.
      await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/annuites/verify', { timeout: 10_000 });

      await page.goto('/annuities/list-receipt');
      await settle(page);
      await page.getByTestId('receipts-search').fill(`${STAMP}-${lang}`);
      await expect.poll(() => page.getByTestId('receipt-row').count(), { timeout: 30_000 }).toBe(2);
      const linked = page.getByTestId('receipt-row').filter({ hasText: linkedName(lang) });
      await expect.poll(() => linked.textContent()).toContain(reference(lang));
      expect(await linked.getByTestId('receipt-patent').textContent()).not.toBe(t.list.noPatent);
      expect(await linked.getByTestId('receipt-to-complete').count()).toBe(0);
      const blank = page.getByTestId('receipt-row').filter({ hasText: blankName(lang) });
      expect(await blank.getByTestId('receipt-to-complete').textContent()).toBe(t.list.toCompleteBadge);
      const [download] = await Promise.all([page.waitForEvent('download'), linked.getByTestId('receipt-download').click()]);
      expect(download.suggestedFilename()).toBe(linkedName(lang));
      expect(readFileSync(await download.path(), 'latin1').startsWith('%PDF-')).toBe(true);
      await page.mouse.move(0, 0);
      await page.getByRole('tooltip').waitFor({ state: 'detached' }).catch(() => undefined);
      await screenshot(page, 'receipts-list-1440', lang);

      await page.setViewportSize({ width: 360, height: 800 });
      await page.getByTestId('receipt-row').first().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(page, 'receipts-list-360', lang);
      await page.goto('/annuities/upload/receipt');
      await settle(page);
      await page.getByTestId('receipt-upload').first().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(page, 'receipts-upload-360', lang);

      // The patent's detail lists its receipt.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto('/patent-annuities');
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-references').fill(reference(lang));
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(1);
      await page.getByTestId('patent-details').first().click();
      await page.getByTestId('patent-receipts').waitFor();
      await expect.poll(() => page.getByTestId('patent-receipts').textContent()).toContain(linkedName(lang));
      expect(await page.getByTestId('patent-receipts').getByRole('heading').textContent()).toBe(PATENTS[lang].detail.sections.receipts);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('axe finds nothing critical or serious on both screens, with data and after an empty submit (phone and desktop)', async () => {
    const agent = agents[lang]!;
    const findings: Finding[] = [];
    let scans = 0;
    for (const [size, viewport] of Object.entries(WIDTHS)) {
      const context = await newContext(browser, { lang });
      const page = await context.newPage();
      try {
        await page.setViewportSize(viewport);
        await login(page, agent.email, agent.password);
        await page.waitForURL((url) => url.pathname !== '/login');
        await switchLanguage(page, lang);
        await page.goto('/annuities/list-receipt');
        await settle(page);
        await page.getByTestId('receipts-count').waitFor();
        findings.push(...(await scan(page, `${lang}-${size}-receipt-list`)));
        await page.goto('/annuities/upload/receipt');
        await settle(page);
        await page.getByTestId('receipt-upload-submit').click();
        await page.getByTestId('error-receipt-file').waitFor();
        findings.push(...(await scan(page, `${lang}-${size}-receipt-upload-empty-submit`)));
        scans += 2;
      } finally {
        await context.close();
      }
    }
    writeReport(`receipts-${lang}`, findings, scans);
    const { blocking } = splitKnown(findings);
    expect(blocking, describeFindings(blocking)).toEqual([]);
  }, 180_000);
});
