import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ANNUITIES_LANDING, launchBrowser, loginAsAdmin, newContext, portal } from '../src/browser.ts';
import { freshSample, INVALID_SAMPLE, VALID_SAMPLE } from '../src/a11y.ts';
import { createAnnuityUser, portfolioRows, workbook } from '../src/annuities.ts';
import { asAdmin, createLedesAgent } from '../src/users.ts';

/**
 * Issue 9, keyboard walks: log in, switch language, open each menu, use each modal, upload a LEDES file and read
 * its result, the mobile menu — with `page.keyboard` only once the walk starts (no click). Every focus stop is
 * checked for a visible ring that no ancestor clips.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Focused {
  tag: string;
  text: string;
  testId: string | null;
  role: string | null;
  name: string | null;
  inHeader: boolean;
  ringVisible: boolean;
  clippedBy: string | null;
  rect: { top: number; bottom: number };
  href: string | null;
}

/** What has the focus, whether its ring shows (outline ≥ 2 px or a box-shadow) and whether an ancestor clips it. */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement;
    // A field's ring is drawn on its visible box (the password field's input sits inside it).
    const el = active.closest<HTMLElement>('.mantine-Input-input') ?? active;
    const cs = getComputedStyle(el);
    const ringVisible = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none';
    const r = el.getBoundingClientRect();
    // How far the ring reaches outside the element (an inset ring, negative offset, reaches nowhere).
    const ring = cs.outlineStyle === 'none' ? 0 : Math.max(0, parseFloat(cs.outlineWidth || '0') + parseFloat(cs.outlineOffset || '0'));
    let clippedBy: string | null = null;
    for (let a = el.parentElement; a && a !== document.body && ring > 0; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      const clipsX = s.overflowX !== 'visible' && (r.left - ring < b.left - 0.5 || r.right + ring > b.right + 0.5);
      const clipsY = s.overflowY !== 'visible' && (r.top - ring < b.top - 0.5 || r.bottom + ring > b.bottom + 0.5);
      if (clipsX || clipsY) {
        clippedBy = `${a.tagName.toLowerCase()}.${[...a.classList].join('.')}`;
        break;
      }
    }
    return {
      tag: active.tagName.toLowerCase(),
      text: (active.textContent ?? '').trim().slice(0, 80),
      testId: active.getAttribute('data-testid'),
      role: active.getAttribute('role'),
      name: active.getAttribute('aria-label') ?? active.getAttribute('name'),
      inHeader: !!active.closest('header'),
      ringVisible,
      clippedBy,
      rect: { top: r.top, bottom: r.bottom },
      href: active.getAttribute('href'),
    };
  });
}

/** Presses Tab (or Shift+Tab) until `matches` holds for the focused element; each stop must show an unclipped ring. */
async function tabTo(page: Page, matches: (f: Focused) => boolean, what: string, { back = false, max = 80 } = {}): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    seen.push(`${f.tag}[${f.testId ?? f.role ?? f.name ?? ''}] ${f.text.slice(0, 30)}`);
    if (f.tag !== 'body' && f.tag !== 'h1') {
      expect(f.ringVisible, `no visible focus ring on ${seen.at(-1)}`).toBe(true);
      expect(f.clippedBy, `focus ring of ${seen.at(-1)} clipped`).toBeNull();
    }
    if (matches(f)) return f;
  }
  throw new Error(`${what} not reached with Tab; stops: ${seen.join(' | ')}`);
}

/**
 * The focus lands on the screen's heading. Polled: after a forward (home → verify) the previous screen's
 * heading holds the focus until the next screen's chunk has loaded and taken it.
 */
async function expectHeadingFocused(page: Page, heading: string | RegExp) {
  await expect
    .poll(() => page.evaluate(() => (document.activeElement?.tagName === 'H1' ? (document.activeElement.textContent ?? '') : `<${document.activeElement?.tagName ?? 'none'}>`)))
    .toMatch(heading);
  await expect.poll(() => page.getByTestId('route-announcer').textContent()).toMatch(heading);
}

/** The login screen from the keyboard alone: Tab to the e-mail, type it, Tab, the password, Enter. */
async function logInWithKeys(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.locator('input[name="email"]').waitFor();
  await tabTo(page, (f) => f.name === 'email', 'the e-mail field');
  await page.keyboard.type(user.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
}

const byTestId = (id: string) => (f: Focused) => f.testId === id;
const byText = (text: string | RegExp) => (f: Focused) => (typeof text === 'string' ? f.text === text : text.test(f.text));

/** The open menu once its opening transition has ended (before that, Mantine does not handle the arrows yet). */
/**
 * The menu is drawn and has taken the focus. Mantine's focus trap moves the focus into the dropdown on a
 * timer after it mounts; with reduced motion the dropdown is fully opaque before that timer runs, so an
 * arrow key pressed on opacity alone could still land on the trigger (seen once in CI).
 */
async function menuSettled(page: Page) {
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await expect.poll(() => menu.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await expect.poll(() => menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
}

describe('keyboard walks', () => {
  it('cookie banner first, log in, switch language, every menu, the user help modal', async () => {
    const context = await newContext(browser, { consent: null });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('cookie-banner').waitFor();
    // The frame settled (session known, bar drawn), and nothing focused yet: Tab starts from the top of the page.
    await page.getByTestId('login-button').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))).toMatch(/^<body/);

    // The banner is first in the Tab order; after a choice the focus goes to the page's heading.
    const first = await tabTo(page, () => true, 'first stop', { max: 1 });
    expect(first.text).toBe('Decline');
    await tabTo(page, byText('Accept'), 'Accept', { max: 1 });
    await page.keyboard.press('Enter');
    await page.getByTestId('cookie-banner').waitFor({ state: 'detached' });
    expect((await focused(page)).tag).toBe('h1');

    // To the login screen and in.
    await tabTo(page, byTestId('login-button'), 'the login button', { back: true });
    await page.keyboard.press('Enter');
    await expectHeadingFocused(page, /Log in/);
    await tabTo(page, (f) => f.name === 'email', 'the e-mail field');
    await page.keyboard.type(portal().adminEmail);
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('password');
    await page.keyboard.type(portal().adminPassword);
    await page.keyboard.press('Enter');
    // Home forwards the admin (annuities menu) to the verify screen, and the focus follows to its heading.
    await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
    await expectHeadingFocused(page, /Annuities verification/);

    // Language: the switcher is a radio group; the arrow key changes it.
    await tabTo(page, (f) => f.inHeader && f.tag === 'input' && f.role === null && f.text === '', 'the language switcher', { back: true });
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.documentElement.lang === 'en');

    // Each menu opens with Enter, the arrows reach its items, Escape closes it and gives the focus back.
    for (const id of ['ledes', 'annuities', 'patentAnnuities']) {
      await tabTo(page, byTestId(`menu-${id}`), `menu ${id}`, { back: true });
      await page.keyboard.press('Enter');
      await menuSettled(page);
      await page.keyboard.press('ArrowDown');
      expect((await focused(page)).role).toBe('menuitem');
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      expect((await focused(page)).testId).toBe(`menu-${id}`);
    }

    // A menu item leads to its screen, and the focus to its heading.
    await page.keyboard.press('Enter');
    await menuSettled(page);
    await page.keyboard.press('ArrowDown');
    const item = await focused(page);
    expect(item.role, JSON.stringify(item)).toBe('menuitem');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === item.href);
    await expectHeadingFocused(page, new RegExp(item.text, 'i'));

    // The users screen, then the add-user help modal: first focus on OK, a named close button, Escape returns focus.
    await tabTo(page, byTestId('nav-user-list'), 'the users link', { back: true });
    await page.keyboard.press('Enter');
    await expectHeadingFocused(page, /Users/);
    await tabTo(page, byTestId('link-add-user'), 'add a user');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/add/user');
    await tabTo(page, byTestId('add-user-help'), 'the help button');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Mantine moves the focus into the modal once its opening transition has ended.
    await expect.poll(async () => (await focused(page)).text).toBe('OK');
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Mantine gives the focus back once the closing transition has ended.
    await expect.poll(async () => (await focused(page)).testId).toBe('add-user-help');
    await context.close();
  });

  it('forgot password: the dialog focuses its action, and closing it lands on the login heading', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('main h1').waitFor();
    await tabTo(page, byText('Forgot password?'), 'the forgot-password link');
    await page.keyboard.press('Enter');
    await expectHeadingFocused(page, /Forgot password/);
    await tabTo(page, (f) => f.name === 'email', 'the e-mail field');
    // An address with no account gets the same answer and sends nothing: the admin's reset budget
    // (3 requests per 15 minutes) stays for the tests that read the mail.
    await page.keyboard.type('nobody-keyboard@portal.test');
    await page.keyboard.press('Enter');
    await page.getByTestId('forgot-sent').waitFor();
    const f = await focused(page);
    expect(f.tag).toBe('button');
    expect(f.name).toBeNull();
    expect(f.text).not.toBe('');
    // The dialog's × is named.
    expect(await page.getByRole('dialog').locator('.mantine-Modal-close').getAttribute('aria-label')).toBe('Close');
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/login');
    await expectHeadingFocused(page, /Log in/);
    await context.close();
  });

  it('a LEDES agent uploads a file, chooses the recipient and reads the result', async () => {
    const agent = await asAdmin(browser, (adminPage) => createLedesAgent(adminPage, 'kbd'));

    const context = await newContext(browser);
    const page = await context.newPage();
    await logInWithKeys(page, agent);
    await page.waitForURL((u) => u.pathname === '/');
    await expectHeadingFocused(page, /Welcome/);

    await tabTo(page, byTestId('menu-ledes'), 'the LEDES menu', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    // The arrows move within the menu (End: the last item, Home: the first, the upload screen).
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    expect((await focused(page)).href).toBe('/ledes/upload');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/ledes/upload');
    await expectHeadingFocused(page, /LEDES/);

    // The drop zone opens the file chooser from the keyboard.
    const input = page.getByTestId('ledes-file-input');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 15_000 }),
      (async () => {
        await tabTo(page, (f) => /Drag|Drop/.test(f.text) || f.testId === 'file-browse', 'the drop zone');
        await page.keyboard.press('Enter');
      })(),
    ]);
    await chooser.setFiles([freshSample(VALID_SAMPLE), freshSample(INVALID_SAMPLE)]);
    expect(await input.count()).toBe(1);
    await tabTo(page, byTestId('type-patent'), 'the patent type');
    await page.keyboard.press('Space');
    // Each radio group is one Tab stop (issue 26): the next Tab leaves the types for the offices, whose arrows
    // move to the Paris office.
    const office = await tabTo(page, (f) => f.testId?.startsWith('office-') === true, 'the office group', { max: 1 });
    if (office.testId !== 'office-PAR') {
      for (let i = 0; i < 10 && (await focused(page)).testId !== 'office-PAR'; i++) await page.keyboard.press('ArrowRight');
    }
    expect((await focused(page)).testId).toBe('office-PAR');
    await page.keyboard.press('Space');
    await tabTo(page, byTestId('ledes-submit'), 'the submit button');
    await page.keyboard.press('Enter');

    // The recipient dialog: first focus on the first choice (not the close button).
    // Mantine moves the focus once the dialog has opened (after its transition): polled, as the menus above are (the
    // fresh-clone run at load ~15 read the focus while it was still on the submit button).
    await page.getByRole('dialog').waitFor();
    await expect.poll(async () => (await focused(page)).testId).toBe('client-option');
    await page.keyboard.press('Space');
    await tabTo(page, byTestId('client-confirm'), 'confirm');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/result-ledes');
    await expectHeadingFocused(page, /result/i);
    await page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('[data-testid="run-card"]')];
      return cards.length === 2 && cards.every((c) => c.getAttribute('data-run-state') !== 'in_progress');
    });

    // Reading: the tabs of each card are reached and switched with the keyboard.
    await tabTo(page, (f) => f.role === 'tab', 'the first tab list');
    // The arrows move along the tabs (errors, warnings, correct lines, and round again).
    for (let i = 0; i < 3 && (await focused(page)).testId !== 'tab-warnings'; i++) await page.keyboard.press('ArrowRight');
    const tab = await focused(page);
    expect(tab.role).toBe('tab');
    expect(tab.testId).toBe('tab-warnings');
    await page.keyboard.press('Enter');
    await page.getByTestId('finding-warnings').first().waitFor();
    await context.close();
  });

  it('annuities: lands on the verify screen, uploads a workbook, follows it to Done and opens its patents', async () => {
    const user = await asAdmin(browser, (adminPage) => createAnnuityUser(adminPage, 'kbd'));
    const stamp = Date.now().toString(36);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kbd-annuities-')), 'portfolio-keyboard.xlsx');
    writeFileSync(file, await workbook(portfolioRows(`KBD${stamp}`, 12)));
    const title = `Keyboard portfolio ${stamp}`;

    const context = await newContext(browser);
    const page = await context.newPage();
    await logInWithKeys(page, user);
    // Home forwards a user with the annuities menu to the verify screen; the focus follows to its heading.
    await page.waitForURL((u) => u.pathname === ANNUITIES_LANDING);
    await expectHeadingFocused(page, /Annuities verification/);

    // The drop zone opens the file chooser from the keyboard.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 15_000 }),
      (async () => {
        await tabTo(page, (f) => /Drag|Drop/.test(f.text) || f.testId === 'file-browse', 'the drop zone');
        await page.keyboard.press('Enter');
      })(),
    ]);
    await chooser.setFiles(file);
    await page.getByTestId('file-list').waitFor();
    await tabTo(page, byTestId('annuity-title'), 'the title field');
    await page.keyboard.type(title);
    await tabTo(page, byTestId('annuity-submit'), 'the submit button');
    await page.keyboard.press('Enter');

    // The confirmation, then the list by itself, the focus on its heading; the file turns Done there live.
    await page.waitForURL((u) => u.pathname === '/annuities/list-files', { timeout: 10_000 });
    await expectHeadingFocused(page, /Verified annuity files/);
    await page.locator('[data-testid="file-status"][data-status="Done"]').waitFor({ timeout: 60_000 });

    // The file's name opens its patents; Escape closes them and gives the focus back to the name.
    const name = await tabTo(page, byTestId('file-name'), 'the file name');
    expect(name.text).toBe(title);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await dialog.getByTestId('patent-row').first().waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).testId).toBe('file-name');
    await context.close();
  });

  it('mobile menu: Escape closes it and returns to the burger; Tab out of it closes it; the focused link stays on screen', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 500 });
    await loginAsAdmin(page);
    await page.locator('main h1').waitFor();
    await tabTo(page, (f) => f.name === 'Open navigation menu', 'the burger', { back: true });
    await page.keyboard.press('Enter');
    await page.locator('#mobile-menu a').first().waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    expect((await focused(page)).tag).toBe('a');
    await page.keyboard.press('Escape');
    await page.locator('#mobile-menu a').first().waitFor({ state: 'hidden' });
    expect((await focused(page)).name).toBe('Open navigation menu');

    // Every link of the open menu is inside the viewport when focused (the menu scrolls under the bar), on screens of
    // any height: 500 px, and an odd one where fractional layout once left the last link a third of a pixel below.
    for (const height of [500, 433]) {
      await page.setViewportSize({ width: 390, height });
      await tabTo(page, (f) => f.name === 'Open navigation menu', 'the burger', { back: true });
      await page.keyboard.press('Enter');
      await page.locator('#mobile-menu a').first().waitFor({ state: 'visible' });
      let links = 0;
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const f = await focused(page);
        if (!f.inHeader) break;
        links++;
        expect(f.rect.bottom, `${f.text} below a ${height} px screen`).toBeLessThanOrEqual(height);
        expect(f.rect.top).toBeGreaterThanOrEqual(0);
      }
      expect(links, 'the admin menu has more links than fit on the screen').toBeGreaterThan(8);
      // The focus left the menu: it closed.
      await page.locator('#mobile-menu a').first().waitFor({ state: 'hidden' });
    }
    await context.close();
  });
});
