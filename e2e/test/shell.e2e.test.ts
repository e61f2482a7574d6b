import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, loginAsAdmin, newContext } from '../src/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('language', () => {
  it('follows the browser language, switches fr/en and keeps the choice after a reload', async () => {
    const context = await newContext(browser, { lang: 'en' });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Welcome to the IP Portal' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');

    await page.getByTestId('language-switcher').getByText('FR', { exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Bienvenue sur le Portail PI' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Bienvenue sur le Portail PI' }).waitFor();
    expect(await page.getByTestId('login-button').textContent()).toContain('Se connecter');

    await page.getByTestId('language-switcher').getByText('EN', { exact: true }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome to the IP Portal' }).waitFor();
    await context.close();
  });

  it('starts in French for a French browser', async () => {
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor();
    await context.close();
  });
});

describe('cookie banner', () => {
  for (const [choice, button] of [
    ['accepted', 'Accepter'],
    ['declined', 'Refuser'],
  ] as const) {
    it(`stores ${choice} for one year and hides the banner`, async () => {
      const context = await newContext(browser, { lang: 'fr', consent: null });
      const page = await context.newPage();
      await page.goto('/');
      const banner = page.getByTestId('cookie-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('Nous utilisons des cookies');
      await banner.getByRole('button', { name: button }).click();
      await banner.waitFor({ state: 'detached' });
      const cookie = (await context.cookies()).find((c) => c.name === 'cookie-consent');
      expect(cookie?.value).toBe(choice);
      expect(cookie?.path).toBe('/');
      expect(cookie?.sameSite).toBe('Lax');
      const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(364);
      expect(days).toBeLessThan(367);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByTestId('cookie-banner').count()).toBe(0);
      await context.close();
    });
  }

  it('speaks English to an English browser', async () => {
    const context = await newContext(browser, { lang: 'en', consent: null });
    const page = await context.newPage();
    await page.goto('/');
    const banner = page.getByTestId('cookie-banner');
    await banner.getByRole('button', { name: 'Accept' }).waitFor();
    await banner.getByRole('button', { name: 'Decline' }).waitFor();
    await context.close();
  });
});

describe('navigation bar', () => {
  it('opens a dropdown on click and closes it on an outside click or after a choice', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.getByTestId('menu-ledes').click();
    const item = page.getByRole('menuitem', { name: 'Admin history' });
    await item.waitFor();
    await page.mouse.click(5, 500);
    await item.waitFor({ state: 'hidden' });
    await page.getByTestId('menu-patentAnnuities').click();
    await page.getByRole('menuitem', { name: 'Missing information' }).click();
    await page.waitForURL((u) => u.pathname === '/annuites/patent');
    await page.locator('main h1').first().waitFor();
    // The dropdown closes after the choice.
    await page.getByRole('menuitem', { name: 'Missing information' }).waitFor({ state: 'hidden' });
    expect(await page.getByRole('menuitem').count()).toBe(0);
    await context.close();
  });

  it('closes the information modal on OK, Escape and a click outside', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.goto('/add/user');
    const dialog = page.getByRole('dialog', { name: 'Roles and required information' });
    const open = async () => {
      await page.getByTestId('add-user-help').click();
      await dialog.waitFor();
    };
    await open();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await open();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await open();
    await page.mouse.click(10, 800);
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('collapses into a burger menu at 640 px or less', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.goto('/');
    const burger = page.getByRole('button', { name: 'Open navigation menu' });
    await burger.waitFor();
    expect(await page.getByTestId('login-button').isVisible()).toBe(false);
    await burger.click();
    await page.getByTestId('login-button').waitFor({ state: 'visible' });
    await page.locator('#mobile-menu').getByRole('link', { name: 'Contact' }).click();
    await page.waitForURL((u) => u.pathname === '/contact');
    await context.close();
  });
});
