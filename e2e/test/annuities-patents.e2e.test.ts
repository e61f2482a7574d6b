import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { AnnuityColour, AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { launchBrowser, login, newContext, screenshot } from '../src/browser.ts';
import { asAdmin } from '../src/users.ts';
import { shownDay } from '../src/format.ts';
import {
  createAnnuityUser,
  exportDay,
  exportRows,
  patentsOf,
  portfolioRows,
  uploadChecked,
  workbook,
  type AnnuityUser,
} from '../src/annuities.ts';
import en from '../../packages/i18n/locales/en/annuities.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/annuities.json' with { type: 'json' };
import { RANGE_THROTTLE_MS } from '../../apps/web/src/features/annuities/patentsModel.ts';

/**
 * Issue 10, the patents-by-file modal, the edit patent modal and /annuities/research, in both
 * languages: a user_annuites' files are seeded through the API (generated workbooks, waited on until
 * Done); the user finds a patent from /annuities/research, opens its file's modal and uses every
 * control (page size, search, sort, colour filters, copy, register link, selection and bulk comment,
 * edit with its 400, Escape); the export downloaded through the API then holds the edit and the
 * comment. "All" on a 20,000-row file keeps a window of rows in the DOM. A keyboard-only walk.
 * Screenshots: artifacts/screenshots/annuities-<screen>-<width>-<lang>.png.
 */

type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const ROWS = 75;
const BIG_ROWS = 20_000;
const COLOURS: AnnuityColour[] = ['ok', 'nok', 'orange', 'no_date'];
const STAMP = Date.now().toString(36).toUpperCase();

let browser: Browser;
/** One user per language (the account's language applies at login); each owns its files. */
const users = {} as Record<Lang, AnnuityUser>;
interface Seeded {
  file: AnnuityFileDto;
  patents: AnnuityPatentDto[];
  tag: string;
}
const files = {} as Record<Lang, Seeded>;
let big: { file: AnnuityFileDto; tag: string };

beforeAll(async () => {
  browser = await launchBrowser();
  await asAdmin(browser, async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) users[lang] = await createAnnuityUser(adminPage, `patents-${lang}`, lang);
  });

  for (const lang of ['en', 'fr'] as const) {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await login(page, users[lang].email, users[lang].password);
    await page.getByTestId('logout-button').waitFor({ state: 'attached' });
    const tag = `P${STAMP}${lang.toUpperCase()}`;
    const file = await uploadChecked(page.request, `portfolio-${lang}.xlsx`, `Portfolio ${lang} ${STAMP}`, await workbook(portfolioRows(tag, ROWS)));
    files[lang] = { file, patents: await patentsOf(page.request, file._id), tag };
    await context.close();
  }
}, 400_000);

afterAll(async () => {
  await browser?.close();
});

async function userPage(lang: Lang, opts: { width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, { lang });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  if (opts.width) await page.setViewportSize({ width: opts.width, height: 900 });
  await login(page, users[lang].email, users[lang].password);
  await page.getByTestId('logout-button').waitFor({ state: 'attached' });
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  return { context, page };
}

const modal = (page: Page) => page.getByRole('dialog').filter({ has: page.getByTestId('patents-search') });
const editModal = (page: Page) => page.getByRole('dialog').filter({ has: page.getByTestId('edit-form') });
const rows = (page: Page) => modal(page).getByTestId('patent-row');
const refOf = async (row: Locator) => (await row.getByTestId('copy-reference').textContent())?.trim();

async function references(page: Page): Promise<string[]> {
  return rows(page).getByTestId('copy-reference').allTextContents();
}

/** Waits until the table shows what `check` expects (the server answers after the debounce). */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: last ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

async function searchResearch(page: Page, q: string): Promise<void> {
  await page.getByTestId('research-search').fill(q);
  await page.getByTestId('research-hit').first().waitFor();
}

async function openFileFromResearch(page: Page, tag: string): Promise<void> {
  await page.goto('/annuities/research');
  await searchResearch(page, tag);
  await page.getByTestId('research-open-file').first().click();
  await modal(page).waitFor();
  await rows(page).first().waitFor();
}

async function choosePageSize(page: Page, label: string): Promise<void> {
  await modal(page).getByTestId('patents-page-size').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe.each(['en', 'fr'] as const)('patents by file, edit and research (%s)', (lang) => {
  const t = TEXTS[lang];
  let context: BrowserContext;
  let page: Page;
  let data: Seeded;
  beforeAll(async () => {
    ({ context, page } = await userPage(lang));
    data = files[lang];
  });
  afterAll(async () => {
    await context?.close();
  });

  it('research finds the patents across files, with file, colour and next due date; open the file opens its modal', async () => {
    await page.goto('/annuities/research');
    await expect(page.getByTestId('research-idle').textContent()).resolves.toBe(t.research.idle);
    await page.getByTestId('research-search').fill(`${data.tag}-07`);
    await until(() => page.getByTestId('research-hit').count(), (n) => n === 5, 'research hits');
    const refs = await page.getByTestId('research-reference').allTextContents();
    expect(refs.sort()).toEqual(['070', '071', '072', '073', '074'].map((n) => `${data.tag}-${n}`));
    expect(await page.getByTestId('research-file').first().textContent()).toBe(data.file.title);
    const hit = page.getByTestId('research-hit').filter({ hasText: `${data.tag}-072` });
    const p072 = data.patents.find((p) => p.reference === `${data.tag}-072`)!;
    expect(await hit.getByTestId('colour-badge').getAttribute('data-colour')).toBe(p072.colour);
    expect(await hit.getByTestId('colour-badge').textContent()).toBe(t.colour[p072.colour]);
    expect(p072.colour).toBe('ok');
    const next = shownDay(p072.date_prochaine_annuite!, lang);
    expect(await hit.getByTestId('research-next').textContent()).toBe(next);
    await expect(page.getByTestId('research-count').textContent()).resolves.toBe(t.research.count_other.replace('{{count, number}}', '5'));

    await page.getByTestId('research-search').fill(`nothing-${STAMP}`);
    await page.getByTestId('research-empty').waitFor();
    expect(await page.getByTestId('research-empty').textContent()).toContain(`nothing-${STAMP}`);

    await page.getByTestId('research-search').fill(data.tag);
    await until(() => page.getByTestId('research-hit').count(), (n) => n === 30, 'first page of hits');
    await page.getByTestId('research-open-file').first().click();
    await modal(page).waitFor();
    await expect(modal(page).getByRole('heading', { name: data.file.title! }).count()).resolves.toBe(1);
    // The day of the check (the reference date), in the page's language (decision 153).
    expect(await modal(page).getByTestId('patents-checked-on').textContent()).toBe(t.patents.checkedOn.replace('{{date}}', shownDay(data.file.reference_date!, lang)));
    await until(() => rows(page).count(), (n) => n === 30, 'default page of 30');
    await screenshotSet(page, lang, 'modal');
  });

  it('page size 30 / 50 / 100 / all', async () => {
    await openFileFromResearch(page, data.tag);
    await choosePageSize(page, t.patents.perPage_other.replace('{{count, number}}', '50'));
    await until(() => rows(page).count(), (n) => n === 50, '50 rows');
    await choosePageSize(page, t.patents.perPage_other.replace('{{count, number}}', '100'));
    await until(() => rows(page).count(), (n) => n === ROWS, 'all 75 rows on one page of 100');
    await choosePageSize(page, t.patents.all);
    await until(() => rows(page).count(), (n) => n === ROWS, 'all rows');
    expect(await modal(page).getByTestId('patents-pagination').count()).toBe(0);
    await choosePageSize(page, t.patents.perPage_other.replace('{{count, number}}', '30'));
    await until(() => rows(page).count(), (n) => n === 30, 'back to 30');
  });

  it('pagination, and a search in the database that starts again at page 1', async () => {
    await openFileFromResearch(page, data.tag);
    await modal(page).getByTestId('patents-pagination').getByRole('button', { name: '2', exact: true }).click();
    await until(() => references(page), (r) => r[0] === `${data.tag}-030`, 'page 2 starts at row 30');
    await modal(page).getByTestId('patents-pagination').getByRole('button', { name: '3', exact: true }).click();
    await until(() => references(page), (r) => r.length === 15 && r[14] === `${data.tag}-074`, 'page 3');

    // Search: a new search starts again at page 1, in the database (name, reference, country…).
    await modal(page).getByTestId('patents-search').fill('Gadget 01');
    await until(() => references(page), (r) => r.join() === ['013', '017'].map((n) => `${data.tag}-${n}`).join(), 'search by name');
    await modal(page).getByTestId('patents-search').fill(`${data.tag}-04`);
    await until(() => references(page), (r) => r.length === 10 && r.every((x) => x.startsWith(`${data.tag}-04`)), 'search by reference');
    await modal(page).getByTestId('patents-search').fill(`zz-${STAMP}`);
    await modal(page).getByTestId('patents-empty').waitFor();
    expect(await modal(page).getByTestId('patents-empty').textContent()).toContain(`zz-${STAMP}`);
    await modal(page).getByTestId('patents-search').fill('');
    await until(() => references(page), (r) => r.length === 30 && r[0] === `${data.tag}-000`, 'search cleared');
  });

  it('the server sorts, both directions; the previous annuity date sorts with the spec’s key date_predecent_annuite', async () => {
    await openFileFromResearch(page, data.tag);
    await modal(page).getByTestId('sort-reference').click();
    await until(() => modal(page).locator('th[aria-sort="ascending"]').count(), (n) => n === 1, 'ascending');
    await modal(page).getByTestId('sort-reference').click();
    await until(() => references(page), (r) => r[0] === `${data.tag}-074`, 'reference descending');
    expect(await modal(page).locator('th[aria-sort="descending"]').count()).toBe(1);
    const sortRequest = page.waitForRequest((r) => r.url().includes('sort=date_predecent_annuite'));
    await modal(page).getByTestId('sort-date_precedente_annuite').click();
    const url = new URL((await sortRequest).url());
    expect([url.searchParams.get('sort'), url.searchParams.get('order')]).toEqual(['date_predecent_annuite', 'asc']);
    const live = await patentsOf(page.request, data.file._id);
    const withPrevious = live.filter((p) => p.date_precedente_annuite).sort((a, b) => a.date_precedente_annuite!.localeCompare(b.date_precedente_annuite!));
    await until(
      () => references(page),
      (r) => r[0] !== undefined && live.find((p) => p.reference === r[0])!.date_precedente_annuite === withPrevious[0]!.date_precedente_annuite,
      'oldest previous annuity first',
    );
  });

  it('each colour filter shows only its rows with its count; clicking it again clears it', async () => {
    await openFileFromResearch(page, data.tag);
    // The counts of the file as it is now (another test may have edited a patent).
    const live = await patentsOf(page.request, data.file._id);
    const counts = Object.fromEntries(COLOURS.map((c) => [c, live.filter((p) => p.colour === c).length])) as Record<AnnuityColour, number>;
    for (const c of COLOURS) expect(counts[c], c).toBeGreaterThan(0);
    for (const c of COLOURS) {
      const button = modal(page).getByTestId(`filter-${c}`);
      expect(await button.textContent()).toBe((counts[c] === 1 ? t.patents.filter_one : t.patents.filter_other).replace('{{label}}', t.colour[c]).replace('{{count, number}}', String(counts[c])));
      await button.click();
      await until(() => button.getAttribute('aria-pressed'), (v) => v === 'true', `filter ${c} pressed`);
      const colours = await until(
        () => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-colour'))),
        (cs) => cs.length === Math.min(30, counts[c]) && cs.every((x) => x === c),
        `filter ${c}`,
      );
      expect(colours.length).toBeGreaterThan(0);
      // The status says it in words too, not only by colour.
      expect(await rows(page).first().getByTestId('colour-badge').textContent()).toBe(t.colour[c]);
      expect(await modal(page).getByTestId('patents-total').textContent()).toContain(String(counts[c]));
      await button.click();
      await until(() => button.getAttribute('aria-pressed'), (v) => v === 'false', `filter ${c} released`);
      await until(() => rows(page).count(), (n) => n === 30, `filter ${c} cleared`);
    }
  });

  it('copies publication, filing number and reference; the register link opens a new tab safely; lapsed replaces the published value', async () => {
    await openFileFromResearch(page, data.tag);
    await until(() => references(page), (r) => r[0] === `${data.tag}-000`, 'reference order');
    const p0 = data.patents.find((p) => p.url && p.num_publication && p.num_depot && p.reference)!;
    expect(p0, 'a patent with a register link').toBeTruthy();
    const first = rows(page).filter({ has: page.getByText(p0.reference!, { exact: true }) });
    for (const [testId, value] of [
      ['copy-publication', p0.num_publication],
      ['copy-filing', p0.num_depot],
      ['copy-reference', p0.reference],
    ] as const) {
      const button = first.getByTestId(testId);
      expect(await button.evaluate((b) => b.tagName)).toBe('BUTTON');
      expect(await button.getAttribute('aria-label')).toContain(value!);
      await button.click();
      await page.getByText(t.patents.copied, { exact: true }).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    }
    const link = first.getByTestId('patent-link');
    expect(p0.url).toBeTruthy();
    expect(await link.getAttribute('href')).toBe(p0.url);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
    expect(await link.getAttribute('aria-label')).toBe(t.patents.openRegister.replace('{{name}}', p0.reference!));
    const lapsed = (await patentsOf(page.request, data.file._id)).filter((p) => p.dechu);
    expect(lapsed.length).toBeGreaterThan(0);
    {
      await modal(page).getByTestId('patents-search').fill(lapsed[0]!.reference!);
      await until(() => references(page), (r) => r.length === 1, 'the lapsed patent');
      expect(await rows(page).first().getByTestId('patent-lapsed').textContent()).toBe(t.patents.lapsed);
      await modal(page).getByTestId('patents-search').fill('');
      await until(() => rows(page).count(), (n) => n === 30, 'search cleared');
    }
    // The reasons of a row are reachable by keyboard (a button that expands them).
    const withReasons = rows(page).filter({ has: page.getByTestId('patent-reasons-toggle') }).first();
    if ((await withReasons.count()) > 0) {
      await withReasons.getByTestId('patent-reasons-toggle').click();
      expect(await withReasons.getByTestId('patent-reasons-toggle').getAttribute('aria-expanded')).toBe('true');
      expect((await withReasons.getByTestId('patent-reasons').textContent())?.length).toBeGreaterThan(3);
    }
  });

  it('selects rows and applies a bulk comment: the comments change in place, and the export holds them', async () => {
    await openFileFromResearch(page, data.tag);
    await modal(page).getByTestId('patent-select-all').click();
    await until(() => modal(page).getByTestId('patents-selected').textContent(), (s) => s?.includes('30') ?? false, 'all 30 selected');
    await modal(page).getByTestId('patent-select-all').click();
    await until(() => modal(page).getByTestId('patents-selected').textContent(), (s) => s?.startsWith('0') ?? false, 'none selected');
    for (const i of [1, 2, 5]) await rows(page).nth(i).getByTestId('patent-select').click();
    expect(await modal(page).getByTestId('patent-select-all').isChecked()).toBe(false);
    const chosen = await Promise.all([1, 2, 5].map((i) => refOf(rows(page).nth(i))));
    const comment = `Checked ${lang} ${STAMP}`;
    await modal(page).getByTestId('bulk-comment').fill(comment);
    await modal(page).getByTestId('bulk-apply').click();
    await page.getByText(t.patents.bulk.applied_other.replace('{{count, number}}', '3'), { exact: true }).waitFor();
    for (const i of [1, 2, 5]) expect(await rows(page).nth(i).getByTestId('patent-comment').textContent()).toBe(comment);
    expect(await rows(page).nth(3).getByTestId('patent-comment').textContent()).not.toBe(comment);

    // The export downloaded through the API holds the comment.
    const sheet = await exportRows(page.request, data.file._id);
    const byRef = new Map(sheet.map((r) => [String(r['Reference']), r]));
    for (const ref of chosen) expect(byRef.get(String(ref))!['Comment']).toBe(comment);
  });

  it('edits a patent: the 400 on the field, then success; the row and its colour change in place; the export holds it; Escape closes the top modal only', async () => {
    await openFileFromResearch(page, data.tag);
    // A late patent still in force (a lapsed one would stay red).
    const candidates = new Set((await patentsOf(page.request, data.file._id)).filter((p) => p.colour === 'nok' && !p.dechu).map((p) => p.reference));
    const refs = await references(page);
    const ref = refs.find((r) => candidates.has(r))!;
    expect(ref, 'a late patent on the first page').toBeTruthy();
    const before = data.patents.find((p) => p.reference === ref)!;
    expect(before.colour).toBe('nok');
    const okCount = Number((await modal(page).getByTestId('filter-ok').textContent())!.replace(/\D/g, ''));
    const nokRow = rows(page).filter({ has: page.getByText(ref, { exact: true }) });
    await nokRow.getByTestId('patent-edit').click();
    await editModal(page).waitFor();
    await screenshotSet(page, lang, 'edit');
    await editModal(page).getByTestId('edit-date_precedente_annuite').fill('2030-01-01');
    await editModal(page).getByTestId('edit-date_prochaine_annuite').fill('2029-01-01');
    await editModal(page).getByTestId('edit-confirm').click();
    await editModal(page).getByText(t.edit.errors.next_before_previous).waitFor();
    await page.getByText(t.edit.failure, { exact: true }).first().waitFor();
    const described = await editModal(page).getByTestId('edit-date_prochaine_annuite').getAttribute('aria-invalid');
    expect(described).toBe('true');
    if (lang === 'en') await screenshotSet(page, lang, 'edit-error');
    // Close the failure toasts (errors stay until closed).
    await closeToasts(page);

    await editModal(page).getByTestId('edit-date_precedente_annuite').fill('2026-03-31');
    await editModal(page).getByTestId('edit-date_prochaine_annuite').fill('2031-03-31');
    await editModal(page).getByTestId('edit-quant_precedent').fill('7');
    // The deadline cannot be before the next date either (a 400 on that field otherwise).
    await editModal(page).getByTestId('edit-limite_date_prochaine_annuite').fill('2031-09-30');
    await editModal(page).getByTestId('edit-confirm').click();
    await page.getByText(t.edit.success, { exact: true }).first().waitFor();
    await editModal(page).waitFor({ state: 'detached' });
    const row = rows(page).filter({ has: page.getByText(ref, { exact: true }) });
    await until(() => row.getAttribute('data-colour'), (c) => c === 'ok', 'row turned green in place');
    expect(await row.textContent()).toContain(shownDay('2031-03-31', lang));
    expect(await row.getByTestId('colour-badge').textContent()).toBe(t.colour.ok);
    expect(await modal(page).getByTestId('filter-ok').textContent()).toContain(String(okCount + 1));

    // Escape: the edit modal first, the patents modal stays; then the patents modal.
    await row.getByTestId('patent-edit').click();
    await editModal(page).waitFor();
    expect(await editModal(page).getByTestId('edit-date_prochaine_annuite').inputValue()).toBe('2031-03-31');
    await page.keyboard.press('Escape');
    await editModal(page).waitFor({ state: 'detached' });
    expect(await modal(page).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await modal(page).waitFor({ state: 'detached' });

    // The export downloaded through the API holds the edit.
    const sheet = await exportRows(page.request, data.file._id);
    const edited = sheet.find((r) => String(r['Reference']) === ref)!;
    expect(exportDay(edited['date_prochaine_annuite'])).toBe('2031-03-31');
    expect(Number(edited['quant_precedent'])).toBe(7);
  });

  it('research: a hit opens the same edit modal, and the hit shows the saved values', async () => {
    // A patent in force that no other test edits (the research test reads 070–074, the edit test a late one).
    const target = (await patentsOf(page.request, data.file._id)).find((p) => p.colour === 'ok' && !p.dechu && p.date_prochaine_annuite && !p.reference!.startsWith(`${data.tag}-07`))!;
    expect(target, 'a patent in force').toBeTruthy();
    await page.goto('/annuities/research');
    await searchResearch(page, target.reference!);
    const hit = page.getByTestId('research-hit').first();
    expect(await hit.getByTestId('research-next').textContent()).toBe(shownDay(target.date_prochaine_annuite!, lang));
    await screenshotSet(page, lang, 'research');
    await hit.getByTestId('research-edit').click();
    await editModal(page).waitFor();
    await editModal(page).getByTestId('edit-date_precedente_annuite').fill('2026-03-31');
    await editModal(page).getByTestId('edit-date_prochaine_annuite').fill('2032-03-31');
    await editModal(page).getByTestId('edit-limite_date_prochaine_annuite').fill('2032-09-30');
    await editModal(page).getByTestId('edit-confirm').click();
    await page.getByText(t.edit.success, { exact: true }).first().waitFor();
    await until(() => hit.getByTestId('research-next').textContent(), (s) => s === shownDay('2032-03-31', lang), 'hit updated in place');
  });
});

async function closeToasts(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('.mantine-Notification-root .mantine-Notification-closeButton').forEach((b) => b.click()));
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

/** Screenshots of the current state at 1440 and 360 px, then back to the test's width. */
async function screenshotSet(page: Page, lang: Lang, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    await screenshot(page, `annuities-${name}-${width}`, lang, { fullPage: name === 'research' });
  }
  if (before) await page.setViewportSize(before);
  await page.waitForTimeout(150);
}

describe('"all" on a 20,000-row file', () => {
  beforeAll(async () => {
    const { context, page } = await userPage('en');
    const bigTag = `B${STAMP}`;
    big = { file: await uploadChecked(page.request, 'big.xlsx', `Big ${STAMP}`, await workbook(portfolioRows(bigTag, BIG_ROWS)), 240_000), tag: bigTag };
    await context.close();
  }, 300_000);

  it('renders only a window of rows and scrolls to the last one', async () => {
    const { context, page } = await userPage('en');
    await openFileFromResearch(page, big.tag);
    await choosePageSize(page, en.patents.all);
    await page.locator('[data-testid="patents-scroll"][data-virtual]').waitFor({ timeout: 60_000 });
    const inDom = await rows(page).count();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThan(120);
    expect(await modal(page).getByTestId('patents-table').getAttribute('aria-rowcount')).toBe(String(BIG_ROWS + 1));
    await modal(page).getByTestId('patents-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = modal(page).locator(`[data-testid="patent-row"][aria-rowindex="${BIG_ROWS + 1}"]`);
    await until(
      async () => {
        await modal(page).getByTestId('patents-scroll').evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return last.count();
      },
      (n) => n === 1,
      'the last row rendered',
    );
    expect(await refOf(last)).toBe(`${big.tag}-${String(BIG_ROWS - 1).padStart(3, '0')}`);
    expect(await rows(page).count()).toBeLessThan(120);
    // The first row left the DOM.
    expect(await modal(page).locator('[data-testid="patent-row"][aria-rowindex="2"]').count()).toBe(0);
    await context.close();
  }, 180_000);

  it('a drag of the scrollbar across the whole file fetches windows at a bounded rate, then the rows where it stopped', async () => {
    const { context, page } = await userPage('en');
    await openFileFromResearch(page, big.tag);
    await choosePageSize(page, en.patents.all);
    const scroll = modal(page).locator('[data-testid="patents-scroll"][data-virtual]');
    await scroll.waitFor({ timeout: 60_000 });
    await rows(page).first().waitFor();
    const windows: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('limit=all')) windows.push(request.url());
    });
    // 40 positions from top to bottom, one per frame (~0.7 s on a quiet machine): each shows rows of windows no
    // other position shows (500 rows apart, 250-row windows).
    const dragMs = await scroll.evaluate(async (el) => {
      const started = performance.now();
      for (let i = 1; i <= 40; i++) {
        el.scrollTop = ((el.scrollHeight - el.clientHeight) * i) / 40;
        await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      }
      return performance.now() - started;
    });
    // What the drag and its settling asked for (the trailing position's windows included).
    await page.waitForTimeout(1500);
    const asked = [...windows];
    // Asked for as they came, every position's windows were fetched: 79 requests. Throttled, the rows in view
    // move the fetches at most once per RANGE_THROTTLE_MS (and once where they stop), each for the ≤ 2 windows
    // of the rows in view and those ahead: a bound set by how long the drag took (frames slow down on a busy machine).
    const updates = Math.ceil(dragMs / RANGE_THROTTLE_MS) + 2;
    expect(asked.length, `${Math.round(dragMs)} ms drag:\n${asked.join('\n')}`).toBeLessThanOrEqual(Math.min(2 * updates, 39));
    // And the rows where the drag stopped come: the last one, once the end is reached.
    const last = modal(page).locator(`[data-testid="patent-row"][aria-rowindex="${BIG_ROWS + 1}"]`);
    await until(
      async () => {
        await scroll.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return last.count();
      },
      (n) => n === 1,
      'the last row rendered',
    );
    expect(await refOf(last)).toBe(`${big.tag}-${String(BIG_ROWS - 1).padStart(3, '0')}`);
    await context.close();
  }, 180_000);
});

describe('keyboard only', () => {
  it('opens the modal, filters, selects, comments, edits and closes with the keyboard', async () => {
    const { context, page } = await userPage('en');
    const data = files.en;
    await page.goto('/annuities/research');
    await page.getByTestId('research-search').waitFor();
    const focusedTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null);
    /** Presses Tab until the element with that test id has the focus. */
    async function tabTo(testId: string, max = 80): Promise<void> {
      for (let i = 0; i < max; i++) {
        if ((await focusedTestId()) === testId) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`${testId} never focused (at ${await focusedTestId()})`);
    }
    await tabTo('research-search');
    await page.keyboard.type(`${data.tag}-01`);
    await until(() => page.getByTestId('research-hit').count(), (n) => n === 10, 'hits');
    await tabTo('research-open-file');
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    await rows(page).first().waitFor();
    // The focus starts in the modal, on its search box.
    await until(focusedTestId, (id) => id === 'patents-search', 'focus in the modal');
    await tabTo('filter-nok');
    await page.keyboard.press('Space');
    expect(await modal(page).getByTestId('filter-nok').getAttribute('aria-pressed')).toBe('true');
    await until(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-colour'))), (c) => c.length > 0 && c.every((x) => x === 'nok'), 'nok only');
    await page.keyboard.press('Space');
    expect(await modal(page).getByTestId('filter-nok').getAttribute('aria-pressed')).toBe('false');
    await tabTo('patent-select');
    await page.keyboard.press('Space');
    expect(await rows(page).first().getByTestId('patent-select').isChecked()).toBe(true);
    await tabTo('bulk-comment', 400);
    await page.keyboard.type('Keyboard note');
    await tabTo('bulk-apply');
    await page.keyboard.press('Enter');
    await page.getByText(en.patents.bulk.applied_one.replace('{{count, number}}', '1'), { exact: true }).waitFor();
    expect(await rows(page).first().getByTestId('patent-comment').textContent()).toBe('Keyboard note');
    // Back up to the nearest edit button (the last row's).
    await page.keyboard.down('Shift');
    for (let i = 0; i < 400 && (await focusedTestId()) !== 'patent-edit'; i++) await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    expect(await focusedTestId()).toBe('patent-edit');
    await page.keyboard.press('Enter');
    await editModal(page).waitFor();
    await tabTo('edit-quant_precedent');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await tabTo('edit-confirm');
    await page.keyboard.press('Enter');
    await page.getByText(en.edit.success, { exact: true }).first().waitFor();
    await editModal(page).waitFor({ state: 'detached' });
    // The focus went back into the patents modal.
    await until(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')), (inside) => inside, 'focus back in the patents modal', 3_000);
    await page.keyboard.press('Escape');
    await modal(page).waitFor({ state: 'detached' });
    await context.close();
  }, 120_000);
});
