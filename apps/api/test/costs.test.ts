import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { currencyRates, ecbRates, patentExportBatches, patentRecords } from '@portal/db';
import { exportOneBatch, parseCsv, PATENT_EXPORT_COLUMNS } from '@portal/jobs';
import { databaseKinds, type TestClient } from './support/portal.ts';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';

/*
 * Issue 30 §1 (decision 199): the admin's cost tables and ECB files, the next annuity's cost part by part
 * on the detail, and a column per part in the export. Expected figures are computed by hand in the comments.
 */

// Saturday: the ECB publishes nothing that day.
const TODAY = '2026-03-14';

/** The ECB's historical CSV form (ISO days, a trailing comma, N/A for a currency not quoted). Test figures. */
const HIST_CSV = 'Date,USD,GBP,SEK,CYP,\n2026-03-16,1.0901,0.849,11.0425,N/A,\n2026-03-13,1.0842,0.8535,11.1,N/A,\n2026-03-12,1.0811,0.8601,11.2,N/A,\n';
const DAILY_XML = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject><gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
<Cube><Cube time='2026-03-13'><Cube currency='USD' rate='1.0842'/><Cube currency='GBP' rate='0.8535'/></Cube></Cube></gesmes:Envelope>`;

describe.each(databaseKinds())('cost tables and cost parts (%s)', (kind) => {
  let w: PatentWorld;
  let admin: TestClient;
  let agent: TestClient;

  beforeAll(async () => {
    w = await startPatentWorld(kind, TODAY, 'Costs');
    admin = (await w.t.loginAs('admin')).client;
    agent = (await w.t.loginAs('user_agent_annuites')).client;
  }, 120_000);
  afterAll(async () => w?.t.close());

  const ecb = (client: TestClient, filename: string, content: string, headers: Record<string, string> = {}) => client.upload('/api/exchange_rates/ecb', [{ filename, content }], {}, headers);

  it('an admin imports ECB files (CSV and XML): rates stored per day exactly as published; the same file again writes nothing', async () => {
    const first = await ecb(admin, 'eurofxref-hist.csv', HIST_CSV);
    expect(first.status).toBe(200);
    // 3 days × 3 quoted currencies; the N/A column is skipped.
    expect(first.body.ecb_import).toMatchObject({ file_name: 'eurofxref-hist.csv', format: 'csv', first_day: '2026-03-12', last_day: '2026-03-16', days: 3, rates: 9, written: 9 });
    const again = await ecb(admin, 'eurofxref-hist.csv', HIST_CSV);
    expect(again.body.ecb_import).toMatchObject({ rates: 9, written: 0 });
    const xml = await ecb(admin, 'eurofxref-daily.xml', DAILY_XML);
    expect(xml.body.ecb_import).toMatchObject({ format: 'xml', first_day: '2026-03-13', days: 1, rates: 2, written: 0 });
    const db = w.t.portal.ctx.db;
    const gbp = await db.select().from(ecbRates).where(eq(ecbRates.currency, 'GBP'));
    expect(gbp.map((r) => [r.day, r.perEur]).sort()).toEqual([['2026-03-12', '0.8601'], ['2026-03-13', '0.8535'], ['2026-03-16', '0.849']]);
    // The euro rates the rest of the portal reads follow: 1 / 0.8535 = 1.17164616 EUR per GBP.
    const legacy = await db.select().from(currencyRates).where(eq(currencyRates.currency, 'GBP'));
    expect(legacy.find((r) => r.validFrom === '2026-03-13')?.eurPerUnit).toBe('1.17164616');
    const tables = await admin.get('/api/cost_tables');
    expect(tables.status).toBe(200);
    expect(tables.body.ecb.latest).toContainEqual({ currency: 'GBP', day: '2026-03-16', per_eur: '0.849' });
    expect(tables.body.ecb.imports).toHaveLength(3);
    // The engine's official tables are listed read-only, each with validity and sources.
    expect(tables.body.fee_tables.find((t: { id: string }) => t.id === 'GB-2018-04-06')).toMatchObject({ valid_until: '2026-03-31', verified: true });
  });

  it('refuses a file that is not an ECB file with a translated reason and and another extension with a 415', async () => {
    const bad = await ecb(admin, 'rates.csv', 'Date,GBP,\n2026-03-13,0.85,\n2026-03-12,abc,\n', { 'accept-language': 'fr' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'ecb_file_bad_rate', message: 'Le fichier de taux contient un taux qui n’est pas un nombre positif.' });
    const html = await ecb(admin, 'rates.xml', '<html><body>Not found</body></html>');
    expect(html.body).toMatchObject({ code: 'ecb_file_format', message: 'This is not an ECB reference-rate file (CSV or XML).' });
    expect((await ecb(admin, 'rates.txt', HIST_CSV)).status).toBe(415);
    expect((await ecb(admin, 'empty.csv', '')).status).toBe(400);
    // Nothing of a refused file is stored.
    expect((await w.t.portal.ctx.db.select().from(ecbRates)).some((r) => r.day === '2026-03-12' && r.currency === 'GBP' && r.perEur !== '0.8601')).toBe(false);
  });

  it("an admin keeps the agents' fees per office and the cabinets' service fees, dated; bad input is a 4xx", async () => {
    const fee = await admin.post('/api/cost_tables/agent_fees', { office: 'GB', amount: 25, currency: 'GBP', valid_from: '2026-01-01', note: 'Correspondent, London' });
    expect(fee.status).toBe(200);
    expect(fee.body.agent_fee).toMatchObject({ office: 'GB', amount: 25, currency: 'GBP', valid_from: '2026-01-01', valid_until: null });
    expect((await admin.post('/api/cost_tables/agent_fees', { office: 'GB', amount: 30, currency: 'GBP', valid_from: '2026-01-01' })).body.code).toBe('cost_row_exists');
    for (const body of [
      { office: 'GB', amount: -1, currency: 'GBP', valid_from: '2026-02-01' },
      { office: 'GB', amount: 1.234, currency: 'GBP', valid_from: '2026-02-01' },
      { office: 'XX', amount: 1, currency: 'GBP', valid_from: '2026-02-01' },
      { office: 'GB', amount: 1, currency: 'gbp', valid_from: '2026-02-01' },
      { office: 'GB', amount: 1, currency: 'GBP', valid_from: '2026-02-30' },
      { office: 'GB', amount: 1, currency: 'GBP', valid_from: '2026-02-01', valid_until: '2026-01-01' },
    ]) {
      expect((await admin.post('/api/cost_tables/agent_fees', body)).status, JSON.stringify(body)).toBe(400);
    }
    const old = await admin.post('/api/cost_tables/agent_fees', { office: 'GB', amount: 20, currency: 'GBP', valid_from: '2025-01-01', valid_until: '2025-12-31' });
    expect(old.status).toBe(200);
    const service = await admin.post('/api/cost_tables/service_fees', { cabinet_id: w.cabinetA, amount: 45, currency: 'EUR', margin_percent: 2.5, valid_from: '2026-01-01' });
    expect(service.status).toBe(200);
    expect(service.body.service_fee).toMatchObject({ cabinet: { _id: w.cabinetA }, amount: 45, margin_percent: 2.5 });
    expect((await admin.post('/api/cost_tables/service_fees', { cabinet_id: '00000000-0000-4000-8000-000000000000', amount: 45, currency: 'EUR', valid_from: '2026-01-01' })).status).toBe(404);
    expect((await admin.post('/api/cost_tables/service_fees', { cabinet_id: w.cabinetA, amount: 1, currency: 'EUR', margin_percent: 101, valid_from: '2026-02-01' })).status).toBe(400);
    // Deleting: once, then a 404.
    expect((await admin.request('DELETE', `/api/cost_tables/agent_fees/${old.body.agent_fee._id}`)).body).toEqual({ success: true, deleted: old.body.agent_fee._id });
    expect((await admin.request('DELETE', `/api/cost_tables/agent_fees/${old.body.agent_fee._id}`)).status).toBe(404);
    expect((await admin.request('DELETE', '/api/cost_tables/agent_fees/not-a-uuid')).status).toBe(400);
    // Staff only.
    expect((await agent.get('/api/cost_tables')).status).toBe(403);
    expect((await agent.post('/api/cost_tables/agent_fees', { office: 'GB', amount: 25, currency: 'GBP', valid_from: '2027-01-01' })).status).toBe(403);
    expect((await ecb(agent, 'eurofxref-hist.csv', HIST_CSV)).status).toBe(403);
  });

  it('the detail shows the next annuity’s cost part by part, in GBP and in euros at the dated ECB rate', async () => {
    await w.seed([{ idagenda: 'GB-5', pays: 'GB', dateEcheance: '2026-03-31', quantieme: 5 }]);
    const res = await admin.get(`/api/brevet_eptane/${w.ids['GB-5']}`);
    expect(res.status).toBe(200);
    // Due 31 March 2026, priced on its due date: the ECB's last rate before it is 16 March (0.849 GBP per EUR).
    // Official fee GB-2018-04-06 year 5: GBP 70 → 7,000 / 0.849 = 8,244.99 cents → EUR 82.45.
    // Agent's fee GBP 25 → 2,500 / 0.849 = 2,944.64 → EUR 29.45. Service fee EUR 45.00.
    // Margin 2.5 % of (82.45 + 29.45 = 111.90) = 2.7975 → EUR 2.80. Total 82.45 + 29.45 + 45.00 + 2.80 = EUR 159.70.
    expect(res.body.costs).toMatchObject({ annuity: 5, due_date: '2026-03-31', payment_date: '2026-03-31', total_eur: 159.7, lapsed: false });
    expect(res.body.costs.rates).toEqual([{ currency: 'GBP', per_eur: '0.849', day: '2026-03-16', source: 'ECB' }]);
    expect(res.body.costs.parts.map((p: { kind: string; amount: number; currency: string; amount_eur: number }) => [p.kind, p.amount, p.currency, p.amount_eur])).toEqual([
      ['official_fee', 70, 'GBP', 82.45],
      ['agent_fee', 25, 'GBP', 29.45],
      ['service_fee', 45, 'EUR', 45],
      ['margin', 2.8, 'EUR', 2.8],
    ]);
    expect(res.body.costs.parts[0]).toMatchObject({ ref: 'GB-2018-04-06', valid_from: '2018-04-06', valid_until: '2026-03-31', verified: true });
    // A patent the engine cannot price has no costs (null), never a 500.
    await w.seed([{ idagenda: 'XX-1', pays: 'US', dateEcheance: '2026-03-31', quantieme: 5 }]);
    expect((await admin.get(`/api/brevet_eptane/${w.ids['XX-1']}`)).body.costs).toBeNull();
  });

  it('the export has a column per part', async () => {
    const db = w.t.portal.ctx.db;
    await db.update(patentRecords).set({ instructionId: 1, instructionStatus: 'validated' }).where(eq(patentRecords.idagenda, 'GB-5'));
    const batch = await exportOneBatch({ db, storage: w.t.portal.ctx.storage, logger: w.t.portal.ctx.logger, clock: w.t.clock });
    expect(batch?.count).toBe(1);
    const [row] = await db.select().from(patentExportBatches).where(eq(patentExportBatches.id, batch!.batchId));
    const chunks: Buffer[] = [];
    for await (const chunk of (await w.t.portal.ctx.storage.get(row!.csvKey)) as AsyncIterable<Buffer>) chunks.push(chunk);
    const [header, line] = parseCsv(Buffer.concat(chunks));
    expect(header).toEqual([...PATENT_EXPORT_COLUMNS]);
    const cell = (name: string) => line![header!.indexOf(name)];
    expect(['payment_date', 'fee_table', 'official_fee', 'fee_currency', 'official_fee_eur', 'surcharge_eur', 'agent_fee_eur', 'service_fee_eur', 'margin_eur', 'ecb_rate', 'ecb_rate_date', 'total_eur'].map(cell)).toEqual([
      '2026-03-31', 'GB-2018-04-06', '70', 'GBP', '82.45', '', '29.45', '45', '2.8', '0.849', '2026-03-16', '159.7',
    ]);
  });
});
