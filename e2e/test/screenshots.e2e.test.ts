import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchBrowser, login, loginAsAdmin, newContext, portal, screenshot } from '../src/browser.ts';
import { ADMIN_PHONE_SCREENS, ADMIN_SCREENS, checkScreen, PUBLIC_SCREENS, WIDTH_ADMIN_SCREENS, WIDTH_PUBLIC_SCREENS, type Screen } from '../src/screens.ts';
import { INVALID_SAMPLE, VALID_SAMPLE } from '../src/a11y.ts';
import { portfolioRows, uploadChecked, workbook } from '../src/annuities.ts';
import { checkLedes } from '../src/ledes.ts';
import { asAdmin, createUser, type CreatedUser } from '../src/users.ts';
import { apiLogin, createPatentUser, seedPatents } from '../src/patents.ts';

/** One picture per screen and language under e2e/artifacts/screenshots/<screen>-<lang>.png. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function switchTo(page: Page, lang: 'en' | 'fr') {
  // After a login the app applies the account's language, then leaves /login: a switch made before
  // that could be undone by it (the session, hence the logout button, is there a moment earlier).
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/**
 * Every screen of src/screens.ts in both languages: opened, brought into its state, checked (no sideways overflow,
 * no raw translation key, a focus ring on the first Tab stop) and, with E2E_SCREENSHOTS=1, pictured.
 */
async function visit(page: Page, screens: readonly Screen[], lang: 'en' | 'fr') {
  for (const screen of screens) {
    if (screen.path) await page.goto(screen.path);
    await screen.ready?.(page, lang);
    await screenshot(page, screen.name, lang, { fullPage: !screen.viewport });
    await checkScreen(page, `${screen.name} (${lang})`);
    await screen.after?.(page);
  }
}

it('the screen checks fail on a raw key, a sideways overflow and a focus without a ring', async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto('/privacy-policy');
  await page.locator('main h1').first().waitFor();
  await checkScreen(page, 'privacy-policy as it is');
  const spoiled = async (spoil: () => void) => {
    await page.reload();
    await page.locator('main h1').first().waitFor();
    await page.evaluate(spoil);
    return checkScreen(page, 'spoiled').then(() => 'passed', (e: Error) => e.message);
  };
  expect(await spoiled(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<p>nav.openMenu</p>'))).toMatch(/translation keys/);
  expect(await spoiled(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<p>legal.someMissingKey</p>'))).toMatch(/translation keys/);
  expect(await spoiled(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<div style="width:5000px">wide</div>'))).toMatch(/wider than the viewport/);
  expect(await spoiled(() => document.head.insertAdjacentHTML('beforeend', '<style>*:focus, *:focus-visible { outline: none !important; box-shadow: none !important; }</style>'))).toMatch(/no focus ring/);
  await context.close();
});

describe.each(['en', 'fr'] as const)('screens in %s', (lang) => {
  it('public screens', async () => {
    const context = await newContext(browser, { lang, consent: null });
    const page = await context.newPage();
    await visit(page, PUBLIC_SCREENS, lang);
    await context.close();
  });

  it('admin screens', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);
    await visit(page, ADMIN_SCREENS, lang);
    await context.close();
  });

  it('mobile frame', async () => {
    const context = await newContext(browser, { lang, mobile: true });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);
    await visit(page, ADMIN_PHONE_SCREENS, lang);
    await context.close();
  });
});

/**
 * Issue 9: every screen at 360, 680, 1024 and 1440 px in both languages →
 * artifacts/screenshots/w<width>-<screen>-<lang>.png. Each picture asserts the screen's heading is shown and that
 * nothing is wider than the viewport (no sideways scrolling of the page), and that the bar's items do not overlap.
 */
const WIDTHS = [360, 680, 1024, 1440] as const;
/** The list screens of WIDTH_ADMIN_SCREENS and their rows (the admin's LEDES history holds the agent's two runs). */
const LIST_CARDS: Partial<Record<string, { row: string }>> = { 'user-list': { row: 'user-row' }, 'ledes-admin-history': { row: 'history-row' } };

async function assertLayout(page: Page, label: string) {
  await page.locator('main h1').first().waitFor();
  const layout = await page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    // The header's direct controls: logo, menu triggers, links, language switcher, login/logout.
    const nav = document.querySelector('header nav');
    const boxes = nav
      ? [...nav.querySelectorAll(':scope > a, :scope > div > button, :scope > div > a, :scope > div > div, :scope > div > [data-testid="language-switcher"]')]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0)
      : [];
    let overlaps = 0;
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const inside = (a.left >= b.left && a.right <= b.right) || (b.left >= a.left && b.right <= a.right);
        if (!inside && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps++;
      }
    return { overflow, overlaps };
  });
  expect(layout.overflow, `${label}: page wider than the viewport`).toBeLessThanOrEqual(0);
  expect(layout.overlaps, `${label}: items of the bar overlap`).toBe(0);
}

interface ShootOptions {
  /** Brings the screen into its state again after each resize (nothing by default). */
  prepare?: () => Promise<void>;
  /** A modal is open: it must fit the viewport too, and the picture is the viewport (the overlay covers it). */
  dialog?: boolean;
  /** A list screen (issue 27 §3): at 360 px it shows cards (the rows with this test id are <li>) and no table. */
  cards?: { row: string; empty?: boolean };
}

/** A phone shows cards on every list: no <table> in the screen (or its dialog), and every row is a card (<li>). */
async function assertCards(page: Page, label: string, scope: 'main' | 'dialog', { row, empty = false }: { row: string; empty?: boolean }) {
  const root = scope === 'dialog' ? page.getByRole('dialog').first() : page.locator('main');
  const rows = root.getByTestId(row);
  if (!empty) await expect.poll(() => rows.count(), { message: `${label}: no ${row} shown` }).toBeGreaterThan(0);
  // The switch to cards follows the media query in an effect: a table still there a moment after the resize is waited out.
  await expect.poll(() => root.locator('table').count(), { message: `${label}: a table at 360 px, not cards` }).toBe(0);
  const tags = await rows.evaluateAll((els) => [...new Set(els.map((el) => el.tagName))]);
  expect(tags.filter((tag) => tag !== 'LI'), `${label}: rows that are not cards`).toEqual([]);
}

async function shoot(page: Page, screen: string, lang: 'en' | 'fr', { prepare, dialog = false, cards }: ShootOptions = {}) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // The bar switches layout in an effect after the resize: let it render (burger at 640 px or less).
    await page.locator('button[aria-controls="mobile-menu"]').waitFor({ state: width <= 640 ? 'visible' : 'detached' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await prepare?.();
    await assertLayout(page, `${screen} at ${width}`);
    if (cards && width === 360) await assertCards(page, `${screen} at ${width}`, dialog ? 'dialog' : 'main', cards);
    if (dialog) {
      const box = await page.getByRole('dialog').first().evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, width: window.innerWidth };
      });
      expect(box.left, `${screen} at ${width}: the dialog starts off screen`).toBeGreaterThanOrEqual(0);
      expect(box.right, `${screen} at ${width}: the dialog ends off screen`).toBeLessThanOrEqual(box.width);
    }
    await screenshot(page, `w${width}-${screen}`, lang, { fullPage: !dialog });
  }
}

/** A LEDES agent's real results (one refused file with findings, one accepted) and an annuity file of the admin's. */
const ANNUITY_TAG = `SHOT${Date.now().toString(36).toUpperCase()}`;
let agent: CreatedUser;
let resultPath = '';

beforeAll(async () => {
  const idClient = `SHOT-${Date.now().toString(36)}`;
  agent = await asAdmin(browser, async (adminPage) => {
    await uploadChecked(adminPage.request, 'screens-portfolio.xlsx', `Screens portfolio ${ANNUITY_TAG}`, await workbook(portfolioRows(ANNUITY_TAG, 40)));
    return createUser(adminPage, { role: 'user_agent_ledes', tag: 'screens', company: 'Cabinet Exemple', idClient: [idClient] });
  });
  const context = await newContext(browser);
  const page = await context.newPage();
  await login(page, agent.email, agent.password);
  await page.getByTestId('logout-button').waitFor();
  const runs = [await checkLedes(page, idClient, path.basename(INVALID_SAMPLE), INVALID_SAMPLE), await checkLedes(page, idClient, path.basename(VALID_SAMPLE))];
  resultPath = `/result-ledes?runs=${runs.join(',')}`;
  await context.close();
}, 240_000);

describe.each(['en', 'fr'] as const)('screens at 360, 680, 1024 and 1440 px in %s', (lang) => {
  it('public and admin screens', async () => {
    const context = await newContext(browser, { lang, consent: null });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('cookie-banner').waitFor();
    await shoot(page, 'home-banner', lang);
    await page.getByTestId('cookie-banner').getByRole('button').last().click();
    for (const [name, path] of WIDTH_PUBLIC_SCREENS) {
      await page.goto(path);
      await shoot(page, name, lang);
    }
    await loginAsAdmin(page);
    await switchTo(page, lang);
    for (const [name, path] of WIDTH_ADMIN_SCREENS) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await shoot(page, name, lang, LIST_CARDS[name] ? { cards: LIST_CARDS[name] } : {});
    }
    await context.close();
  }, 180_000);

  it('LEDES agent screens: the history and a real result', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await switchTo(page, lang);
    await page.goto('/ledes/history');
    await page.getByTestId('history-row').first().waitFor();
    expect(await page.getByTestId('history-row').count()).toBe(2);
    await shoot(page, 'ledes-history', lang, { cards: { row: 'history-row' } });
    // Between a run's Done and its treated workbook (decision 182: ~2 s for 200,000 lines) the history says the file
    // is coming: that moment, held by answering the history with the newest run's workbook not recorded yet.
    await page.route(/\/historique\?/, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { path_treated: string | null }[] };
      body.data[0]!.path_treated = null;
      await route.fulfill({ response, json: body });
    });
    await page.reload();
    await page.getByTestId('treated-pending').waitFor();
    expect(await page.getByTestId('treated-pending').count()).toBe(1);
    await shoot(page, 'ledes-history-treated-pending', lang, { cards: { row: 'history-row' } });
    await page.unroute(/\/historique\?/);
    await page.goto(resultPath);
    await page.waitForFunction(() => {
      const cards = [...document.querySelectorAll('[data-testid="run-card"]')];
      return cards.length === 2 && cards.every((c) => c.getAttribute('data-run-state') !== 'in_progress');
    });
    expect(await page.getByTestId('run-card').first().getByTestId('finding-label').first().textContent()).not.toBe('');
    await shoot(page, 'ledes-result', lang);
    await context.close();
  }, 120_000);

  it('annuities screens, the receipt screens and the main modals', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);

    // The verify screen's help modal (the column picture).
    await page.getByTestId('verify-help').click();
    await page.getByTestId('columns-picture').waitFor();
    await shoot(page, 'annuities-verify-help', lang, { dialog: true });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.goto('/annuities/list-files');
    await page.getByTestId('files-search').fill(ANNUITY_TAG);
    const file = page.getByTestId('file-row').filter({ hasText: ANNUITY_TAG }).first();
    await file.locator('[data-testid="file-status"][data-status="Done"]').waitFor();
    await shoot(page, 'annuities-list-files', lang, { cards: { row: 'file-row' } });
    // The patents of the file, from its name.
    await file.getByTestId('file-name').click();
    await page.getByRole('dialog').getByTestId('patent-row').first().waitFor();
    await shoot(page, 'annuities-patents-modal', lang, { dialog: true, cards: { row: 'patent-row' } });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.goto('/annuities/research');
    await page.getByTestId('research-search').fill(ANNUITY_TAG);
    await page.getByTestId('research-hit').first().waitFor();
    await shoot(page, 'annuities-research', lang);

    // The receipt screens (issue 13; with data in receipts.e2e's own pictures): the list, the upload after an empty submit.
    await page.goto('/annuities/list-receipt');
    await page.getByTestId('receipts-count').waitFor();
    // No receipt here: the list's empty state, still without a table.
    await shoot(page, 'receipt-list', lang, { cards: { row: 'receipt-row', empty: true } });
    await page.goto('/annuities/upload/receipt');
    await page.getByTestId('receipt-upload-submit').click();
    await page.getByTestId('error-receipt-file').waitFor();
    await shoot(page, 'receipt-upload', lang);
    await context.close();
  }, 240_000);
});

/** Issue 11: the patent screens, on a small portfolio of every state (seeded through the API: submitted, then accepted). */
const PATENT_TAG = `PSHOT${Date.now().toString(36).toUpperCase()}`;

beforeAll(async () => {
  await asAdmin(browser, async (adminPage) => {
    const agent = await createPatentUser(adminPage, 'user_agent_annuites', 'patent-shots');
    const context = await newContext(browser);
    try {
      const agentPage = await context.newPage();
      await agentPage.goto('/');
      await apiLogin(agentPage, agent);
      await seedPatents(agentPage, adminPage, agent, [
        { reference: `${PATENT_TAG}-01`, dueIn: -20, pays: 'FR' },
        { reference: `${PATENT_TAG}-02`, dueIn: 4, pays: 'DE' },
        { reference: `${PATENT_TAG}-03`, dueIn: 45, pays: 'EP', instruction: 1 },
        { reference: `${PATENT_TAG}-04`, dueIn: 60, pays: 'GB', noPublication: true },
        { reference: `${PATENT_TAG}-05`, dueIn: 75, pays: 'IT', noPublication: true },
        { reference: `${PATENT_TAG}-06`, dueIn: 90, pays: 'ES', instruction: 2 },
      ]);
      // One submission left pending for the review screen.
      await agentPage.request.post('/api/brevet_eptane/create', {
        headers: { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl, 'content-type': 'application/json' },
        data: { numero_depot: 'FR2099001', reference_client: `${PATENT_TAG}-NEW`, pays: 'FR', date_echeance_annuites: null, quantieme: 4, cout: 62 },
      });
    } finally {
      await context.close();
    }
  });
}, 180_000);

describe.each(['en', 'fr'] as const)('patent screens at 360, 680, 1024 and 1440 px in %s', (lang) => {
  it('portfolio, its modals, patents to validate, missing information, add patent, submissions', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await loginAsAdmin(page);
    await switchTo(page, lang);
    await page.goto('/patent-annuities');
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-references').fill(PATENT_TAG);
    await page.getByTestId('filters-apply').click();
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(4);
    await shoot(page, 'patent-annuities', lang, { cards: { row: 'patent-row' } });
    await page.getByTestId('tab-unvalidated').click();
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(2);
    await shoot(page, 'patent-annuities-unvalidated', lang, { cards: { row: 'patent-row' } });
    await page.getByTestId('patent-details').first().click();
    await page.getByTestId('patent-schedule').waitFor();
    await shoot(page, 'patent-detail', lang, { dialog: true });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByTestId('new-case-open').click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, 'patent-new-case', lang, { dialog: true });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.goto('/annuites/patent/instruction');
    await page.getByTestId('validate-search').fill(PATENT_TAG);
    await expect.poll(() => page.getByTestId('validate-row').count()).toBe(2);
    await shoot(page, 'patents-to-validate', lang, { cards: { row: 'validate-row' } });

    await page.goto('/annuites/patent');
    await page.getByTestId('missing-search').fill(`${PATENT_TAG}-0`);
    await page.getByTestId('missing-row').first().waitFor();
    await shoot(page, 'patents-missing-info', lang, { cards: { row: 'missing-row' } });

    await page.goto('/add/patents');
    await page.getByTestId('add-submit').click();
    await page.getByTestId('add-summary').getByRole('alert').or(page.getByTestId('add-summary')).first().waitFor();
    await shoot(page, 'add-patents', lang);

    await page.goto('/annuites/patent/submissions');
    await page.getByTestId('submission').first().waitFor();
    await shoot(page, 'patent-submissions', lang, { cards: { row: 'submission' } });
    await context.close();
  }, 240_000);
});
