import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { simpleParser } from 'mailparser';
import { extractText, getDocumentProxy } from 'unpdf';
import { launchBrowser, TAKE_SCREENSHOTS } from '../src/browser.ts';
import { ARTIFACTS, describeFindings, NARROW_PHONE, scan, settle, splitKnown, switchLanguage, writeReport, type Finding } from '../src/a11y.ts';
import { fill, shownDay } from '../src/format.ts';
import { startPortalProcess, type PortalProcess } from '../src/global-setup.ts';
import { readOutbox } from '../src/outbox.ts';
import { patentRow, type PatentAgent } from '../src/patents.ts';
import { adminSession, apiSession, createAgent, read, seedAgentPatents, withAdmin } from '../src/setup.ts';
import type { RenewalCallDto, RenewalCallResponse } from '@portal/contracts';
import en from '../../packages/i18n/locales/en/calls.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/calls.json' with { type: 'json' };
import enPatents from '../../packages/i18n/locales/en/patents.json' with { type: 'json' };
import frPatents from '../../packages/i18n/locales/fr/patents.json' with { type: 'json' };

/**
 * Issue 30 §3, staff's renewal calls screen in both languages with real calls (decision 202). A portal of its own;
 * per language an annuities agent (in its language) whose client code has two patents due in the default 90-day
 * window (FR annuity 8 in 70 days, DE annuity 5 in 85 days). The admin presses "run now" (the day's job): the call's
 * first call goes, the screen shows it with its next step (the reminder, 14 days before the earliest "instruct
 * before": in 26 days) and its day; a second press sends nothing more. The preview shows each line's parts and the
 * totals per currency; "send now" sends the reminder (the .eml in the outbox, its PDF and xlsx opened); "hold"
 * holds the call; another firm's settings are refused then saved through their form. The agent's list shows the call's "instruct before". axe at each state; pictures at 1440 and 360
 * px: artifacts/screenshots/w{1440,360}-renewal-calls[-preview]-<lang>.png.
 */
type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const PATENTS = { en: enPatents, fr: frPatents } as const;
const STAMP = Date.now().toString(36).toUpperCase();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let server: PortalProcess;
let browser: Browser;
const findings: Finding[] = [];
/**
 * The mails of the agent's own call (its account mail aside): the call's recipients are the agents holding its
 * client code or its cabinet, and both agents share the portal's first cabinet, so each also gets the other's call (the subject, MIME-encoded in
 * French, is not searched: the decoded text is).
 */
const callMails = (agent: PatentAgent) => readOutbox(server.info.dataDir).filter((m) => m.to.includes(agent.email) && m.body.includes('%PDF') && m.body.includes(agent.code));
const agents: Partial<Record<Lang, PatentAgent>> = {};

beforeAll(async () => {
  [server, browser] = await Promise.all([startPortalProcess(), launchBrowser()]);
  await withAdmin(browser, server.info, async (adminPage) => {
    for (const lang of ['en', 'fr'] as const) {
      const agent = await createAgent(adminPage, { tag: `calls-${lang}`, langue: lang });
      await seedAgentPatents(browser, server.info, adminPage, agent, [
        { reference: `RC-${STAMP}-${lang}-FR`, dueIn: 70, pays: 'FR', quantieme: 8 },
        { reference: `RC-${STAMP}-${lang}-DE`, dueIn: 85, pays: 'DE', quantieme: 5 },
      ]);
      agents[lang] = agent;
    }
  });
}, 300_000);

afterAll(async () => {
  const { blocking } = splitKnown(findings);
  writeReport('renewal-calls', findings, findings.length);
  await browser?.close();
  await server?.stop();
  expect(blocking, describeFindings(blocking)).toEqual([]);
});

/** axe, no sideways scroll, and the pictures at 1440 and 360 px; back to 1440. */
async function capture(page: Page, name: string, lang: Lang, { fullPage = true } = {}): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [NARROW_PHONE.width, NARROW_PHONE.height],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    findings.push(...(await scan(page, `${name}-${width}-${lang}`)));
    if (TAKE_SCREENSHOTS) {
      mkdirSync(path.join(ARTIFACTS, 'screenshots'), { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'screenshots', `w${width}-${name}-${lang}.png`), fullPage });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
}

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

async function xlsxText(bytes: Buffer): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.worksheets[0]!.eachRow((row) => cells.push(((row.values as unknown[]).slice(1)).map(String).join('|')));
  return cells.join('\n');
}

describe.each(['en', 'fr'] as const)('renewal calls screen (%s)', (lang) => {
  const t = TEXTS[lang];

  it('run now gathers the call; the screen shows its step and next step; preview, send now (the mail opened) and hold', async () => {
    const agent = agents[lang]!;
    const { ctx, page } = await adminSession(browser, server.info, { lang });
    try {
      await page.goto('/annuites/calls');
      await switchLanguage(page, lang);
      await settle(page);
      await page.getByRole('heading', { level: 1, name: t.title }).waitFor();

      // Run now: the day's job. A second press sends nothing more (the step's row is the call's and step's key).
      const ran = page.waitForResponse((r) => r.url().endsWith('/api/renewal_calls/run') && r.ok());
      await page.getByTestId('calls-run-now').click();
      expect(await (await ran).json()).toMatchObject({ success: true, day: day(0), outcome: 'completed' });
      const row = page.getByTestId('call-row').filter({ has: page.getByTestId('call-client').getByText(agent.code, { exact: true }) });
      await row.waitFor();
      const listed = await read<{ calls: RenewalCallDto[] }>(page, `/api/renewal_calls?client_code=${encodeURIComponent(agent.code)}`);
      const call = listed.calls[0]!;
      expect(call).toMatchObject({ step: 'first_call', next_step: 'reminder', open_items: 2, items: 2, instruct_before: day(40) });
      expect(call.next_step_on).toBe(day(26));
      expect(await row.getByTestId('call-step').textContent()).toBe(t.steps.first_call);
      expect(await row.getByTestId('call-next').textContent()).toBe(fill(t.nextOn, { step: t.steps.reminder, day: shownDay(call.next_step_on!, lang) }));
      // The mails go after the run's commit (the mail queue): one first call to the agent.
      await expect.poll(() => callMails(agent).length, { timeout: 30_000 }).toBe(1);
      const again = page.waitForResponse((r) => r.url().endsWith('/api/renewal_calls/run') && r.ok());
      await page.getByTestId('calls-run-now').click();
      expect(await (await again).json()).toMatchObject({ outcome: 'completed' });
      await page.waitForTimeout(1500);
      expect(callMails(agent)).toHaveLength(1);
      expect((await read<{ calls: RenewalCallDto[] }>(page, `/api/renewal_calls?client_code=${encodeURIComponent(agent.code)}`)).calls[0]).toMatchObject({ step: 'first_call' });
      await capture(page, 'renewal-calls', lang);

      // On a phone the calls are cards, not a table scrolling sideways.
      expect(await page.locator('table[data-testid="calls-table"]').count()).toBe(1);
      await page.setViewportSize({ width: NARROW_PHONE.width, height: NARROW_PHONE.height });
      // The table itself carries the test id (a descendant selector would never match, and the poll would pass at once).
      await expect.poll(() => page.locator('table[data-testid="calls-table"]').count()).toBe(0);
      await expect.poll(() => row.evaluate((el) => el.tagName)).toBe('LI');
      await page.setViewportSize({ width: 1440, height: 900 });

      // The preview: each line's parts and the totals per currency, as the API prices them today.
      await row.getByTestId('call-preview').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('call-preview-body').waitFor();
      const preview = await read<RenewalCallResponse>(page, `/api/renewal_calls/${call._id}`);
      expect(preview.lines).toHaveLength(2);
      expect(await dialog.getByTestId('call-line').count()).toBe(2);
      for (const line of preview.lines) {
        const shown = dialog.getByTestId('call-line').filter({ hasText: line.reference_client! });
        const parts = await shown.getByTestId('call-line-parts').textContent();
        for (const p of line.parts) expect(parts).toContain(t.parts[p.part as keyof typeof t.parts]);
        expect(await shown.textContent()).toContain(shownDay(line.instruct_before, lang));
      }
      expect(preview.call.totals.map((x) => x.currency)).toEqual(['EUR']);
      // Money with its cents, in the page's language ("€3,520.40", "3 520,40 €").
      const amount = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(Number(preview.call.totals[0]!.amount));
      expect(await dialog.getByTestId('call-totals').textContent()).toBe(amount);
      await capture(page, 'renewal-calls-preview', lang, { fullPage: false });

      // Send now: the reminder goes, once, with the PDF and the xlsx (opened).
      const sent = page.waitForResponse((r) => r.url().endsWith(`/api/renewal_calls/${call._id}/send`));
      await dialog.getByTestId('call-send').click();
      expect((await sent).status()).toBe(200);
      await dialog.getByTestId('call-steps').getByText(t.steps.reminder, { exact: false }).waitFor();
      let mails = callMails(agent);
      await expect.poll(() => (mails = callMails(agent)).length, { timeout: 30_000 }).toBe(2);
      const parsed = await simpleParser(readFileSync(path.join(server.info.dataDir, 'outbox', mails[1]!.file)));
      const pdf = parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
      const xlsx = parsed.attachments.find((a) => a.contentType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')!;
      expect(pdf && xlsx).toBeTruthy();
      const pdfBody = await pdfText(pdf.content);
      const sheet = await xlsxText(xlsx.content);
      for (const line of preview.lines) {
        expect(pdfBody).toContain(line.reference_client!);
        expect(sheet).toContain(line.reference_client!);
      }
      expect(pdfBody).toContain(agent.code);

      // Hold: the call is held (the job sends none of its steps), the row says so.
      await dialog.getByTestId('call-hold').click();
      await dialog.getByTestId('call-hold').getByText(t.resume).waitFor();
      await page.keyboard.press('Escape');
      await row.getByTestId('call-held').waitFor();
      expect(await row.getByTestId('call-held').textContent()).toBe(t.held);
      expect((await read<{ calls: RenewalCallDto[] }>(page, `/api/renewal_calls?client_code=${encodeURIComponent(agent.code)}`)).calls[0]).toMatchObject({ held: true, step: 'reminder' });
      await capture(page, 'renewal-calls-held', lang);

      // Another firm's settings, through its form: the margin not shorter than the window is refused on the screen
      // (the API's schema), then saved; the form says who saved them, and the API reads them back.
      const values = lang === 'en' ? { window: 120, margin: 20, reminder: 7 } : { window: 100, margin: 25, reminder: 10 };
      // Folded by default: one press shows every firm's form.
      expect(await page.getByTestId('call-settings-cabinet').count()).toBe(0);
      await page.getByTestId('call-settings-toggle').click();
      const form = page.getByTestId('call-settings-cabinet').filter({ hasNotText: call.cabinet }).first();
      const cabinet = (await form.getByRole('heading').textContent())!;
      await form.getByTestId('call-settings-window_days').fill('30');
      await form.getByTestId('call-settings-margin_days').fill('30');
      await form.getByTestId('call-settings-save').click();
      await form.getByText(t.settings.errors.margin).waitFor();
      await form.getByTestId('call-settings-window_days').fill(String(values.window));
      await form.getByTestId('call-settings-margin_days').fill(String(values.margin));
      await form.getByTestId('call-settings-reminder_days').fill(String(values.reminder));
      const saved = page.waitForResponse((r) => r.url().includes('/api/renewal_call_settings/') && r.request().method() === 'PUT');
      await form.getByTestId('call-settings-save').click();
      expect((await saved).status()).toBe(200);
      const settingsForm = page.getByTestId('call-settings-cabinet').filter({ hasText: cabinet });
      await expect.poll(() => settingsForm.getByTestId('call-settings-state').textContent()).toBe(fill(t.settings.savedBy, { day: shownDay(day(0), lang), who: server.info.adminEmail }));
      const stored = await read<{ settings: Array<{ cabinet: string; window_days: number; margin_days: number; reminder_days: number; saved: boolean }> }>(page, '/api/renewal_call_settings');
      expect(stored.settings.find((x) => x.cabinet === cabinet)).toMatchObject({ window_days: values.window, margin_days: values.margin, reminder_days: values.reminder, saved: true });
      findings.push(...(await scan(page, `renewal-calls-settings-${lang}`)));
    } finally {
      await ctx.close();
    }
  }, 300_000);

  it('the agent’s list shows each annuity’s call and its “instruct before” day', async () => {
    const agent = agents[lang]!;
    const { ctx, page } = await apiSession(browser, server.info, agent, { lang });
    try {
      await page.goto('/patent-annuities');
      await switchLanguage(page, lang);
      await settle(page);
      const note = patentRow(page, `RC-${STAMP}-${lang}-FR`).getByTestId('renewal-call-note');
      await note.waitFor();
      // Each annuity's own "instruct before": its due date minus the cabinet's 30-day margin.
      expect(await note.textContent()).toBe(`${PATENTS[lang].renewalCall.instructBefore} ${shownDay(day(40), lang)}`);
      expect(await patentRow(page, `RC-${STAMP}-${lang}-DE`).getByTestId('renewal-call-note').textContent()).toBe(`${PATENTS[lang].renewalCall.instructBefore} ${shownDay(day(55), lang)}`);
      findings.push(...(await scan(page, `renewal-calls-agent-list-${lang}`)));
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
