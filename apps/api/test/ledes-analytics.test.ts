import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { multipart } from './support/multipart.ts';

/**
 * Issue 31 §2, done-when 3: the spend analytics equal the sums of the invoice lines. The test uploads three files
 * (two accepted, one refused), computes every figure itself from the files' text (its own parse, in cents), and
 * compares with GET /api/ledes/analytics; a few figures are also written out by hand.
 */
const SAMPLES = new URL('../../../packages/ledes/test/fixtures/samples/', import.meta.url);
const VALID = readFileSync(new URL('travisbashor-ledes-parser_tests-data-ledes_98B.txt', SAMPLES), 'utf8');

/** Replaces field `index` of every data line (lines 3+) with `f(value)`. */
const mapField = (text: string, index: number, f: (v: string, fields: string[]) => string) =>
  text
    .split('\n')
    .map((line, i) => {
      if (i < 2 || !line.includes('|')) return line;
      const fields = line.replace(/\[\]\s*$/, '').split('|');
      fields[index] = f(fields[index]!, fields);
      return `${fields.join('|')}[]`;
    })
    .join('\n');
const F = { invoiceDate: 0, invoiceNumber: 1, start: 5, end: 6, total: 12, date: 13, firm: 19 } as const;

/** File B: the same invoices a month later, billed by another firm. */
let FILE_B = mapField(VALID, F.invoiceNumber, (v) => `${v}-B`);
FILE_B = mapField(FILE_B, F.firm, () => '98-7654321');
FILE_B = mapField(FILE_B, F.invoiceDate, () => '19990305');
FILE_B = mapField(FILE_B, F.start, () => '19990201');
FILE_B = mapField(FILE_B, F.end, () => '19990228');
FILE_B = mapField(FILE_B, F.date, (v) => `199902${v.slice(6) > '28' ? '28' : v.slice(6)}`);
/** File C: refused, one line's total 10 more than its units × rate (and than the invoice total). */
let FILE_C = mapField(VALID, F.invoiceNumber, (v) => `${v}-C`);
FILE_C = mapField(FILE_C, F.total, (v, fields) => (fields[8] === '2' ? String(Number(v) + 10) : v));

interface Line {
  client: string;
  matter: string;
  total: bigint;
  date: string;
  task: string;
  timekeeper: string;
  firm: string;
}
/** The test's own reading of a 98B file: the header names the columns; totals in cents. */
function linesOf(text: string): Line[] {
  const [, header, ...rest] = text.split('\n');
  const names = header!.replace('[]', '').split('|');
  const at = (n: string) => names.indexOf(n);
  return rest
    .filter((l) => l.includes('|'))
    .map((l) => l.replace(/\[\]\s*$/, '').split('|'))
    .map((f) => {
      const [whole, frac = ''] = f[at('LINE_ITEM_TOTAL')]!.split('.');
      return {
        client: f[at('CLIENT_ID')]!,
        matter: f[at('LAW_FIRM_MATTER_ID')]!,
        total: BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2)),
        date: `${f[at('LINE_ITEM_DATE')]!.slice(0, 4)}-${f[at('LINE_ITEM_DATE')]!.slice(4, 6)}`,
        task: f[at('LINE_ITEM_TASK_CODE')]!,
        timekeeper: f[at('TIMEKEEPER_ID')]!,
        firm: f[at('LAW_FIRM_ID')]!,
      };
    });
}
const cents = (v: bigint) => `${v / 100n}.${(v % 100n).toString().padStart(2, '0')}00`;
const DIM_OF: Record<string, (l: Line) => string> = {
  law_firm: (l) => l.firm,
  client: (l) => l.client,
  matter: (l) => l.matter,
  timekeeper: (l) => l.timekeeper,
  task: (l) => l.task,
  month: (l) => l.date,
};
/** Per dimension, key → [spend, refused] in the API's decimal text. */
function expected(accepted: Line[], refused: Line[]) {
  const out: Record<string, Record<string, { spend: string; refused: string }>> = {};
  for (const [dim, key] of Object.entries(DIM_OF)) {
    const sums = new Map<string, [bigint, bigint]>();
    for (const l of accepted) sums.set(key(l), [(sums.get(key(l))?.[0] ?? 0n) + l.total, sums.get(key(l))?.[1] ?? 0n]);
    for (const l of refused) sums.set(key(l), [sums.get(key(l))?.[0] ?? 0n, (sums.get(key(l))?.[1] ?? 0n) + l.total]);
    out[dim] = Object.fromEntries([...sums].map(([k, [s, r]]) => [k, { spend: cents(s), refused: cents(r) }]));
  }
  return out;
}
type Group = { key: string; spend: string; refused: string; over_guidelines: string; lines: number };
const asMap = (groups: Group[]) => Object.fromEntries(groups.map((g) => [g.key, { spend: g.spend, refused: g.refused }]));

async function upload(client: TestClient, name: string, content: string) {
  const { body, contentType } = multipart({}, [{ filename: name, content: Buffer.from(content) }]);
  const res = await fetch(`${(client as unknown as { baseUrl: string }).baseUrl}/api/ledes/file/patent/PAR`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: (client as any).options.origin, 'x-api-key': (client as any).options.apiKey },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runs: Array<{ _id: string }> }).runs[0]!._id;
}

describe.each(databaseKinds())('LEDES spend analytics (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient };
  let admin: { client: TestClient };

  beforeAll(async () => {
    t = await startTestPortal(kind);
    agent = await t.loginAs('user_agent_ledes');
    admin = await t.loginAs('admin');
    const runs = [await upload(agent.client, 'a.txt', VALID), await upload(agent.client, 'b.txt', FILE_B), await upload(agent.client, 'c.txt', FILE_C)];
    await t.drainQueue();
    const states = await Promise.all(runs.map(async (id) => (await agent.client.get(`/api/ledes/runs/${id}`)).body.run));
    expect(states.map((r) => [r.state, r.accepted])).toEqual([
      ['Done', true],
      ['Done', true],
      ['Done', false],
    ]);
  });
  afterAll(async () => t.close());

  it('every figure equals the sum of the invoice lines, computed independently from the files', async () => {
    const res = await admin.client.get('/api/ledes/analytics');
    expect(res.status).toBe(200);
    const accepted = [...linesOf(VALID), ...linesOf(FILE_B)];
    const refused = linesOf(FILE_C);
    const want = expected(accepted, refused);
    for (const dim of Object.keys(DIM_OF)) expect(asMap(res.body.groups[dim].top), dim).toEqual(want[dim]);
    const sum = (ls: Line[]) => cents(ls.reduce((t, l) => t + l.total, 0n));
    expect(res.body.totals).toEqual({ spend: sum(accepted), refused: sum(refused), over_guidelines: '0.0000', lines: accepted.length });
    // By hand: 630 + 700 + 40 + 24.95 + 289.50 + 1,250 = 2,934.45 per accepted file; the refused one 10 more.
    expect(res.body.totals.spend).toBe('5868.9000');
    expect(res.body.totals.refused).toBe('2944.4500');
    expect(asMap(res.body.groups.month.top)).toEqual({ '1999-01': { spend: '2934.4500', refused: '2944.4500' }, '1999-02': { spend: '2934.4500', refused: '0.0000' } });
    // Timekeeper 22547: 630 + 700 per file; the expenses and the retainer have none ('').
    expect(res.body.groups.timekeeper.top.find((g: Group) => g.key === '22547')).toMatchObject({ spend: '2660.0000', refused: '1340.0000', label: 'Arnsley, Robert' });
    expect(res.body.groups.timekeeper.top.find((g: Group) => g.key === '')).toMatchObject({ spend: '3128.9000', lines: 6 });
    // Largest spend first.
    const spends = res.body.groups.matter.top.map((g: Group) => Number(g.spend));
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
  });

  it('filters: period and firm narrow every figure to the lines they keep', async () => {
    const feb = await admin.client.get('/api/ledes/analytics?from=1999-02&to=1999-02');
    expect(feb.status).toBe(200);
    const want = expected(linesOf(FILE_B), []);
    for (const dim of Object.keys(DIM_OF)) expect(asMap(feb.body.groups[dim].top), dim).toEqual(want[dim]);
    const firm = await admin.client.get('/api/ledes/analytics?law_firm=24-6437381&task=l510');
    expect(firm.body.totals).toMatchObject({ spend: '1370.0000', refused: '1380.0000', lines: 3 });
    const none = await admin.client.get('/api/ledes/analytics?client=NOBODY');
    expect(none.body.totals).toEqual({ spend: '0.0000', refused: '0.0000', over_guidelines: '0.0000', lines: 0 });
    expect(none.body.groups.law_firm).toEqual({ top: [], others: null, count: 0 });
  });

  it('bad input is a translated 400; only admins see the figures', async () => {
    const month = await admin.client.get('/api/ledes/analytics?from=1999-13');
    expect(month.status).toBe(400);
    expect(month.body).toMatchObject({ success: false, code: 'analytics_bad_month', message: 'A month is written YYYY-MM (for example 2026-03).' });
    const period = await admin.client.get('/api/ledes/analytics?from=1999-03&to=1999-01');
    expect(period.status).toBe(400);
    expect(period.body).toMatchObject({ success: false, code: 'analytics_bad_period', message: 'The period ends before it starts.' });
    expect((await admin.client.get('/api/ledes/analytics?other=1')).status).toBe(400);
    expect((await agent.client.get('/api/ledes/analytics')).status).toBe(403);
    expect((await t.client().get('/api/ledes/analytics')).status).toBe(401);
  });

  it('exports: CSV in the reader\'s language and decimal separator, xlsx a workbook', async () => {
    const base = (admin.client as unknown as { baseUrl: string }).baseUrl;
    const headers = (lang: string) => ({ cookie: admin.client.cookieHeader(), 'x-api-key': (admin.client as any).options.apiKey, 'accept-language': lang });
    const fr = await fetch(`${base}/api/ledes/analytics/export?format=csv&from=1999-02`, { headers: headers('fr') });
    expect(fr.status).toBe(200);
    expect(fr.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = (await fr.text()).replace(/^\ufeff/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Dimension;Valeur;Nom;Dépenses (acceptées);Refusé;Au-delà des règles;Lignes');
    expect(lines[1]).toBe('Total;;;2934,4500;0,0000;0,0000;6');
    expect(lines).toContain('Cabinet;98-7654321;;2934,4500;0,0000;0,0000;6');
    const en = await fetch(`${base}/api/ledes/analytics/export?format=csv`, { headers: headers('en') });
    expect((await en.text()).split('\r\n')[1]).toBe('Total;;;5868.9000;2944.4500;0.0000;12');
    const xlsx = await fetch(`${base}/api/ledes/analytics/export`, { headers: headers('en') });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    expect(Buffer.from(await xlsx.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    expect((await fetch(`${base}/api/ledes/analytics/export?format=pdf`, { headers: headers('en') })).status).toBe(400);
  });

  it('a deleted run takes its figures with it', async () => {
    const { sql } = await import('drizzle-orm');
    await t.portal.ctx.db.execute(sql`delete from ledes_runs where original_name = 'c.txt'`);
    const res = await admin.client.get('/api/ledes/analytics');
    expect(res.body.totals.refused).toBe('0.0000');
    expect(res.body.totals.spend).toBe('5868.9000');
  });
});
