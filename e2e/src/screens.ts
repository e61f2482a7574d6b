import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOption, portal } from './browser.ts';
import { readOutbox, resetLinkIn, waitForMail } from './outbox.ts';

/**
 * The screens every language pass visits, as data: one line adds a screen. Each is opened (`path`), brought into
 * the state worth looking at (`ready`, optional), then checked by `checkScreen` (no sideways overflow, no raw
 * translation key shown, a visible focus ring on the first Tab stop) and, with `E2E_SCREENSHOTS=1`, pictured.
 * `screenshots.e2e.test.ts` walks them in both languages; `npm run screenshots` writes the pictures.
 */
export type Lang = 'en' | 'fr';

export interface Screen {
  name: string;
  /** Opened first; omitted, the screen is reached from the previous one's state. */
  path?: string;
  /** Brings the screen into its state (fills, submits, opens) before the checks. */
  ready?: (page: Page, lang: Lang) => Promise<void>;
  /** An overlay (menu, drawer, sent notice): the picture is the viewport. */
  viewport?: boolean;
  /** Leaves the state after the checks (closes the overlay). */
  after?: (page: Page) => Promise<void>;
}

const escape = async (page: Page) => page.keyboard.press('Escape');
/** The outbox's files before the reset was asked for, so that the mail found is this pass's. */
let resetAsked = new Set<string>();

/** Logged out, no consent remembered: the banner is the first thing seen. */
export const PUBLIC_SCREENS: readonly Screen[] = [
  { name: 'home', path: '/', ready: async (page) => page.getByTestId('cookie-banner').waitFor(), after: async (page) => page.getByTestId('cookie-banner').getByRole('button').last().click() },
  {
    name: 'login',
    path: '/login',
    ready: async (page) => {
      await page.locator('input[name="email"]').fill(portal().adminEmail);
      await page.locator('input[name="password"]').fill('wrong-password-shot');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('login-error').waitFor();
    },
  },
  {
    name: 'forgot-password',
    path: '/forgot_password',
    ready: async (page) => {
      await page.locator('input[name="email"]').fill('not-an-email');
      await page.getByTestId('forgot-submit').click();
      await page.getByTestId('forgot-error').waitFor();
    },
  },
  {
    name: 'forgot-password-sent',
    viewport: true,
    ready: async (page) => {
      await page.locator('input[name="email"]').fill(portal().adminEmail);
      resetAsked = new Set(readOutbox(portal().dataDir).map((m) => m.file));
      await page.getByTestId('forgot-submit').click();
      await page.getByTestId('forgot-sent').waitFor();
    },
  },
  {
    name: 'reset-password',
    ready: async (page) => {
      const mail = await waitForMail(portal().dataDir, (m) => !resetAsked.has(m.file) && m.to.includes(portal().adminEmail));
      await page.goto(resetLinkIn(mail));
      await page.locator('input[name="password"]').fill('abc');
      await page.locator('input[name="confirm"]').fill('abd');
      await page.getByTestId('reset-submit').click();
      await page.getByTestId('reset-error').waitFor();
    },
  },
  { name: 'reset-expired', path: '/password_reset?id=x&token=y', ready: async (page) => page.getByTestId('reset-expired').waitFor() },
  {
    name: 'contact',
    path: '/contact',
    ready: async (page, lang) => {
      await chooseOption(page, 'contact-issue', lang === 'fr' ? 'Brevet' : 'Patent');
      await chooseOption(page, 'contact-topic', lang === 'fr' ? 'Brevet manquant' : 'Missing patent');
      await page.locator('input[name="mail"]').pressSequentially('someone@');
    },
  },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'terms-condition', path: '/terms-condition' },
];


/** Logged in as the admin, on a desktop width. */
export const ADMIN_SCREENS: readonly Screen[] = [
  // Home forwards an admin (annuities menu) to the verify screen: that is where they land.
  { name: 'landing-admin', ready: async (page) => page.locator('main h1').first().waitFor() },
  {
    name: 'menu-open',
    viewport: true,
    ready: async (page) => {
      await page.getByTestId('menu-patentAnnuities').click();
      await page.getByRole('menuitem').first().waitFor();
    },
    after: escape,
  },
  { name: 'add-patents-admin', path: '/add/patents', ready: async (page) => page.locator('main h1').first().waitFor() },
  { name: 'receipts-unlinked', path: '/annuities/list-receipt/unlinked', ready: async (page) => page.getByTestId('unlinked-count').or(page.getByTestId('unlinked-empty')).waitFor() },
  { name: 'account-notifications', path: '/account/notifications', ready: async (page) => page.getByTestId('notify-ledes_digest').waitFor() },
  { name: 'cost-tables', path: '/annuites/costs', ready: async (page) => page.getByTestId('official-tables').waitFor() },
  { name: 'renewal-calls', path: '/annuites/calls', ready: async (page) => page.getByTestId('calls-table').waitFor() },
  {
    name: 'add-user',
    path: '/add/user',
    ready: async (page) => {
      await page.locator('input[name="company_agent"]').fill('Cabinet Exemple');
      await page.locator('input[name="email"]').fill('bad-email');
      await chooseOption(page, 'add-user-role', /user_agent_ledes/);
      await page.getByTestId('client-ids').getByRole('textbox').first().fill('CLIENT-001');
      await page.getByTestId('client-ids').getByRole('button').last().click();
      await page.getByTestId('add-user-submit').click();
    },
  },
  {
    name: 'address-drawer',
    viewport: true,
    ready: async (page) => {
      await page.getByTestId('open-address').click();
      await page.getByTestId('address-form').waitFor();
      await page.getByTestId('address-submit').click();
    },
    after: escape,
  },
  { name: 'add-user-annuities', path: '/add/user', ready: async (page) => {
    await chooseOption(page, 'add-user-role', /user_agent_annuites/);
    await page.getByTestId('codes').waitFor();
  } },
  { name: 'user-list', path: '/admin/user', ready: async (page) => page.getByTestId('user-table').waitFor() },
  // Between the phone layout and a wide screen the bar must still fit.
  { name: 'user-list-tablet', ready: async (page) => page.setViewportSize({ width: 760, height: 900 }) },
];

/** Logged in as the admin on a phone (390 px). */
export const ADMIN_PHONE_SCREENS: readonly Screen[] = [
  {
    name: 'mobile-menu',
    viewport: true,
    ready: async (page, lang) => {
      await page.getByRole('button', { name: lang === 'fr' ? 'Ouvrir le menu de navigation' : 'Open navigation menu' }).click();
      await page.locator('#mobile-menu').getByRole('link').first().waitFor();
    },
  },
  { name: 'add-user-mobile', path: '/add/user', ready: async (page) => {
    await chooseOption(page, 'add-user-role', /user_agent_ledes/);
    await page.getByTestId('client-ids').waitFor();
  } },
  { name: 'user-list-mobile', path: '/admin/user', ready: async (page) => page.getByTestId('user-table').waitFor() },
];

/** The plain screens of the width matrix (360, 680, 1024, 1440 px): logged out, then as the admin. */
export const WIDTH_PUBLIC_SCREENS: ReadonlyArray<readonly [name: string, path: string]> = [
  ['login', '/login'],
  ['forgot-password', '/forgot_password'],
  ['contact', '/contact'],
  ['privacy-policy', '/privacy-policy'],
  ['terms-condition', '/terms-condition'],
  ['reset-expired', '/password_reset?id=x&token=y'],
];
export const WIDTH_ADMIN_SCREENS: ReadonlyArray<readonly [name: string, path: string]> = [
  ['landing-admin', '/annuites/verify'],
  ['add-user', '/add/user'],
  ['user-list', '/admin/user'],
  ['ledes-upload-admin', '/ledes/upload'],
  ['ledes-admin-history', '/ledes/history/admin'],
  ['ledes-guidelines', '/ledes/guidelines'],
  ['ledes-analytics', '/ledes/analytics'],
  ['account-notifications', '/account/notifications'],
  ['cost-tables', '/annuites/costs'],
  // Issue 30 §3: the renewal calls per client (decision 202).
  ['renewal-calls', '/annuites/calls'],
  // Issue 30 §2: the renewal budget (the admin's whole portfolio; decision 201).
  ['forecast', '/annuites/forecast'],
  // Issue 29 §3: the register sync and its discrepancies (empty on the shared portal: no OPS credentials; the
  // register e2e pictures it with discrepancies).
  ['register-discrepancies', '/annuites/register'],
];

/** Every key of the locale files (both languages), and their first segments: a text equal to one is a raw key. */
const LOCALES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/i18n/locales');
function localeKeys(): { keys: string[]; groups: string[] } {
  const keys = new Set<string>();
  const walk = (node: unknown, prefix: string) => {
    if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
    else {
      keys.add(prefix);
      keys.add(prefix.replace(/_(zero|one|two|few|many|other)$/, ''));
    }
  };
  for (const lang of readdirSync(LOCALES)) {
    for (const file of readdirSync(path.join(LOCALES, lang)).filter((f) => f.endsWith('.json'))) {
      const ns = file.replace(/\.json$/, '');
      const tree = JSON.parse(readFileSync(path.join(LOCALES, lang, file), 'utf8')) as unknown;
      walk(tree, '');
      walk({ [ns]: tree }, '');
    }
  }
  const groups = new Set([...keys].map((k) => k.split('.')[0]!));
  return { keys: [...keys], groups: [...groups] };
}
const KEYS = localeKeys();

/** What the page shows that looks like a translation key: a text node or label equal to a key, or `group.word…` under a known group. */
async function rawKeys(page: Page): Promise<string[]> {
  return page.evaluate(({ keys, groups }) => {
    const known = new Set(keys);
    const group = new Set(groups);
    const looksLikeKey = (s: string) => {
      if (known.has(s) || (s.includes(':') && known.has(s.slice(s.indexOf(':') + 1)))) return true;
      const m = /^([a-z][A-Za-z0-9]*)(\.[A-Za-z][A-Za-z0-9_]*)+$/.exec(s);
      return !!m && group.has(m[1]!);
    };
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      if (text && looksLikeKey(text) && n.parentElement?.closest('script, style') === null) found.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = el.getAttribute(attr)?.trim();
        if (v && looksLikeKey(v)) found.push(`${attr}=${v}`);
      }
    }
    return found;
  }, KEYS);
}

/** Presses Tab and answers whether the element that took the focus shows a ring (outline of 2 px or more, or a box-shadow). */
async function focusRing(page: Page): Promise<{ ring: boolean; what: string }> {
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return { ring: false, what: 'nothing took the focus' };
    const el = active.closest<HTMLElement>('.mantine-Input-input') ?? active;
    const cs = getComputedStyle(el);
    const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none';
    return { ring, what: `${active.tagName.toLowerCase()}${active.getAttribute('data-testid') ? `[data-testid=${active.getAttribute('data-testid')}]` : ''} "${(active.textContent ?? '').trim().slice(0, 40)}"` };
  });
}

/** The checks every screen passes in every language. The focus moves (one Tab): call it after the picture. */
export async function checkScreen(page: Page, label: string): Promise<void> {
  // Rendered: every screen has its heading (a Tab pressed before the app rendered found nothing to focus).
  await page.locator('main h1').first().waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label}: page wider than the viewport`).toBeLessThanOrEqual(0);
  expect(await rawKeys(page), `${label}: translation keys shown instead of texts`).toEqual([]);
  const focus = await focusRing(page);
  expect(focus.ring, `${label}: no focus ring on ${focus.what}`).toBe(true);
}
