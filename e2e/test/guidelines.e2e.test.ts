import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, loginAsAdmin, newContext, screenshot } from '../src/browser.ts';
import { checkLedes } from '../src/ledes.ts';
import { apiHeaders, asAdmin, createLedesAgent } from '../src/users.ts';
import enGuidelines from '../../packages/i18n/locales/en/guidelines.json' with { type: 'json' };
import frGuidelines from '../../packages/i18n/locales/fr/guidelines.json' with { type: 'json' };

/**
 * Issue 31 §1, in both languages: an admin writes a client's billing guidelines on the screen, a provider's upload
 * for that client is refused with the guideline finding and its values (rate found, cap, difference, total over the
 * cap, the rule's reference), and the treated workbook carries them. The valid sample bills PARTNR at 350 for
 * 2 units on line 1: against a cap of 300, 50 over per unit, 100 over the cap. Screenshots: ledes-guidelines-*.
 */
const TEXTS = { en: enGuidelines, fr: frGuidelines } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['en', 'fr'] as const)('billing guidelines in %s', (lang) => {
  it('an admin writes a set; the provider\'s upload is refused with its values; the treated workbook carries them', async () => {
    const agent = await asAdmin(browser, (adminPage) => createLedesAgent(adminPage, `gdl${lang}`, lang));
    const idClient = agent.clients[0];
    const text = TEXTS[lang];

    const adminContext = await newContext(browser, { lang });
    const page = await adminContext.newPage();
    await loginAsAdmin(page);
    await page.goto('/ledes/guidelines');
    await page.getByRole('heading', { level: 1, name: text.title }).waitFor();
    await page.getByTestId('guideline-client').fill(idClient);
    await page.getByTestId('guideline-open').click();
    await page.getByText(text.history.empty).waitFor();
    // Saved without a date: the form says so before any request.
    await page.getByTestId('guideline-save').click();
    await expect.poll(() => page.getByTestId('guideline-error').textContent()).toBe(text.errors.date);
    await page.getByTestId('guideline-from').fill('1990-01-01');
    await page.getByTestId('guideline-ref').fill('§2.1');
    await page.getByTestId('guideline-field-classification').fill('PARTNR');
    await page.getByTestId('guideline-field-max').fill('300');
    await page.getByTestId('guideline-save').click();
    await page.getByTestId('guideline-saved').waitFor();
    await page.getByTestId('guideline-versions').waitFor();
    expect(await page.getByTestId('guideline-versions').locator('tbody tr').count()).toBe(1);
    for (const width of [360, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `w${width}-ledes-guidelines-editor`, lang);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The provider's upload, checked against the version in force on its billing period (January 1999).
    const agentContext = await newContext(browser, { lang });
    const agentPage = await agentContext.newPage();
    await login(agentPage, agent.email, agent.password);
    await agentPage.waitForURL((u) => u.pathname !== '/login');
    const runId = await checkLedes(agentPage, idClient, `guidelines-${lang}.txt`);
    await agentPage.goto(`/result-ledes?runs=${runId}`);
    const finding = agentPage.locator('tr', { hasText: 'GDL-101' }).first();
    await finding.waitFor();
    const values = await finding.getByTestId('finding-values').textContent();
    const reference = lang === 'fr' ? 'règle §2.1' : 'rule §2.1';
    expect(values).toContain(reference);
    expect(values).toMatch(lang === 'fr' ? /Trouvé\s:\s350.*attendu\s:\s300.*écart\s:\s50.*au-delà du plafond 100/ : /Found: 350.*expected: 300.*difference: 50.*over the cap 100/);
    for (const width of [360, 1440]) {
      await agentPage.setViewportSize({ width, height: 900 });
      await screenshot(agentPage, `w${width}-ledes-guidelines-result`, lang);
    }

    // The treated workbook (written right after the verdict): the finding in words with its values and reference.
    let treated: string | null = null;
    const deadline = Date.now() + 60_000;
    while (!treated && Date.now() < deadline) {
      const history = await agentPage.request.get('/api/historique?page=1&limit=20', { headers: apiHeaders() });
      const item = ((await history.json()) as { data: { _id: string; path_treated: string | null }[] }).data.find((h) => h._id === runId);
      treated = item?.path_treated ?? null;
      if (!treated) await agentPage.waitForTimeout(500);
    }
    expect(treated).toBeTruthy();
    const download = await agentPage.request.post('/api/ledes/file/download', { headers: apiHeaders(), data: { file_path: treated } });
    expect(download.status()).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download.body()) as unknown as ArrayBuffer);
    const lines = book.worksheets[0]!;
    const cell = String(lines.getRow(2).getCell(3).value);
    expect(cell).toContain('GDL-101');
    expect(cell).toContain(lang === 'fr' ? 'trouvé 350, attendu 300, écart 50, total au-delà du plafond 100, directive §2.1' : 'found 350, expected 300, difference 50, total over the cap 100, guideline §2.1');

    // The preview of the set as saved: this client's one file would be refused.
    await page.getByTestId('guideline-preview-run-button').click();
    await page.getByTestId('guideline-preview').waitFor();
    expect(await page.getByTestId('guideline-preview-run').count()).toBe(1);
    await expect.poll(() => page.getByTestId('guideline-preview-run').first().textContent()).toContain(text.preview.wouldRefuse);
    for (const width of [360, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `w${width}-ledes-guidelines-preview`, lang);
    }
    await agentContext.close();
    await adminContext.close();
  }, 240_000);
});
