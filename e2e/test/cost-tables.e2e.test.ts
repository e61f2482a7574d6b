import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chooseOption, launchBrowser, loginAsAdmin, newContext, screenshot } from '../src/browser.ts';
import { describeFindings, scan, splitKnown, switchLanguage } from '../src/a11y.ts';
import en from '../../packages/i18n/locales/en/costs.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/costs.json' with { type: 'json' };
import enCommon from '../../packages/i18n/locales/en/common.json' with { type: 'json' };
import frCommon from '../../packages/i18n/locales/fr/common.json' with { type: 'json' };

/**
 * Issue 30 §1 (decision 199), the admins' cost tables (/annuites/costs) in both languages: reached from the menu;
 * an empty submit asks for a file; an ECB historical CSV is imported through the screen and its rates appear in
 * the newest-rate table; an agent's fee is added and listed with its validity, then deleted; axe finds nothing
 * serious. Screenshots at 1440 and 360 px: artifacts/screenshots/cost-tables-<width>-<lang>.png.
 */

type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const COMMON = { en: enCommon, fr: frCommon } as const;
const PATH = '/annuites/costs';
/** A start day of this run only (the agents' fees have one row per office and start day). */
const runDay = (lang: Lang) => {
  const n = Date.now() % 10_000;
  const d = new Date(Date.UTC(2040, 0, 1) + (n * 2 + (lang === 'fr' ? 1 : 0)) * 86_400_000);
  return d.toISOString().slice(0, 10);
};
/** The ECB's historical CSV form, with the ISO test currency XTS (test figures). */
const ECB_CSV = 'Date,USD,XTS,\n2001-01-03,0.9423,1.2345,\n2001-01-02,0.9405,1.2301,\n';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['en', 'fr'] as const)('cost tables page (%s)', (lang) => {
  const t = TEXTS[lang];
  it('imports an ECB file and keeps an agent’s fee through the screen', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await loginAsAdmin(page);
      await switchLanguage(page, lang);
      await page.getByRole('button', { name: COMMON[lang].nav.patentAnnuities }).first().click();
      await page.getByRole('menuitem', { name: COMMON[lang].nav.costTables }).click();
      await page.waitForURL(`**${PATH}`);
      await expect.poll(() => page.locator('main h1').textContent()).toBe(t.title);
      await page.getByTestId('official-tables').waitFor();
      // The engine's tables are listed read-only with their verification.
      expect(await page.getByTestId('official-tables').textContent()).toContain('GB-2018-04-06');

      await page.getByTestId('ecb-submit').click();
      await expect.poll(() => page.getByTestId('error-ecb-file').textContent()).toContain(t.ecb.chooseFile);
      await page.getByTestId('ecb-file-input').setInputFiles({ name: 'eurofxref-hist.csv', mimeType: 'text/csv', buffer: Buffer.from(ECB_CSV) });
      await page.getByTestId('ecb-submit').click();
      await expect.poll(() => page.getByTestId('ecb-latest').textContent(), { timeout: 30_000 }).toContain('XTS');
      await expect.poll(() => page.getByTestId('ecb-imports').textContent()).toContain('eurofxref-hist.csv');

      const day = runDay(lang);
      await chooseOption(page, 'agent-fee-key', 'SE');
      await page.getByTestId('agent-fee-amount').fill('120');
      await page.getByTestId('agent-fee-currency').fill('SEK');
      await page.getByTestId('agent-fee-from').fill(day);
      await page.getByTestId('agent-fee-submit').click();
      const row = page.getByTestId('agent-fees').locator('tr').filter({ hasText: 'SEK' }).filter({ hasText: day.slice(0, 4) });
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBeGreaterThan(0);

      const findings = await scan(page, `cost-tables-${lang}`);
      const { blocking } = splitKnown(findings);
      expect(blocking, describeFindings(blocking)).toEqual([]);
      await screenshot(page, 'cost-tables-1440', lang);
      await page.setViewportSize({ width: 360, height: 780 });
      await page.waitForTimeout(250);
      await screenshot(page, 'cost-tables-360', lang);
      await page.setViewportSize({ width: 1440, height: 900 });

      // The same start day again is refused with the server's translated reason.
      await page.getByTestId('agent-fee-submit').click();
      await expect.poll(() => page.getByTestId('agent-fee-error').textContent(), { timeout: 30_000 }).toBeTruthy();
      const before = await row.count();
      await row.first().getByRole('button').click();
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(before - 1);
    } finally {
      await context.close();
    }
  }, 180_000);
});
