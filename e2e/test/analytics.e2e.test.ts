import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, loginAsAdmin, newContext, screenshot } from '../src/browser.ts';
import { describeFindings, NARROW_PHONE, scan, splitKnown } from '../src/a11y.ts';
import { checkLedes } from '../src/ledes.ts';
import { asAdmin, createUser } from '../src/users.ts';

/**
 * Issue 31 §2: the admins' spend analytics in both languages: figures in the page's locale, each chart's bars
 * reachable by keyboard with their values announced, a data table beside each chart, filters with a translated
 * refusal, exports, axe; pictures at 360 and 1440 px.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  const idClient = `SPEND-${Date.now().toString(36)}`;
  const agent = await asAdmin(browser, (adminPage) => createUser(adminPage, { role: 'user_agent_ledes', tag: 'spend', idClient: [idClient] }));
  const context = await newContext(browser);
  const page = await context.newPage();
  await login(page, agent.email, agent.password);
  await page.getByTestId('logout-button').waitFor();
  await checkLedes(page, idClient, 'spend.txt');
  await context.close();
}, 240_000);
afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: { title: 'LEDES spend analytics', decimal: /^\d{1,3}(,\d{3})*\.\d{2}$/, bar: /: spend [\d,]+\.\d{2}, refused [\d,]+\.\d{2}$/, month: /^Jan 1999$/, badMonth: 'A month is written YYYY-MM' },
  fr: { title: 'Analyse des dépenses LEDES', decimal: /^\d{1,3}([\u202f\u00a0]\d{3})*,\d{2}$/, bar: /\u00a0: dépenses [\d\u202f\u00a0]+,\d{2}, refusé [\d\u202f\u00a0]+,\d{2}$/, month: /^janv\. 1999$/, badMonth: 'Un mois s’écrit AAAA-MM' },
} as const;

async function open(page: Page, lang: 'en' | 'fr') {
  await loginAsAdmin(page);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await page.goto('/ledes/analytics');
  await page.getByTestId('analytics-total-spend').waitFor();
}

describe.each(['en', 'fr'] as const)('spend analytics (%s)', (lang) => {
  it('figures in the page’s locale, charts reachable by keyboard with values announced, tables, filters, axe', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await open(page, lang);
    await expect(page.locator('main h1').textContent()).resolves.toBe(TEXT[lang].title);
    expect((await page.getByTestId('analytics-total-spend').textContent())!.trim()).toMatch(TEXT[lang].decimal);
    // The month chart names January 1999 (the sample's lines) in the page's language.
    const monthBars = page.getByTestId('chart-month').getByRole('listitem');
    expect(await monthBars.count()).toBeGreaterThan(0);
    expect(await page.getByTestId('analytics-section-month').getByRole('cell', { name: TEXT[lang].month }).count()).toBe(1);
    // Every chart has its table; each bar is a Tab stop whose name carries the figures.
    for (const d of ['law_firm', 'client', 'matter', 'timekeeper', 'task', 'month']) {
      const section = page.getByTestId(`analytics-section-${d}`);
      expect(await section.getByRole('table').count()).toBe(1);
      expect(await section.getByRole('listitem').first().getAttribute('aria-label')).toMatch(TEXT[lang].bar);
    }
    const firstBar = page.getByTestId('chart-law_firm').getByRole('listitem').first();
    await firstBar.focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(TEXT[lang].bar);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');

    const { blocking } = splitKnown(await scan(page, `analytics-${lang}`, { alsoGate: ['color-contrast'] }));
    expect(blocking, describeFindings(blocking)).toEqual([]);

    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'w1440-ledes-analytics', lang);
    await page.setViewportSize(NARROW_PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'w360-ledes-analytics', lang);

    // A bad month: the server's translated refusal on the page, no crash.
    await page.getByTestId('analytics-from').fill('1999-13');
    await page.getByTestId('analytics-apply').click();
    await page.getByText(TEXT[lang].badMonth).waitFor();
    // A period with the sample's month: the figures follow.
    await page.getByTestId('analytics-from').fill('1999-01');
    await page.getByTestId('analytics-to').fill('1999-01');
    await page.getByTestId('analytics-apply').click();
    await page.getByTestId('analytics-load-error').waitFor({ state: 'detached' });
    expect(await page.getByTestId('chart-month').getByRole('listitem').count()).toBe(1);
    // The CSV export downloads a file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('analytics-export-csv').click()]);
    expect(download.suggestedFilename()).toBe('ledes-spend.csv');
    await context.close();
  }, 120_000);
});
