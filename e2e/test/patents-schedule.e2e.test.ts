import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, newContext, screenshot } from '../src/browser.ts';
import { asAdmin } from '../src/users.ts';
import { apiLogin, createPatentUser, patentRow, seedPatents, type PatentAgent } from '../src/patents.ts';
import { fill, shownDay } from '../src/format.ts';
import en from '../../packages/i18n/locales/en/patents.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/patents.json' with { type: 'json' };

/**
 * Issue 25 §2, in both languages: a patent whose record contradicts the computed schedule (DE filed
 * 2018-03-15, "annuity 10 due 31-12-2027", where the engine says 31-03-2027) is added through the add
 * form and accepted; the agent's list flags it (an icon named with the engine's annuity, the same text
 * on hover), the filter keeps only it, and the detail modal explains it. Its twin that agrees is not flagged.
 */

type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const STAMP = Date.now().toString(36).toUpperCase();
const refs = (lang: Lang) => ({ wrong: `SM${lang}${STAMP}-W`, right: `SM${lang}${STAMP}-R` });

let browser: Browser;
const agents = {} as Record<Lang, PatentAgent>;

beforeAll(async () => {
  browser = await launchBrowser();
  await asAdmin(browser, async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) {
      const agent = await createPatentUser(adminPage, 'user_agent_annuites', `schedule-${lang}`, lang);
      agents[lang] = agent;
      const context = await newContext(browser);
      try {
        const agentPage = await context.newPage();
        await agentPage.goto('/');
        await apiLogin(agentPage, agent);
        const r = refs(lang);
        // seedPatents files every patent on 2018-03-15 (national).
        await seedPatents(agentPage, adminPage, agent, [
          { reference: r.wrong, dueIn: 0, due: '2027-12-31', pays: 'DE', quantieme: 10, cout: 680 },
          { reference: r.right, dueIn: 0, due: '2027-03-31', pays: 'DE', quantieme: 10, cout: 680 },
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

describe.each(['en', 'fr'] as const)('patents that differ from the computed schedule, in %s', (lang) => {
  const T = TEXTS[lang];
  const message = fill(T.schedule.mismatch, { number: 10, date: shownDay('2027-03-31', lang) });

  it('the list flags the record with the engine’s annuity, the filter keeps the flagged ones, the detail explains it', async () => {
    const r = refs(lang);
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    try {
      await login(page, agents[lang].email, agents[lang].password);
      await page.getByTestId('logout-button').waitFor();
      await page.goto('/patent-annuities');
      await expect.poll(() => page.locator('main h1').textContent()).toBe(T.annuities.title);
      // The agents share the first cabinet: this language's two patents, by their references.
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-references').fill(`SM${lang}${STAMP}-`);
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(2);

      // The flag: an icon whose accessible name is the message, shown again on hover; the twin that agrees has none.
      const flag = patentRow(page, r.wrong).getByTestId('schedule-mismatch');
      expect(await flag.getAttribute('aria-label')).toBe(message);
      expect(await page.getByRole('img', { name: message }).count()).toBe(1);
      expect(await patentRow(page, r.right).getByTestId('schedule-mismatch').count()).toBe(0);
      await flag.hover();
      await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(message);
      await page.mouse.move(0, 0);

      // The filter: only the flagged record; unchecked, both again.
      await page.getByLabel(T.filters.schedule).check();
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(1);
      expect(await patentRow(page, r.wrong).count()).toBe(1);
      await screenshot(page, 'patents-schedule-mismatch', lang);
      await page.getByLabel(T.filters.schedule).uncheck();
      await page.getByTestId('filters-apply').click();
      await expect.poll(() => page.getByTestId('patent-row').count()).toBe(2);

      // The explanation in the detail modal.
      await patentRow(page, r.wrong).getByTestId('patent-details').click();
      const notice = page.getByTestId('schedule-mismatch-detail');
      await notice.waitFor();
      expect(await notice.textContent()).toContain(message);
      expect(await notice.textContent()).toContain(T.schedule.explain.due_differs);
      await page.getByTestId('patent-detail-close').click();
      await patentRow(page, r.right).getByTestId('patent-details').click();
      await page.getByTestId('patent-detail').getByText(r.right).first().waitFor();
      expect(await page.getByTestId('schedule-mismatch-detail').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
