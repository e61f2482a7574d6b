import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import './context.ts';

export const portal = () => inject('portal');

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts/screenshots');

/**
 * Debian's headless shell (`apt-get install chromium-headless-shell`, the same Blink as `chromium`) when present:
 * it spends about half the CPU of the full browser in headless mode on the same tests (decision 173); the full
 * browser otherwise. `CHROMIUM_PATH` overrides both.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface ContextOptions {
  lang?: 'en' | 'fr';
  /** Pre-set the cookie-consent cookie so the banner stays out of the way. */
  consent?: 'accepted' | 'declined' | null;
  mobile?: boolean;
}

/** A fresh browser profile whose browser language is `lang` (the portal follows it when nothing is remembered). */
export async function newContext(browser: Browser, { lang = 'en', consent = 'accepted', mobile = false }: ContextOptions = {}): Promise<BrowserContext> {
  const { baseUrl } = portal();
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: lang === 'fr' ? 'fr-FR' : 'en-US',
    viewport: mobile ? { width: 390, height: 800 } : { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  });
  if (consent) {
    await context.addCookies([{ name: 'cookie-consent', value: consent, url: baseUrl, sameSite: 'Lax' }]);
  }
  // Generous: the suite shares the machine with builds and benchmarks.
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** Full page for plain screens; `fullPage: false` for overlays (drawers, modals, menus) that cover the viewport. */
/**
 * Pictures are for people to look at (`E2E_SCREENSHOTS=1`, see the README); without it they are not
 * taken, which keeps the suite inside its time budget. Every check made around a picture (headings,
 * no sideways overflow, dialogs inside the viewport, axe) runs either way.
 */
export const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string, lang: 'en' | 'fr', { fullPage = true } = {}): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  // Let transitions and toasts settle.
  await page.waitForTimeout(350);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${lang}.png`), fullPage });
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Where home forwards a user with the annuities menu, an admin included (spec §9: after 100 ms). */
export const ANNUITIES_LANDING = '/annuites/verify';

/** Logs the admin in and waits until home has forwarded them to the verify screen and its heading has the focus. */
export async function loginAsAdmin(page: Page): Promise<void> {
  const { adminEmail, adminPassword } = portal();
  await login(page, adminEmail, adminPassword);
  // Attached rather than visible: on a phone the button sits in the collapsed burger menu.
  await page.getByTestId('logout-button').waitFor({ state: 'attached' });
  await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
  // Settled: the route change has moved the focus to the verify screen's heading (nothing moves it later).
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && !!document.activeElement.closest('main'));
}

/** Picks an option of a Mantine Select by its visible text. */
export async function chooseOption(page: Page, testIdOrLabel: string, optionText: string | RegExp): Promise<void> {
  const input = page.getByTestId(testIdOrLabel).or(page.getByRole('textbox', { name: testIdOrLabel })).first();
  await input.click();
  await page.getByRole('option', { name: optionText }).first().click();
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@portal.test`;
}
