import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chooseOption, launchBrowser, login, loginAsAdmin, newContext, portal, screenshot } from '../src/browser.ts';
import { waitForMail } from '../src/outbox.ts';
import { describeFindings, scan, settle, splitKnown, switchLanguage, WIDTHS, writeReport, type Finding } from '../src/a11y.ts';
import { asAdmin } from '../src/users.ts';
import { PATENT_TEXT_MAX } from '@portal/contracts/constants';
import { apiLogin, createPatentUser, officeNumber, patentRow, seedPatents, type PatentAgent } from '../src/patents.ts';
import { fill, shownDay } from '../src/format.ts';
import en from '../../packages/i18n/locales/en/patents.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/patents.json' with { type: 'json' };

/**
 * Issue 11, /patent-annuities and /annuites/patent/instruction in both languages: an annuities agent
 * (its account in the language) filters its portfolio (a bad date format first), gives instructions on
 * several rows (choosing the same again deselects, another replaces; the locked row offers no choice and
 * says why on focus), confirms, finds them in the unvalidated tab; the admin validates them after
 * "Are you sure?"; the agent then sees them validated and locked.
 */

type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const TITLES = { en: { pay: 'Pay', noPay: 'Do not pay', wait: 'Wait' }, fr: { pay: 'Payer', noPay: 'Ne pas payer', wait: 'Attendre' } } as const;
const STAMP = Date.now().toString(36).toUpperCase();
/** Seven digits of the clock: a number in the French or Italian offices' format (issue 25 §3). */
const DIGITS = String(Date.now()).slice(-7);

let browser: Browser;
const agents = {} as Record<Lang, PatentAgent>;
const testers = {} as Record<Lang, PatentAgent>;
const refs = (lang: Lang) => ({ a: `PT${lang}${STAMP}-A`, b: `PT${lang}${STAMP}-B`, c: `PT${lang}${STAMP}-C`, locked: `PT${lang}${STAMP}-L` });

beforeAll(async () => {
  browser = await launchBrowser();
  await asAdmin(browser, async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) {
      const agent = await createPatentUser(adminPage, 'user_agent_annuites', `patents-${lang}`, lang);
      agents[lang] = agent;
      testers[lang] = await createPatentUser(adminPage, 'admin_test', `tester-${lang}`, lang);
      const context = await newContext(browser);
      try {
        const agentPage = await context.newPage();
        await agentPage.goto('/');
        await apiLogin(agentPage, agent);
        const r = refs(lang);
        await seedPatents(agentPage, adminPage, agent, [
          { reference: r.a, dueIn: 60, pays: 'FR' },
          { reference: r.b, dueIn: 90, pays: 'DE' },
          { reference: r.c, dueIn: 120, pays: 'EP' },
          // Due in 3 days: its limit date (due − 7 days) has passed.
          { reference: r.locked, dueIn: 3, pays: 'GB' },
          // Left without instruction, for the axe pass.
          { reference: `PT${lang}${STAMP}-F`, dueIn: 200, pays: 'IT', noPublication: true },
        ]);
      } finally {
        await context.close();
      }
    }
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

async function chooseInstruction(page: Page, ref: string, title: string) {
  await patentRow(page, ref).getByTestId('instruction-choice').click();
  await page.getByRole('option', { name: new RegExp(`^${title}(?![A-Za-zé])`) }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

describe.each(['en', 'fr'] as const)('patent annuities in %s', (lang) => {
  const T = TEXTS[lang];
  const titles = TITLES[lang];

  it('an agent gives instructions on several rows, a locked row cannot be chosen, confirms, finds them unvalidated; admin_test finds them by client code; the admin validates them and the agent sees it live', async () => {
    const r = refs(lang);
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await login(page, agents[lang].email, agents[lang].password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/patent-annuities');
    await expect.poll(() => page.locator('main h1').textContent()).toBe(T.annuities.title);
    // No client-code search for an agent.
    expect(await page.getByTestId('client-code-search').count()).toBe(0);

    // Filters: a bad date format shows the spec's alert and changes nothing; then the agent's references.
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-dates').fill('2027-13-01');
    await page.getByTestId('filters-apply').click();
    await expect.poll(() => page.getByTestId('date-filter-error').textContent()).toBe(T.filters.datesInvalid);
    await page.getByTestId('filter-dates').fill('');
    await page.getByTestId('filter-references').fill(`${r.a};${r.b} ; ${r.c};${r.locked}`);
    await page.getByTestId('filters-apply').click();
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(4);
    expect(await page.getByTestId('patents-count').textContent()).toBe(fill(T.annuities.count_other, { count: 4 }));

    // The locked row: no choice, its reason on focus.
    const locked = patentRow(page, r.locked);
    expect(await locked.getByTestId('instruction-choice').count()).toBe(0);
    expect(await locked.getAttribute('data-tone')).toBe('pastLimit');
    // Read with the lock (screen readers, keyboard), and shown on hover.
    expect(await locked.getByTestId('instruction-locked').textContent()).toContain(T.lock.patent_locked_limit_date);
    expect(await locked.getByTestId('instruction-locked').getAttribute('tabindex')).toBe('0');
    await locked.getByTestId('instruction-locked').hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(T.lock.patent_locked_limit_date);
    await page.mouse.move(0, 0);

    // Nothing chosen: the button is disabled.
    const update = page.getByTestId('update-instructions');
    expect(await update.isDisabled()).toBe(true);
    await chooseInstruction(page, r.a, titles.pay);
    expect(await patentRow(page, r.a).getAttribute('data-selected')).toBe('true');
    expect(await patentRow(page, r.a).getByTestId('instruction-being').count()).toBe(1);
    // The same again deselects.
    await chooseInstruction(page, r.a, titles.pay);
    expect(await patentRow(page, r.a).getAttribute('data-selected')).toBeNull();
    expect(await update.isDisabled()).toBe(true);
    await chooseInstruction(page, r.a, titles.pay);
    await chooseInstruction(page, r.b, titles.noPay);
    // Another replaces.
    await chooseInstruction(page, r.c, titles.wait);
    await chooseInstruction(page, r.c, titles.pay);
    expect(await patentRow(page, r.c).getByTestId('instruction-choice').inputValue()).toBe(titles.pay);
    // By keyboard: the choice opens with ArrowDown; Enter on the chosen option deselects, on another replaces.
    const cInput = patentRow(page, r.c).getByTestId('instruction-choice');
    await cInput.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => patentRow(page, r.c).getAttribute('data-selected')).toBeNull();
    await cInput.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => cInput.inputValue()).not.toBe('');
    if ((await cInput.inputValue()) !== titles.pay) await chooseInstruction(page, r.c, titles.pay);
    expect(await cInput.inputValue()).toBe(titles.pay);
    expect(await page.getByTestId('update-count').textContent()).toBe('3');
    expect(await page.getByTestId('selected-count').textContent()).toBe(fill(T.update.selected_other, { count: 3 }));
    await screenshot(page, 'patents-chosen', lang);

    await update.click();
    const confirm = page.getByRole('dialog', { name: T.update.confirmTitle });
    await confirm.waitFor();
    expect(await confirm.getByRole('listitem').count()).toBe(3);
    await confirm.getByTestId('update-confirm-send').click();
    await page.getByText(T.update.success).waitFor();
    // Reloaded, cleared, back on unprocessed: only the locked row is left there.
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(1);
    expect(await page.getByTestId('tab-unprocessed').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('update-count').textContent()).toBe('0');

    await page.getByTestId('tab-unvalidated').click();
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(3);
    expect(await patentRow(page, r.b).getByTestId('instruction-current').textContent()).toBe(titles.noPay);
    expect(await patentRow(page, r.b).getAttribute('data-tone')).toBe('treated');

    // The detail modal: fields, schedule and the audit trail of the change.
    await patentRow(page, r.b).getByTestId('patent-details').click();
    const detail = page.getByRole('dialog');
    await detail.getByTestId('patent-event').first().waitFor();
    expect(await detail.getByTestId('detail-ReferenceClient').textContent()).toContain(r.b);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });

    // admin_test finds the agent's patents by client code (500 ms after the last key).
    const testerContext = await newContext(browser, { lang });
    const tester = await testerContext.newPage();
    await login(tester, testers[lang].email, testers[lang].password);
    await tester.getByTestId('logout-button').waitFor();
    await tester.goto('/patent-annuities');
    await tester.getByTestId('tab-unvalidated').click();
    await tester.getByTestId('client-code-search').fill(agents[lang].code);
    await expect.poll(() => tester.getByTestId('patent-row').count()).toBe(3);
    await testerContext.close();

    // Staff validates them.
    const adminContext = await newContext(browser, { lang });
    const admin = await adminContext.newPage();
    await loginAsAdmin(admin);
    await admin.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
    await admin.goto('/annuites/patent/instruction');
    await admin.getByTestId('validate-search').fill(`PT${lang}${STAMP}`);
    await expect.poll(() => admin.getByTestId('validate-row').count()).toBe(3);
    await admin.getByTestId('validate-select-all').click();
    await admin.getByTestId('validate-button').click();
    const sure = admin.getByRole('dialog', { name: T.validate.confirmTitle });
    await sure.waitFor();
    await sure.getByTestId('validate-confirm-button').click();
    await admin.getByText(fill(T.validate.success_other, { count: 3 })).waitFor();
    await expect.poll(() => admin.getByTestId('validate-row').count()).toBe(0);
    await adminContext.close();

    // The agent's open page shows them validated and locked, live (patents:changed), without a reload.
    await expect.poll(() => patentRow(page, r.a).locator('[data-lock="instruction_validated"]').count(), { timeout: 15_000 }).toBe(1);
    expect(await patentRow(page, r.b).locator('[data-lock="instruction_validated"]').count()).toBe(1);
    await context.close();
  }, 180_000);

  it('axe finds nothing critical or serious on the patent screens, their modals and an empty submit (phone and desktop)', async () => {
    const findings: Finding[] = [];
    let scans = 0;
    for (const [size, viewport] of Object.entries(WIDTHS)) {
      const context = await newContext(browser, { lang });
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await loginAsAdmin(page);
      await switchLanguage(page, lang);
      const check = async (name: string) => {
        findings.push(...(await scan(page, `${lang}-${size}-${name}`)));
        scans++;
      };
      await page.goto('/patent-annuities');
      await settle(page);
      await page.getByTestId('patent-row').first().waitFor();
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-dates').fill('bad');
      await page.getByTestId('filters-apply').click();
      await page.getByTestId('date-filter-error').waitFor();
      await check('portfolio');
      await page.getByTestId('instruction-choice').first().click();
      await page.getByRole('listbox').waitFor();
      await check('portfolio-choice-open');
      await page.keyboard.press('Escape');
      await page.getByTestId('patent-details').first().click();
      await page.getByTestId('patent-schedule').waitFor();
      await check('patent-detail');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByTestId('new-case-open').click();
      await page.getByTestId('new-case-send').click();
      await page.getByTestId('new-case-error').waitFor();
      await check('new-case');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      for (const [name, path] of [
        ['to-validate', '/annuites/patent/instruction'],
        ['missing-info', '/annuites/patent'],
        ['submissions', '/annuites/patent/submissions'],
      ] as const) {
        await page.goto(path);
        await settle(page);
        await check(name);
      }
      await page.goto('/add/patents');
      await settle(page);
      await page.getByTestId('add-submit').click();
      await page.getByTestId('add-summary').getByRole('alert').or(page.getByTestId('add-summary')).first().waitFor();
      await check('add-patent-empty-submit');
      await context.close();
    }
    writeReport(`patents-${lang}`, findings, scans);
    const { blocking } = splitKnown(findings);
    expect(blocking, describeFindings(blocking)).toEqual([]);
  }, 240_000);

  it('a user sends a new case with its file and adds a patent; the admin accepts it and fixes missing information (leaving with edits asks first)', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    const agent = agents[lang];
    await login(page, agent.email, agent.password);
    await page.getByTestId('logout-button').waitFor();
    await page.goto('/patent-annuities');
    await settleRows(page);

    // The contact-us banner's new case: the file goes to support, a copy to the sender.
    const caseText = `New case ${lang} ${STAMP}`;
    await page.getByTestId('new-case-open').click();
    await page.getByTestId('new-case-send').click();
    await expect.poll(() => page.getByTestId('new-case-error').textContent()).toBe(T.newCase.required);
    await page.getByTestId('new-case-input').setInputFiles({ name: `case-${lang}-${STAMP}.txt`, mimeType: 'text/plain', buffer: Buffer.from(caseText) });
    await page.getByTestId('new-case-send').click();
    await page.getByText(T.newCase.success, { exact: true }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const file = `case-${lang}-${STAMP}.txt`;
    // (The outbox reader may leave a space where a long encoded subject was folded.)
    const about = (m: { subject: string }) => m.subject.replace(/\s+/g, '').includes(file);
    await waitForMail(portal().dataDir, (m) => m.to.includes(agent.email) && about(m));
    const support = await waitForMail(portal().dataDir, (m) => !m.to.includes(agent.email) && about(m));
    // Support gets the file attached.
    const raw = readFileSync(path.join(portal().dataDir, 'outbox', support.file), 'utf8');
    expect(raw).toMatch(/Content-Disposition: attachment/i);
    expect(support.body).toContain(caseText);

    // Add a patent: the country is required; then submitted, back on the portfolio.
    const ref = `PT${lang}${STAMP}-N`;
    await page.getByTestId('add-patent-link').click();
    await page.waitForURL((u) => u.pathname === '/add/patents');
    await page.getByTestId('add-submit').click();
    await expect.poll(() => page.getByText(T.add.errors.country_required).count()).toBe(1);
    await page.getByTestId('add-numero_depot').fill(`FR${DIGITS}`);
    await page.getByTestId('add-reference_client').fill(ref);
    // The engine proposes the next annuity from the office and the filing date; "Use" fills it in.
    // Filed five years before the month after next: its 6th annuity falls due at the end of that month (FR).
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 2, 1));
    const mm = String(month.getUTCMonth() + 1).padStart(2, '0');
    const dueIso = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    await chooseOption(page, 'add-pays', 'FR');
    await page.getByTestId('add-date_depot').fill(`${month.getUTCFullYear() - 5}-${mm}-01`);
    await expect.poll(() => page.getByTestId('add-proposal').textContent()).toContain(shownDay(dueIso, lang));
    await page.getByTestId('add-use-proposal').click();
    expect(await page.getByTestId('add-date_echeance_annuites').inputValue()).toBe(dueIso);
    expect(await page.getByTestId('add-quantieme').inputValue()).toBe('6');
    await page.getByTestId('add-date_echeance_annuites').fill('2027-09-30');
    await page.getByTestId('add-quantieme').fill('7');
    await page.getByTestId('add-cout').fill('120.5');
    await page.getByTestId('add-submit').click();
    await page.getByText(T.add.success).waitFor();
    await page.waitForURL((u) => u.pathname === '/patent-annuities');

    // The admin accepts it, then fills the missing publication number of another patent.
    const adminContext = await newContext(browser, { lang });
    const admin = await adminContext.newPage();
    await loginAsAdmin(admin);
    await admin.getByTestId('language-switcher').getByText(lang.toUpperCase(), { exact: true }).click();
    await admin.goto('/annuites/patent/submissions');
    const submission = admin.getByTestId('submission').filter({ hasText: ref });
    await submission.getByTestId('submission-accept').click();
    await admin.getByText(T.submissions.accepted).waitFor();
    await submission.waitFor({ state: 'detached' });

    await admin.goto('/annuites/patent');
    await admin.getByTestId('missing-search').fill(`PT${lang}${STAMP}-F`);
    await expect.poll(() => admin.getByTestId('missing-row').count()).toBe(1);
    await admin.getByTestId('missing-input-NoPublication').fill(`IT${DIGITS}`);
    // A link away with an unsaved row asks first; staying keeps the edit.
    await admin.locator('header a').first().click();
    const leave = admin.getByRole('dialog', { name: T.missing.leaveTitle });
    await leave.waitFor();
    await leave.getByTestId('missing-stay').click();
    await leave.waitFor({ state: 'detached' });
    expect(await admin.getByTestId('missing-input-NoPublication').inputValue()).toBe(`IT${DIGITS}`);
    await admin.getByTestId('missing-save').click();
    await admin.getByText(T.missing.success).waitFor();
    await expect.poll(() => admin.getByTestId('missing-row').count()).toBe(0);
    await adminContext.close();

    // The accepted patent is in the agent's portfolio.
    await page.reload();
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-references').fill(ref);
    await page.getByTestId('filters-apply').click();
    await expect.poll(() => page.getByTestId('patent-row').count()).toBe(1);
    await context.close();
  }, 180_000);
});

async function settleRows(page: Page) {
  await page.locator('main h1').first().waitFor();
  await page.getByTestId('patents-count').filter({ hasText: /\d/ }).waitFor();
}

/**
 * Issue 25 §3: one very long client reference (here the longest the portal takes, in one token, the
 * worst case for a table) must not push the other columns of the agents' table off screen: it is cut
 * to one line, whole on hover (title) and in the detail modal.
 */
describe('a long client reference in the agents’ table', () => {
  it('is cut with an ellipsis; the other columns stay in view; the whole value is on hover and in the detail', async () => {
    const lang: Lang = 'en';
    const prefix = `LONG${STAMP}`;
    // The seed's firm reference is `NS-<reference>`: both within the limit.
    const reference = `${prefix}-`.padEnd(PATENT_TEXT_MAX.reference - 3, 'X');
    const context = await newContext(browser, { lang });
    try {
      const page = await context.newPage();
      await page.goto('/');
      await apiLogin(page, agents[lang]);
      await asAdmin(browser, (adminPage) => seedPatents(page, adminPage, agents[lang], [{ reference, dueIn: 150, pays: 'FR' }]));
      await page.goto('/patent-annuities');
      await settleRows(page);
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-references').fill(prefix);
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(1);
      const line = patentRow(page, reference);
      const cell = line.getByTestId('patent-ref');
      const viewport = page.viewportSize()!;

      // Cut: one line, narrower than its text, with the whole value as its title (shown on hover).
      const box = (await cell.boundingBox())!;
      expect(box.width).toBeLessThan(320);
      expect(box.height).toBeLessThan(30);
      expect(await cell.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis')).toBe(true);
      expect(await cell.getAttribute('title')).toBe(reference);
      await cell.hover();

      // The other columns stay on screen: the numbers, the due date, the cost and the details button.
      for (const target of [line.getByText(officeNumber('FR', 'application', 0)), line.getByTestId('due-date'), line.getByTestId('patent-details')]) {
        const b = (await target.first().boundingBox())!;
        expect(b.x + b.width, (await target.first().textContent()) ?? '').toBeLessThanOrEqual(viewport.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // The detail modal shows the whole value, inside the viewport.
      await line.getByTestId('patent-details').click();
      const detail = page.getByTestId('detail-ReferenceClient');
      await expect.poll(() => detail.textContent()).toContain(reference);
      const modal = (await page.getByTestId('patent-detail').boundingBox())!;
      expect(modal.x + modal.width).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, 'patents-long-reference-detail', lang, { fullPage: false });
    } finally {
      await context.close();
    }
  });
});

