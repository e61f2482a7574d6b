import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ANNUITIES_LANDING, launchBrowser, login, loginAsAdmin, newContext, portal, uniqueEmail } from '../src/browser.ts';
import { asAdmin, createLedesAgent } from '../src/users.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('login', () => {
  it('logs the admin in and shows the admin menus', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    // The desktop menus are their own chunk (decision 64): they arrive a moment after the frame.
    await page.getByTestId('menu-ledes').waitFor({ timeout: 5_000 });
    await expect(page.getByTestId('menu-ledes').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('nav-user-list').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('shows the server message under the password field on a wrong password', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await login(page, portal().adminEmail, 'definitely-not-the-password');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Incorrect email or password.');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('locks an e-mail out after 5 failures', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = uniqueEmail('lockout');
    await page.goto('/login');
    await page.locator('input[name="email"]').fill(email);
    const error = page.getByTestId('login-error');
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.locator('input[name="password"]').fill(`wrong-password-${i}`);
      await page.getByTestId('login-submit').click();
      await page.waitForFunction(() => {
        const b = document.querySelector<HTMLButtonElement>('[data-testid="login-submit"]');
        return b !== null && !b.disabled;
      });
      await error.waitFor();
      texts.push((await error.textContent()) ?? '');
    }
    expect(texts.slice(0, 5)).toEqual(Array(5).fill('Incorrect email or password.'));
    expect(texts[5]).toBe('Too many attempts, please try again in 5 minutes');
    await context.close();
  });

  it('shows the lockout message in French for a French browser', async () => {
    const context = await newContext(browser, { lang: 'fr' });
    const page = await context.newPage();
    const email = uniqueEmail('verrou');
    for (let i = 0; i < 6; i++) {
      await page.request.post('/api/auth/login', {
        headers: { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl, 'content-type': 'application/json' },
        data: { email, password: `wrong-${i}-password` },
      });
    }
    await login(page, email, 'another-wrong-password');
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/tentatives/i);
    await context.close();
  });
});

describe('navigation guard', () => {
  it('sends a visitor of a connected route to /login with the redirect and back after login', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/admin/user');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin/user');
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill(portal().adminPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/admin/user');
    await page.getByTestId('user-table').waitFor();
    await context.close();
  });

  it('guards the /annuites/patent routes and keeps later screens inside the frame', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/annuites/patent/instruction');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/annuites/patent/instruction');
    await context.close();
  });

  it('ignores an off-site redirect value', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login?redirect=//evil.example/steal');
    await page.locator('input[name="email"]').fill(portal().adminEmail);
    await page.locator('input[name="password"]').fill(portal().adminPassword);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('logout-button').waitFor();
    await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
    expect(new URL(page.url()).origin).toBe(portal().baseUrl);
    await context.close();
  });

  it('sends a logged-in user away from /login and unknown paths to / (and an admin on to the verify screen)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    const seen: string[] = [];
    page.on('framenavigated', (frame) => {
      const at = new URL(frame.url()).pathname;
      // A page load reports its path twice (commit and load): keep each stop once.
      if (frame === page.mainFrame() && seen.at(-1) !== at) seen.push(at);
    });
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
    expect(seen).toEqual(['/login', '/', ANNUITIES_LANDING, '/no/such/page', '/', ANNUITIES_LANDING]);
    // An admin-only screen stays open to the admin (whatever screen fills it).
    await page.goto('/ledes/history/admin');
    await page.locator('main h1').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/ledes/history/admin');
    await context.close();
  });

  it('keeps a user without the annuities menu on home (a LEDES agent is not forwarded)', async () => {
    const agent = await asAdmin(browser, (adminPage) => createLedesAgent(adminPage, 'home'));

    const context = await newContext(browser);
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    await page.locator('main h1').first().waitFor();
    // Well past the admin's 100 ms: still home.
    await page.waitForTimeout(1_000);
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('asks the server on each navigation: a session ended elsewhere sends the next click to /login', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    // Log out from a second tab of the same browser.
    const other = await context.newPage();
    await other.goto('/');
    await other.getByTestId('logout-button').click();
    await other.waitForURL((u) => u.pathname === '/login');
    await page.waitForTimeout(1_600); // past the session's short cache
    // A client-side navigation in the first tab (no reload).
    await page.getByTestId('nav-user-list').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin/user');
    await page.getByTestId('login-button').waitFor();
    await context.close();
  });

  it('logs out to /login and guards again', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await loginAsAdmin(page);
    await page.getByTestId('logout-button').click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByTestId('login-button').waitFor();
    await page.goto('/ledes/upload');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/ledes/upload');
    await context.close();
  });
});
