import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chooseOption, launchBrowser, loginAsAdmin, newContext, portal, screenshot } from '../src/browser.ts';
import { readOutbox, resetLinkIn, waitForMail } from '../src/outbox.ts';

/** One picture per screen and language under e2e/artifacts/screenshots/<screen>-<lang>.png. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function switchTo(page: Page, lang: 'en' | 'fr') {
  await page.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

describe.each(['en', 'fr'] as const)('screens in %s', (lang) => {
  it('public screens', async () => {
    const context = await newContext(browser, { lang, consent: null });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('cookie-banner').waitFor();
    await screenshot(page, 'home', lang);
    await page.getByTestId('cookie-banner').getByRole('button').last().click();

    await page.goto('/login');
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill('wrong-password-shot');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').waitFor();
    await screenshot(page, 'login', lang);

    await page.goto('/forgot_password');
    await page.locator('input[name="email"]').fill('not-an-email');
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-error').waitFor();
    await screenshot(page, 'forgot-password', lang);
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    const known = new Set(readOutbox(portal().dataDir).map((m) => m.file));
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-sent').waitFor();
    await screenshot(page, 'forgot-password-sent', lang, { fullPage: false });

    const mail = await waitForMail(portal().dataDir, (m) => !known.has(m.file) && m.to.includes(portal().adminEmail));
    await page.goto(resetLinkIn(mail));
    await page.locator('input[name="password"]').fill('abc');
    await page.locator('input[name="confirm"]').fill('abd');
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-error').waitFor();
    await screenshot(page, 'reset-password', lang);

    await page.goto('/password_reset?id=x&token=y');
    await page.getByTestId('reset-expired').waitFor();
    await screenshot(page, 'reset-expired', lang);

    await page.goto('/contact');
    await chooseOption(page, 'contact-issue', lang === 'fr' ? 'Brevet' : 'Patent');
    await chooseOption(page, 'contact-topic', lang === 'fr' ? 'Brevet manquant' : 'Missing patent');
    await page.locator('input[name="mail"]').pressSequentially('someone@');
    await screenshot(page, 'contact', lang);

    await page.goto('/privacy-policy');
    await screenshot(page, 'privacy-policy', lang);
    await page.goto('/terms-condition');
    await screenshot(page, 'terms-condition', lang);
    await context.close();
  });

  it('admin screens', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);
    await screenshot(page, 'home-admin', lang);

    await page.getByTestId('menu-patentAnnuities').click();
    await page.getByRole('menuitem').first().waitFor();
    await screenshot(page, 'menu-open', lang, { fullPage: false });
    await page.keyboard.press('Escape');

    // A screen of a later issue (placeholder until it is built).
    await page.goto('/add/patents');
    await page.locator('main h1').first().waitFor();
    await screenshot(page, 'coming-soon', lang);

    await page.goto('/add/user');
    await page.locator('input[name="company_agent"]').fill('Cabinet Exemple');
    await page.locator('input[name="email"]').fill('bad-email');
    await chooseOption(page, 'add-user-role', /user_agent_ledes/);
    await page.getByTestId('client-ids').getByRole('textbox').first().fill('CLIENT-001');
    await page.getByTestId('client-ids').getByRole('button').last().click();
    await page.getByTestId('add-user-submit').click();
    await screenshot(page, 'add-user', lang);
    await page.getByTestId('open-address').click();
    await page.getByTestId('address-form').waitFor();
    await page.getByTestId('address-submit').click();
    await screenshot(page, 'address-drawer', lang, { fullPage: false });
    await page.keyboard.press('Escape');

    await page.goto('/add/user');
    await chooseOption(page, 'add-user-role', /user_agent_annuites/);
    await page.getByTestId('codes').waitFor();
    await screenshot(page, 'add-user-annuities', lang);

    await page.goto('/admin/user');
    await page.getByTestId('user-table').waitFor();
    await screenshot(page, 'user-list', lang);

    // Between the phone layout and a wide screen the bar must still fit.
    await page.setViewportSize({ width: 760, height: 900 });
    await screenshot(page, 'user-list-tablet', lang);
    await context.close();
  });

  it('mobile frame', async () => {
    const context = await newContext(browser, { lang, mobile: true });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);
    await page.getByRole('button', { name: lang === 'fr' ? 'Ouvrir le menu de navigation' : 'Open navigation menu' }).click();
    await page.locator('#mobile-menu').getByRole('link').first().waitFor();
    await screenshot(page, 'mobile-menu', lang, { fullPage: false });
    await page.goto('/add/user');
    await chooseOption(page, 'add-user-role', /user_agent_ledes/);
    await page.getByTestId('client-ids').waitFor();
    await screenshot(page, 'add-user-mobile', lang);
    await page.goto('/admin/user');
    await page.getByTestId('user-table').waitFor();
    await screenshot(page, 'user-list-mobile', lang);
    await context.close();
  });
});
