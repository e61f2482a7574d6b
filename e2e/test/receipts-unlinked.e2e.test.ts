import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginAsAdmin, newContext, screenshot } from '../src/browser.ts';
import { describeFindings, scan, settle, splitKnown, switchLanguage, writeReport, type Finding } from '../src/a11y.ts';
import { createAgent, seedAgentPatents, sharedPortal, withAdmin } from '../src/setup.ts';
import { makePdf } from '../../apps/api/test/support/pdf.ts';
import en from '../../packages/i18n/locales/en/receipts.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/receipts.json' with { type: 'json' };
import enCommon from '../../packages/i18n/locales/en/common.json' with { type: 'json' };
import frCommon from '../../packages/i18n/locales/fr/common.json' with { type: 'json' };
import enPatents from '../../packages/i18n/locales/en/patents.json' with { type: 'json' };
import frPatents from '../../packages/i18n/locales/fr/patents.json' with { type: 'json' };

/**
 * Issue 29 §2, decision 198, in both languages: an admin uploads a receipt whose client reference two patents share
 * (the matcher is not sure), finds it on the unlinked-receipts screen (from the receipts list) with both candidates,
 * searches the patents, links it to one with its year: the receipt leaves the queue and the agents' list and the
 * patent's detail say the year is paid, with the receipt. axe on the screen (phone and desktop); screenshots 1440 and 360.
 */
type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const COMMON = { en: enCommon, fr: frCommon } as const;
const PATENTS = { en: enPatents, fr: frPatents } as const;
const STAMP = Date.now().toString(36).toUpperCase();
const reference = (lang: Lang) => `UNL-${STAMP}-${lang.toUpperCase()}`;
const fileName = (lang: Lang) => `unlinked-${STAMP}-${lang}.pdf`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await withAdmin(browser, sharedPortal(), async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) {
      const agent = await createAgent(adminPage, { tag: `unlinked-${lang}`, langue: lang });
      // Two patents with one client reference: a receipt naming it is ambiguous.
      await seedAgentPatents(browser, sharedPortal(), adminPage, agent, [
        { reference: reference(lang), dueIn: 60, pays: 'FR', quantieme: 9 },
        { reference: reference(lang), dueIn: 90, pays: 'FR', quantieme: 9 },
      ]);
    }
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

async function adminPage(lang: Lang, width: number, height: number): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await newContext(browser, { lang });
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await loginAsAdmin(page);
  await switchLanguage(page, lang);
  return { page, close: () => context.close() };
}

describe.each(['en', 'fr'] as const)('unlinked receipts (%s)', (lang) => {
  const t = TEXTS[lang];

  it('an ambiguous receipt waits in the queue with its candidates; staff link it and the year reads paid', async () => {
    const { page, close } = await adminPage(lang, 1440, 900);
    try {
      await page.goto('/annuities/upload/receipt');
      await settle(page);
      const pdf = makePdf(['INPI - paiement de redevance', `Reference client : ${reference(lang)}`, 'Annuite 9', 'Montant 290,00 EUR']);
      await page.getByTestId('receipt-file-input').setInputFiles({ name: fileName(lang), mimeType: 'application/pdf', buffer: pdf });
      await page.getByTestId('receipt-upload-submit').click();
      await expect.poll(() => page.getByTestId('receipt-upload-success').textContent()).toContain(t.upload.success);

      // From the receipts list to the queue.
      await page.goto('/annuities/list-receipt');
      await page.getByTestId('receipts-unlinked').click();
      await page.waitForURL('**/annuities/list-receipt/unlinked');
      await expect.poll(() => page.locator('main h1').textContent()).toBe(t.unlinked.title);
      const row = page.getByTestId('unlinked-row').filter({ hasText: fileName(lang) });
      await expect.poll(async () => row.count(), { timeout: 30_000, interval: 1000 }).toBe(1);
      expect(await row.getByTestId('unlinked-confidence').textContent()).toBe(t.unlinked.confidence.ambiguous);
      // What the matcher read: both patents, found by the client reference, year 9.
      await expect.poll(() => row.getByTestId('unlinked-candidate').count()).toBe(2);
      const candidates = await row.getByTestId('unlinked-candidate').allTextContents();
      for (const c of candidates) {
        expect(c).toContain(reference(lang));
        expect(c).toContain(t.unlinked.evidence.client_reference);
      }
      expect(await row.getByTestId('unlinked-link').isDisabled()).toBe(true);
      await screenshot(page, 'receipts-unlinked-1440', lang);

      // The patents search finds both; one is chosen, its year proposed.
      await row.getByTestId('unlinked-search').fill(reference(lang));
      await expect.poll(() => row.getByTestId('unlinked-results').getByRole('radio').count(), { timeout: 10_000 }).toBe(2);
      await row.getByTestId('unlinked-results').getByRole('radio').first().check();
      const idagenda = (await row.getByTestId('unlinked-chosen').getAttribute('data-idagenda')) ?? '';
      expect(idagenda).toMatch(/^WEB-/);
      expect(await row.getByTestId('unlinked-chosen').textContent()).toContain(idagenda);
      expect(await row.getByTestId('unlinked-year').inputValue()).toBe('9');

      await page.setViewportSize({ width: 360, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(page, 'receipts-unlinked-360', lang);
      await page.setViewportSize({ width: 1440, height: 900 });

      await row.getByTestId('unlinked-link').click();
      // Linked: it leaves the queue.
      await expect.poll(() => page.getByTestId('unlinked-row').filter({ hasText: fileName(lang) }).count(), { timeout: 10_000 }).toBe(0);

      // The agents' list: the linked patent's year is paid (the row's ledger badge and its tone), the other one not.
      await page.goto('/patent-annuities');
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-references').fill(reference(lang));
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(2);
      const paidRow = page.locator(`[data-testid="patent-row"][data-idagenda="${idagenda}"]`);
      await expect.poll(() => paidRow.getByTestId('ledger-state').textContent()).toBe(PATENTS[lang].ledger.states.paid);
      expect(await paidRow.getAttribute('data-tone')).toBe('treated');
      expect(await page.locator(`[data-testid="patent-row"]:not([data-idagenda="${idagenda}"])`).getByTestId('ledger-state').count()).toBe(0);

      // The detail: the year paid, with the receipt that proves it.
      await paidRow.getByTestId('patent-details').click();
      const year = page.getByTestId('patent-ledger-year').filter({ hasText: PATENTS[lang].ledger.year.replace('{{year}}', '9') });
      await expect.poll(() => year.getByTestId('ledger-state').textContent()).toBe(PATENTS[lang].ledger.states.paid);
      expect(await year.getByTestId('patent-ledger-paid').textContent()).toContain(PATENTS[lang].ledger.receipt.replace('{{name}}', fileName(lang)));
      expect(await page.getByTestId('patent-ledger').getByRole('heading').textContent()).toBe(PATENTS[lang].detail.sections.ledger);
      expect(COMMON[lang].nav.receiptsUnlinked.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, 180_000);

  it('axe finds nothing critical or serious on the screen (phone and desktop)', async () => {
    const findings: Finding[] = [];
    let scans = 0;
    for (const [size, [width, height]] of Object.entries({ phone: [390, 844], desktop: [1366, 900] } as const)) {
      const { page, close } = await adminPage(lang, width, height);
      try {
        // Reached from the staff menu.
        if (size === 'desktop') {
          await page.getByTestId('menu-patentAnnuities').click();
          await page.getByRole('menuitem', { name: COMMON[lang].nav.receiptsUnlinked }).click();
          await page.waitForURL('**/annuities/list-receipt/unlinked');
        } else {
          await page.goto('/annuities/list-receipt/unlinked');
        }
        await settle(page);
        await page.getByTestId('unlinked-count').or(page.getByTestId('unlinked-empty')).waitFor();
        findings.push(...(await scan(page, `${lang}-${size}-receipts-unlinked`)));
        scans++;
      } finally {
        await close();
      }
    }
    writeReport(`receipts-unlinked-${lang}`, findings, scans);
    const { blocking } = splitKnown(findings);
    expect(blocking, describeFindings(blocking)).toEqual([]);
  }, 180_000);
});
