import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chooseOption, launchBrowser, login, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { apiHeaders, asAdmin, createUser } from '../src/users.ts';

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

async function createAnnuitiesUser(langue: 'en' | 'fr'): Promise<{ email: string; password: string }> {
  const user = await asAdmin(browser, (page) => createUser(page, { role: 'user_annuites', tag: 'langue', company: 'Cabinet Langue', langue }));
  return user;
}

/** The user picks `langue` on the login screen of another device (a login through the API with the pick). */
async function chooseAccountLanguage(user: { email: string; password: string }, langue: 'en' | 'fr'): Promise<void> {
  const context = await newContext(browser);
  try {
    const res = await context.request.post('/api/auth/login', { headers: apiHeaders(), data: { email: user.email, password: user.password, langue } });
    expect(res.status()).toBe(200);
  } finally {
    await context.close();
  }
}

describe('language at login', () => {
  it('a language chosen on the login screen wins over the account language and is saved as the account language', async () => {
    const user = await createAnnuitiesUser('en');
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    await page.goto('/login');
    await switchTo(page, 'fr');
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('logout-button').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.getByTestId('logout-button').textContent()).toContain('Se déconnecter');
    const me = (await (await page.request.get('/api/auth/verify_token_', { headers: apiHeaders() })).json()) as { user: { langue: string } };
    expect(me.user.langue).toBe('fr');
    await context.close();

    // Another device with an English browser and no choice: the account's (saved) language applies.
    const other = await newContext(browser, { lang: 'en' });
    const otherPage = await other.newPage();
    await login(otherPage, user.email, user.password);
    await otherPage.getByTestId('logout-button').waitFor();
    await otherPage.waitForFunction(() => document.documentElement.lang === 'fr');
    expect(await otherPage.getByTestId('logout-button').textContent()).toContain('Se déconnecter');
    await other.close();
  });
});

describe('an account language that was never chosen (decision 154)', () => {
  it('does not flip a French browser to English at login: the default never overrides the browser', async () => {
    const user = await createAnnuitiesUser('en');
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    await login(page, user.email, user.password);
    await page.getByTestId('logout-button').waitFor();
    await page.waitForURL((u) => u.pathname !== '/login');
    // Long enough for a hand-over to the account's language to have landed, had there been one.
    await page.waitForLoadState('networkidle');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.getByTestId('logout-button').textContent()).toContain('Se déconnecter');
    await context.close();
  });
});

describe('a language picked while the login applies the account language', () => {
  it('wins: the switcher shows the language on its way, so picking the other one is a real change', async () => {
    const user = await createAnnuitiesUser('en');
    // English becomes the account's chosen language (a pick at an earlier login elsewhere), so it applies at login.
    await chooseAccountLanguage(user, 'en');
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    // The English texts arrive only when the test says so: the hand-over to the account's language is slow,
    // as on a slow link, and the pick lands inside it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested!: () => void;
    const englishRequested = new Promise<void>((resolve) => (requested = resolve));
    await page.route(/\/assets\/en-[^/]+\.js$/, async (route) => {
      requested();
      await released;
      await route.continue();
    });
    await login(page, user.email, user.password);
    await englishRequested;
    const switcher = page.getByTestId('language-switcher');
    // The account's language is on its way: the switcher already says so (the page still reads French).
    await page.waitForFunction(() => document.querySelector('[data-testid="language-switcher"] input[value="en"]')?.matches(':checked') === true);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await switcher.getByText('FR', { exact: true }).click();
    const delivered = page.waitForEvent('requestfinished', (request) => /\/assets\/en-[^/]+\.js$/.test(request.url()));
    release();
    await delivered;
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.getByTestId('logout-button').waitFor({ state: 'attached' });
    // The English texts have arrived (and i18next has had time to apply them if it were going to): the pick stands.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.getByTestId('logout-button').textContent()).toContain('Se déconnecter');
    await context.close();
  });
});

describe('messages already shown follow a language switch', () => {
  it('the login error re-translates', async () => {
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Please enter your email and password.');
    await switchTo(page, 'fr');
    expect(await error.textContent()).toBe('Veuillez saisir votre e-mail et votre mot de passe.');

    await switchTo(page, 'en');
    await login(page, portal().adminEmail, 'definitely-not-the-password');
    await page.getByText('Incorrect email or password.').waitFor();
    await switchTo(page, 'fr');
    expect(await error.textContent()).toBe('E-mail ou mot de passe incorrect.');
    await context.close();
  });

  it('a notification re-translates', async () => {
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/add/user');
    await page.locator('input[name="company_agent"]').fill('Cabinet Doublon');
    // The admin's own address: the account already exists.
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill('Temporary-password-123');
    await chooseOption(page, 'add-user-role', /user_annuites/);
    await page.getByTestId('add-user-submit').click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'The user could not be added.' });
    await toast.waitFor();
    // Hovering keeps a Mantine notification open while the language changes.
    await toast.hover();
    expect(await toast.textContent()).toContain('An account with this email address already exists.');
    // The toast covers the switcher (both top right): a dispatched click keeps the pointer on the toast.
    await page.getByTestId('language-switcher').getByText('FR', { exact: true }).dispatchEvent('click');
    const french = page.locator('.mantine-Notification-root').filter({ hasText: 'L’utilisateur n’a pas pu être ajouté.' });
    await french.waitFor({ timeout: 5_000 });
    expect(await french.textContent()).toContain('Un compte existe déjà avec cette adresse e-mail.');
    await context.close();
  });
});
