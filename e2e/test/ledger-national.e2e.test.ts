import { mkdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../src/browser.ts';
import { ARTIFACTS, NARROW_PHONE, settle, switchLanguage } from '../src/a11y.ts';
import { workbook } from '../src/annuities.ts';
import { fill } from '../src/format.ts';
import { startPortalProcess, type PortalProcess } from '../src/global-setup.ts';
import { FakeOps, fixture, RECORDED_HEADERS } from '../../packages/registers/test/ops-server.ts';
import en from '../../packages/i18n/locales/en/annuities.json' with { type: 'json' };
import fr from '../../packages/i18n/locales/fr/annuities.json' with { type: 'json' };
import enRegister from '../../packages/i18n/locales/en/register.json' with { type: 'json' };
import frRegister from '../../packages/i18n/locales/fr/register.json' with { type: 'json' };

/**
 * Issue 29, decision 214, in both languages at 1440 and 360 px. A portal of its own with a local OPS: the agent's EP
 * patent EP1000000 and its validations in DE (year 7 unpaid), GB (year 10 due) and FR (year 7 unpaid). The sync reads
 * the national events (PGFP DE 7, PG25 GB, PLFP FR 7): the register screen shows each discrepancy with its office and
 * event. The admin accepts the DE one (year 7 confirmed on the DE patent's ledger), then checks a file whose DE row is
 * "EP 1 000 000 B1" with annuity 7 past due: the patents of the file say "Paid, confirmed", not due. Pictures:
 * /tmp/shots-ledgernat/ (or E2E artifacts) w{1440,360}-{register,research,file}-ledger-<lang>.png.
 */
type Lang = 'en' | 'fr';
const TEXTS = { en, fr } as const;
const REGISTER = { en: enRegister, fr: frRegister } as const;
const SHOTS = process.env.LEDGERNAT_SHOTS ?? path.join(ARTIFACTS, 'screenshots');
const xml = (body: string) => ({ status: 200, headers: RECORDED_HEADERS, body });
const TAG = `LEDGER${Date.now().toString(36).toUpperCase()}`;

let ops: FakeOps;
let server: PortalProcess;
let browser: Browser;

const apiHeaders = () => ({ 'x-api-key': 'local-dev-api-key', origin: server.info.baseUrl, 'content-type': 'application/json' });

async function context(lang: Lang): Promise<BrowserContext> {
  const { baseUrl } = server.info;
  const ctx = await browser.newContext({ baseURL: baseUrl, locale: lang === 'fr' ? 'fr-FR' : 'en-US', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
  await ctx.addCookies([{ name: 'cookie-consent', value: 'accepted', url: baseUrl, sameSite: 'Lax' }]);
  ctx.setDefaultTimeout(30_000);
  return ctx;
}

async function post(page: Page, to: string, data: unknown, method: 'post' | 'put' = 'post') {
  const r = await page.request[method](to, { headers: apiHeaders(), data });
  if (r.status() !== 200) throw new Error(`${to}: ${r.status()} ${await r.text()}`);
  return r.json() as Promise<Record<string, unknown>>;
}

async function adminPage(lang: Lang): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await context(lang);
  const page = await ctx.newPage();
  await page.goto('/');
  await post(page, '/api/auth/login', { email: server.info.adminEmail, password: server.info.adminPassword });
  return { ctx, page };
}

async function shoot(page: Page, name: string, lang: Lang): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [NARROW_PHONE.width, NARROW_PHONE.height],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, `w${width}-${name}-ledger-${lang}.png`), fullPage: name === 'register' });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  ops = await new FakeOps().tokens().start();
  ops
    .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/procedural-steps', xml(fixture('register-procedural-steps-EP2400812.xml')))
    .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/upp', xml(fixture('register-upp-EP2400812.xml')))
    .route('GET /3.2/rest-services/legal/publication/epodoc/EP1000000', xml(fixture('legal-national-EP1000000.handwritten.xml')));
  [server, browser] = await Promise.all([startPortalProcess({ OPS_CONSUMER_KEY: 'e2e-consumer-key', OPS_CONSUMER_SECRET: 'e2e-consumer-secret', OPS_BASE_URL: ops.url }), launchBrowser()]);
  const { ctx, page } = await adminPage('en');
  try {
    const roles = (await (await page.request.get('/api/role', { headers: apiHeaders() })).json()) as { roles: { _id: string; slug: string }[] };
    const cabinets = (await (await page.request.get('/api/cabinet', { headers: apiHeaders() })).json()) as { cabinet: { _id: string }[] };
    const agent = { email: `ledger-agent-${Date.now()}@portal.test`, password: 'Agent-e2e-password-2026' };
    await post(page, '/api/admin/user', {
      company_agent: 'Cabinet Ledger',
      email: agent.email,
      password: agent.password,
      roles: [roles.roles.find((r) => r.slug === 'user_agent_annuites')!._id],
      id_client: [],
      cabinets: [cabinets.cabinet[0]!._id],
      code: ['CODE-LEDGER'],
      langue: 'en',
    });
    const agentCtx = await context('en');
    const agentPage = await agentCtx.newPage();
    await agentPage.goto('/');
    await post(agentPage, '/api/auth/login', agent);
    const patents = [
      { pays: 'EP', numero_publication: 'EP1000000', reference_client: `${TAG}-EP`, quantieme: 13, date_echeance_annuites: '2027-11-30' },
      { pays: 'DE', numero_publication: 'EP1000000', reference_client: `${TAG}-DE`, quantieme: 7, date_echeance_annuites: '2027-11-30' },
      { pays: 'GB', numero_publication: 'EP1000000', reference_client: `${TAG}-GB`, quantieme: 10, date_echeance_annuites: '2027-11-30' },
      { pays: 'FR', numero_publication: 'EP1000000', reference_client: `${TAG}-FR`, quantieme: 7, date_echeance_annuites: '2027-11-30' },
    ];
    for (const p of patents) {
      const created = await post(agentPage, '/api/brevet_eptane/create', { ...p, numero_depot: 'EP99203729', instruction_paiement: null, date_depot: '1999-11-08', reference_cabinet: `NS-${p.reference_client}`, origine: p.pays === 'EP' ? 'national' : 'ep_validated', cout: 500 });
      const submission = created.submission as { _id: string };
      await post(page, `/api/patent_submissions/${submission._id}/accept`, { cabinet: cabinets.cabinet[0]!._id, code_client: 'CODE-LEDGER' }, 'put');
    }
    await agentCtx.close();
    await post(page, '/api/registers/sync', {});
    for (let i = 0; ; i++) {
      const runs = (await (await page.request.get('/api/registers/sync', { headers: apiHeaders() })).json()) as { runs: Array<{ state: string }> };
      if (runs.runs[0]?.state === 'Done') break;
      if (i > 240) throw new Error(`sync still ${runs.runs[0]?.state}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await ctx.close();
  }
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await ops?.stop();
});

describe.sequential('national ledgers and file colours', () => {
  it.each(['en', 'fr'] as const)('the register screen names the office and the event of each national discrepancy (%s)', async (lang) => {
    const { ctx, page } = await adminPage(lang);
    try {
      await page.goto('/annuites/register');
      await switchLanguage(page, lang);
      await settle(page);
      await page.getByTestId('register-discrepancy').first().waitFor();
      const offices = await page.getByTestId('register-discrepancy-office').allTextContents();
      const events = REGISTER[lang].events;
      expect(offices).toEqual(expect.arrayContaining([`DE · ${events.PGFP}`, `FR · ${events.PLFP}`, `GB · ${events.PG25}`]));
      await shoot(page, 'register', lang);
    } finally {
      await ctx.close();
    }
  }, 120_000);

  it.each(['en', 'fr'] as const)('a file row that is the DE patent, its year 7 confirmed on the ledger, says paid (%s)', async (lang) => {
    const { ctx, page } = await adminPage(lang);
    try {
      if (lang === 'en') {
        const list = (await (await page.request.get('/api/registers/discrepancies?limit=100', { headers: apiHeaders() })).json()) as { data: Array<{ _id: string; pays: string | null; register_code: string }> };
        const de = list.data.find((d) => d.pays === 'DE' && d.register_code === 'PGFP')!;
        await post(page, `/api/registers/discrepancies/${de._id}/accept`, {});
        const content = await workbook([
          ['EP 1 000 000 B1', null, `${TAG}-ROW-DE`, 'EP validated in DE', 'DE', null, '2020-10-15', null, 6, null, 'EP validated'],
          ['FR3999999', null, `${TAG}-ROW-FR`, 'Not in the portfolio', 'FR', null, '2020-10-15', null, 5, null, null],
        ]);
        // This file's own portal: the shared helper's headers name the suite's portal, so the upload is written here.
        const { 'content-type': _json, ...headers } = apiHeaders();
        const res = await page.request.post('/api/brevets/annuite', {
          headers,
          multipart: { title: `Ledger ${TAG}`, file: { name: 'ledger.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: content } },
        });
        expect(res.status(), await res.text()).toBe(200);
        const { _id } = (await res.json()) as { _id: string };
        await expect
          .poll(async () => ((await (await page.request.get('/api/annuite/files?limit=100', { headers })).json()) as { data: Array<{ _id: string; is_done: string }> }).data.find((f) => f._id === _id)?.is_done, { timeout: 120_000, interval: 250 })
          .toBe('Done');
      }
      await page.goto('/annuities/research');
      await switchLanguage(page, lang);
      await settle(page);
      await page.getByTestId('research-search').fill(`${TAG}-ROW`);
      await page.getByTestId('research-hit').first().waitFor();
      // The search's hit says what the file's row says: paid, confirmed (the ledger), not due by the dates.
      const hit = page.getByTestId('research-hit').filter({ hasText: `${TAG}-ROW-DE` }).getByTestId('colour-badge');
      expect(await hit.getAttribute('data-ledger')).toBe('confirmed');
      expect(await hit.textContent()).toBe(TEXTS[lang].colour.ledger.confirmed);
      await shoot(page, 'research', lang);
      await page.getByTestId('research-open-file').first().click();
      await page.getByTestId('patent-row').first().waitFor();
      const paid = page.getByTestId('patent-row').filter({ hasText: `${TAG}-ROW-DE` });
      expect(await paid.getByTestId('colour-badge').textContent()).toBe(TEXTS[lang].colour.ledger.confirmed);
      expect(await paid.getByTestId('colour-badge').getAttribute('data-colour')).toBe('ok');
      expect(await paid.getByTestId('patent-ledger').getAttribute('data-state')).toBe('confirmed');
      const unknown = page.getByTestId('patent-row').filter({ hasText: `${TAG}-ROW-FR` });
      expect(await unknown.getByTestId('patent-ledger').count()).toBe(0);
      await shoot(page, 'file', lang);
      // Decision 233: the "up to date" chip counts the paid row, its filter lists it, "due or overdue" does not.
      const listedUnder = async (colour: 'ok' | 'nok') => {
        await page.getByTestId(`filter-${colour}`).click();
        await expect.poll(() => page.getByTestId(`filter-${colour}`).getAttribute('aria-pressed')).toBe('true');
        const rowColours = () => page.getByTestId('patent-row').getByTestId('colour-badge').evaluateAll((badges) => badges.map((b) => b.getAttribute('data-colour')));
        // The rows shown are the filter's answer: every one of the colour, as many as its chip counts.
        const chipCount = async () => Number((await page.getByTestId(`filter-${colour}`).textContent())?.match(/\((\d+)\)/)?.[1]);
        await expect.poll(async () => { const colours = await rowColours(); return colours.every((c) => c === colour) && colours.length === (await chipCount()); }).toBe(true);
        const refs = await page.getByTestId('patent-row').allTextContents();
        await page.getByTestId(`filter-${colour}`).click();
        return refs;
      };
      const upToDate = await listedUnder('ok');
      expect(upToDate.some((row) => row.includes(`${TAG}-ROW-DE`))).toBe(true);
      expect(await page.getByTestId('filter-ok').textContent()).toBe(fill(TEXTS[lang].patents.filter_other, { label: TEXTS[lang].colour.ok, count: upToDate.length }));
      const due = await listedUnder('nok');
      expect(due.some((row) => row.includes(`${TAG}-ROW-DE`))).toBe(false);
      expect(await page.getByTestId('filter-nok').textContent()).toBe(fill(TEXTS[lang].patents.filter_other, { label: TEXTS[lang].colour.nok, count: due.length }));
      if (lang === 'en') {
        // Decision 234: the export downloaded from the file list says what the rows say (the ledger's colour and code).
        await page.keyboard.press('Escape');
        await page.goto('/annuities/list-files');
        await page.getByTestId('files-search').fill(`Ledger ${TAG}`);
        const fileRow = page.getByTestId('file-row').filter({ hasText: `Ledger ${TAG}` }).first();
        await fileRow.getByTestId('download-export').waitFor();
        const [exported] = await Promise.all([page.waitForEvent('download'), fileRow.getByTestId('download-export').click()]);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(readFileSync(await exported.path()) as unknown as ArrayBuffer);
        const sheet = wb.worksheets[0]!;
        const headers = (sheet.getRow(1).values as unknown[]).map((v) => (v == null ? '' : String(v)));
        const colour = headers.lastIndexOf('Couleur / Colour');
        const byRef = new Map<string, unknown[]>();
        sheet.eachRow((row, n) => n > 1 && byRef.set(String(row.getCell(headers.indexOf('Reference')).value), row.values as unknown[]));
        expect(byRef.get(`${TAG}-ROW-DE`)![colour]).toBe('ok');
        expect(String(byRef.get(`${TAG}-ROW-DE`)![colour + 1])).toMatch(/ledger_paid$/);
        expect(String(byRef.get(`${TAG}-ROW-FR`)![colour + 1] ?? '')).not.toContain('ledger_');
      }
    } finally {
      await ctx.close();
    }
  }, 240_000);
});
