import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, computeSchedule, costBreakdown, formatIsoDate, OFFICES, parseIsoDate, surchargeOn, UNITARY_STATES, type DatedAmount, type EcbRate, type Office } from '@portal/annuities/core';
import { FORECAST_EXPORT_COLUMNS, forecastQuery, type ForecastResponse } from '@portal/contracts';
import { agentFees, cabinetServiceFees, ecbRates, patentLedger, patentRecords, userCabinets, users } from '@portal/db';
import { FORECAST_SCOPED_DIRTY_MAX, forecastHasDirty, forecastLiveDay, originOf, rowsOf } from '@portal/jobs';
import { sql } from 'drizzle-orm';
import { exportLines, forecastCsv } from '../src/modules/forecast/export.ts';
import { computeForecast, forecastRefreshSettled, refreshInBackground, wholeForecast } from '../src/modules/forecast/service.ts';
import type { PatentScope } from '../src/modules/patents/service.ts';
import { startPatentWorld, type PatentWorld, type Seed } from './support/patents.ts';
import { databaseKinds, type TestClient } from './support/portal.ts';

/*
 * Issue 30 §2, done-when 2 (decision 201): on a 1,000-patent fixture, GET /api/forecast equals the sum of the engine's
 * per-patent schedules, computed here from the records with `computeSchedule` and `surchargeOn` alone (not through the
 * forecast's stored rows), with the ledger's and the instructions' drop-outs, the filters, the what-if and an agent's scope.
 */

const TODAY = '2027-03-01';
const YEARS = [2027, 2028, 2029, 2030, 2031];

/** A deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Fixture {
  records: Seed[];
  /** Ledger years to write: abandoned/lapsed end the patent's budget there, paid leaves that year out. */
  ledger: Array<{ patentKey: string; annuityYear: number; state: 'abandoned' | 'lapsed' | 'paid' | 'confirmed' }>;
}

function fixture(cabinetA: string, cabinetB: string): Fixture {
  const rnd = random(30_2);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const today = parseIsoDate(TODAY)!;
  const records: Seed[] = [];
  const ledger: Fixture['ledger'] = [];
  for (let i = 0; i < 1_000; i++) {
    const pays: Office = pick(OFFICES);
    const origine = pays === 'EP' ? 'ep_application' : pays === 'UP' ? 'unitary' : pick(['national', 'national', 'ep_validated', UNITARY_STATES.has(pays) ? 'unitary' : 'national']);
    const filing = addDays(today, -Math.floor(rnd() * 19.5 * 365) - 30);
    const dateDepot = formatIsoDate(filing);
    // The record names the annuity due around a day from 14 months ago to 7 months ahead: overdue (in grace or past it) or to come.
    const around = addDays(today, Math.floor(rnd() * 640) - 430);
    const s = computeSchedule({ office: pays, origin: originOf(pays, origine), filing }, around);
    const quantieme = rnd() < 0.2 || !s.ok || s.value.next === null ? null : s.value.next.number;
    const idbrevet = `FC-${i}`;
    const base: Seed = {
      idagenda: `FC-${i}-${quantieme ?? 'x'}`,
      idbrevet: i % 50 === 7 ? null : idbrevet,
      cabinetId: i % 3 === 0 ? cabinetB : cabinetA,
      clientCode: `CODE-${i % 7}`,
      pays,
      origine,
      dateDepot,
      quantieme,
    };
    // Every 40th patent: do not pay this year (instruction 2) — it and every later year drop out.
    if (i % 40 === 5 && quantieme !== null) base.instructionId = 2;
    records.push(base);
    // Every 25th: an older record of the same patent (the newer names a higher annuity and is the one read).
    if (i % 25 === 3 && quantieme !== null && quantieme > 3 && base.idbrevet) records.push({ ...base, idagenda: `FC-${i}-old`, quantieme: quantieme - 1, instructionId: null });
    if (base.idbrevet && quantieme !== null) {
      if (i % 33 === 1) ledger.push({ patentKey: idbrevet, annuityYear: quantieme + 2, state: 'abandoned' });
      if (i % 37 === 2) ledger.push({ patentKey: idbrevet, annuityYear: quantieme + 1, state: 'paid' });
      if (i % 41 === 4) ledger.push({ patentKey: idbrevet, annuityYear: quantieme + 3, state: 'lapsed' });
    }
  }
  return { records, ledger };
}

/** Per year (and per month), office and currency, the official fee and the surcharge in minor units, and the annuities. */
type Sums = Map<string, { official: number; surcharge: number; annuities: number; eur: string }>;

/**
 * The admin tables and rates of the fixture (decision 217): an agent's fee for FR in force from the fixture's year and one
 * for GB in GBP from the next (a figure's agent's fee follows the payment day), cabinet A's service fee with a 2.5 % margin,
 * and ECB rates for GBP and SEK published before today (every later payment day reads the last one).
 */
const AGENT_FEES: DatedAmount[] = [
  { id: 'fr', amountMinor: 4500, currency: 'EUR', validFrom: '2027-01-01', validUntil: null },
  { id: 'gb', amountMinor: 2500, currency: 'GBP', validFrom: '2028-01-01', validUntil: null },
];
const SERVICE_FEE = { amountMinor: 2000, currency: 'EUR', validFrom: '2026-01-01', validUntil: null, marginBp: 250 };
const RATES: EcbRate[] = [
  { currency: 'GBP', day: '2027-02-26', perEur: '0.8512' },
  { currency: 'SEK', day: '2027-02-26', perEur: '11.2065' },
];

interface Filter {
  cabinetId?: string;
  clientCode?: string;
  office?: string;
  origin?: string;
  whatIf?: number;
  scope?: { cabinetIds: string[]; codes: string[] };
}

/** The expected figures, straight from the engine: each patent's newest record, its unpaid annuities as of today. */
function expected(f: Fixture, filter: Filter, period: (payDay: string) => string | null, cabinetA?: string): Sums {
  const rates = new Map(RATES.map((r) => [r.currency, [r]]));
  const today = parseIsoDate(TODAY)!;
  const heads = new Map<string, Seed & { key: string }>();
  for (const r of f.records) {
    const key = r.idbrevet ?? `record:${r.idagenda}`;
    const held = heads.get(key);
    if (!held || (r.quantieme ?? -1) > (held.quantieme ?? -1)) heads.set(key, { ...r, key });
  }
  const dropFrom = new Map<string, number>();
  const paid = new Set<string>();
  for (const l of f.ledger) {
    if (l.state === 'paid' || l.state === 'confirmed') paid.add(`${l.patentKey}|${l.annuityYear}`);
    else dropFrom.set(l.patentKey, Math.min(dropFrom.get(l.patentKey) ?? Infinity, l.annuityYear));
  }
  for (const r of f.records) {
    if (r.instructionId === 2) {
      const key = r.idbrevet ?? `record:${r.idagenda}`;
      dropFrom.set(key, Math.min(dropFrom.get(key) ?? Infinity, r.quantieme ?? 0));
    }
  }
  const sums: Sums = new Map();
  for (const h of heads.values()) {
    if (filter.cabinetId && h.cabinetId !== filter.cabinetId) continue;
    if (filter.clientCode && h.clientCode !== filter.clientCode) continue;
    if (filter.scope && !filter.scope.cabinetIds.includes(h.cabinetId!) && !filter.scope.codes.includes(h.clientCode!)) continue;
    const office = h.pays as Office;
    const lastPaid = h.quantieme != null && h.quantieme >= 1 ? h.quantieme - 1 : null;
    const s = computeSchedule({ office, origin: originOf(office, h.origine ?? null), filing: parseIsoDate(h.dateDepot!)!, lastPaid }, today);
    if (!s.ok || s.value.lapsed || s.value.next === null) continue;
    if (filter.origin && s.value.origin !== filter.origin) continue;
    for (const a of s.value.annuities) {
      if (a.number < s.value.next.number) continue;
      if (a.number >= (dropFrom.get(h.key) ?? Infinity) || paid.has(`${h.key}|${a.number}`)) continue;
      if (filter.whatIf !== undefined && a.number > filter.whatIf) continue;
      if (filter.office && a.office !== filter.office) continue;
      const key = period(formatIsoDate(a.paymentDay));
      if (key === null) continue;
      const id = `${key}|${a.office}|${a.currency}`;
      const sum = sums.get(id) ?? { official: 0, surcharge: 0, annuities: 0, eur: '' };
      sum.official += a.feeMinor ?? 0;
      sum.surcharge += surchargeOn(a, a.paymentDay) ?? 0;
      sum.annuities += 1;
      // Each part as the patent's detail prices it, summed per kind in euro cents.
      const cost = costBreakdown({
        annuity: a,
        agentFees: AGENT_FEES.filter((x) => (x.id === 'fr' ? a.office === 'FR' : a.office === 'GB')),
        serviceFees: cabinetA !== undefined && h.cabinetId === cabinetA ? [{ id: 'a', ...SERVICE_FEE }] : [],
        rates,
      });
      const kinds = ['official_fee', 'surcharge', 'agent_fee', 'service_fee', 'margin'] as const;
      const before = sum.eur === '' ? [0, 0, 0, 0, 0, 0] : sum.eur.split(',').map(Number);
      const now = kinds.map((k, i) => before[i]! + cost.parts.filter((x) => x.kind === k).reduce((n, x) => n + (x.eurMinor ?? 0), 0));
      sum.eur = [...now, before[5]! + (cost.parts.length > 0 && cost.totalEurMinor === null ? 1 : 0)].join(',');
      sums.set(id, sum);
    }
  }
  return sums;
}

const byYear = (payDay: string) => (YEARS.includes(Number(payDay.slice(0, 4))) ? payDay.slice(0, 4) : null);
const MONTHS = Array.from({ length: 12 }, (_, i) => `${2027 + Math.floor((2 + i) / 12)}-${String(((2 + i) % 12) + 1).padStart(2, '0')}`);
const byMonth = (payDay: string) => (MONTHS.includes(payDay.slice(0, 7)) ? payDay.slice(0, 7) : null);

/** The response's figures in the same shape (major units back to minor, exactly). */
function actual(periods: ForecastResponse['years']): Sums {
  const sums: Sums = new Map();
  for (const p of periods) {
    for (const o of p.offices) {
      expect(Math.round(o.total * 100)).toBe(Math.round(o.parts.official * 100) + Math.round(o.parts.surcharge * 100));
      const c = (v: number) => Math.round(v * 100);
      const e = o.eur;
      expect(c(e.total)).toBe(c(e.official) + c(e.surcharge) + c(e.agent_fee) + c(e.service_fee) + c(e.margin));
      sums.set(`${p.period}|${o.office}|${o.currency}`, {
        official: c(o.parts.official),
        surcharge: c(o.parts.surcharge),
        annuities: o.annuities,
        eur: [c(e.official), c(e.surcharge), c(e.agent_fee), c(e.service_fee), c(e.margin), e.unconverted].join(','),
      });
    }
  }
  return sums;
}

const sorted = (sums: Sums) => [...sums.entries()].sort(([a], [b]) => a.localeCompare(b));

describe.each(databaseKinds())('GET /api/forecast (%s)', (kind) => {
  let world: PatentWorld;
  let admin: TestClient;
  let agent: { client: TestClient; id: string };
  let data: Fixture;

  beforeAll(async () => {
    // The request path alone: no warm-up beside the tests that start the refresh themselves (decision 235, tested below).
    world = await startPatentWorld(kind, TODAY, 'Forecast', { FORECAST_WARMUP_EVERY_MS: '0' });
    const db0 = world.t.portal.ctx.db;
    await db0.insert(agentFees).values(AGENT_FEES.map((a) => ({ office: a.id === 'fr' ? 'FR' : 'GB', amountMinor: a.amountMinor, currency: a.currency, validFrom: a.validFrom })));
    await db0.insert(cabinetServiceFees).values({ cabinetId: world.cabinetA, ...SERVICE_FEE });
    await db0.insert(ecbRates).values(RATES);
    data = fixture(world.cabinetA, world.cabinetB);
    for (let i = 0; i < data.records.length; i += 250) await world.seed(data.records.slice(i, i + 250));
    // Records without idbrevet are keyed by their id: the fixture's keys follow.
    for (const l of data.ledger) await world.t.portal.ctx.db.insert(patentLedger).values({ patentKey: l.patentKey, annuityYear: l.annuityYear, state: l.state });
    for (const r of data.records) if (!r.idbrevet) r.idagenda = world.ids[r.idagenda]!;
    admin = (await world.t.loginAs('admin')).client;
    agent = await world.t.loginAs('user_agent_annuites');
    await world.t.portal.ctx.db.insert(userCabinets).values({ userId: agent.id, cabinetId: world.cabinetB });
    await world.t.portal.ctx.db.update(users).set({ code: ['CODE-2'] }).where(eq(users.id, agent.id));
  }, 240_000);
  afterAll(async () => world?.t.close());

  /** The answer once whole: an answer saying `updating` started the background refresh; once it has run, ask again. */
  const forecast = async (client: TestClient, query = '') => {
    let res = await client.get(`/api/forecast${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if ((res.body as ForecastResponse).updating) {
      await forecastRefreshSettled();
      res = await client.get(`/api/forecast${query}`);
    }
    expect((res.body as ForecastResponse).updating).toBe(false);
    return res.body as ForecastResponse;
  };

  it('every year and every month of the next 12 equal the sum of the engine’s per-patent schedules', async () => {
    const body = await forecast(admin);
    expect(body.today).toBe(TODAY);
    expect(body.years.map((y) => y.period)).toEqual(YEARS.map(String));
    expect(body.years[0]!.from).toBe(TODAY);
    expect(body.months.map((m) => m.period)).toEqual(MONTHS);
    const years = expected(data, {}, byYear, world.cabinetA);
    expect(sorted(actual(body.years))).toEqual(sorted(years));
    expect(sorted(actual(body.months))).toEqual(sorted(expected(data, {}, byMonth, world.cabinetA)));
    // The fixture reaches what it means to: offices in three currencies, surcharges in grace, drop-outs.
    expect(new Set(body.totals.map((t) => t.currency))).toEqual(new Set(['EUR', 'GBP', 'SEK']));
    expect([...years.values()].some((s) => s.surcharge > 0)).toBe(true);
    expect([...years.values()].reduce((n, s) => n + s.annuities, 0)).toBeGreaterThan(3_000);
    // Every part of the patent's detail is there in euros: agents' fees (GB's from 2028 only), service fees, margins, GBP and SEK converted.
    const gb = (period: string) => body.years.find((y) => y.period === period)!.offices.find((o) => o.office === 'GB')!;
    expect(gb('2027').eur.agent_fee).toBe(0);
    expect(gb('2028').eur.agent_fee).toBeGreaterThan(0);
    expect(gb('2028').eur.official).toBeGreaterThan(0);
    const eur = body.totals.find((t) => t.currency === 'EUR')!.eur;
    expect(eur.service_fee).toBeGreaterThan(0);
    expect(eur.margin).toBeGreaterThan(0);
    expect(body.totals.find((t) => t.currency === 'SEK')!.eur.official).toBeGreaterThan(0);
    // A period's euros, every currency together, are the sums of the engine's per-patent parts of the period; the
    // whole answer's, of the years'.
    const eurSums = (sums: Sums, prefix: string) => {
      const total = [0, 0, 0, 0, 0, 0];
      for (const [key, sum] of sums) if (key.startsWith(prefix)) sum.eur.split(',').forEach((v, i) => (total[i]! += Number(v)));
      return total;
    };
    const eurCents = (e: ForecastResponse['eur']) => [e.official, e.surcharge, e.agent_fee, e.service_fee, e.margin].map((v) => Math.round(v * 100)).concat(e.unconverted);
    for (const y of body.years) expect(eurCents(y.eur), y.period).toEqual(eurSums(years, `${y.period}|`));
    const months = expected(data, {}, byMonth, world.cabinetA);
    for (const m of body.months) expect(eurCents(m.eur), m.period).toEqual(eurSums(months, `${m.period}|`));
    expect(eurCents(body.eur)).toEqual(eurSums(years, ''));
    expect(Math.round(body.eur.total * 100)).toBe(eurCents(body.eur).slice(0, 5).reduce((n, v) => n + v, 0));
    expect(body.eur.agent_fee).toBeGreaterThan(0);
    // Totals per currency are the sums of the years'.
    for (const t of body.totals) {
      const official = body.years.flatMap((y) => y.offices).filter((o) => o.currency === t.currency).reduce((n, o) => n + Math.round(o.parts.official * 100), 0);
      expect(Math.round(t.parts.official * 100)).toBe(official);
    }
  });

  it('the filters, the what-if and an agent’s scope give the engine’s sums of the patents they keep', async () => {
    const cases: Array<[string, Filter]> = [
      [`?cabinet=${world.cabinetB}`, { cabinetId: world.cabinetB }],
      ['?client_code=CODE-3', { clientCode: 'CODE-3' }],
      ['?office=FR', { office: 'FR' }],
      ['?origin=ep_validated', { origin: 'ep_validated' }],
      ['?origin=unitary&years=2', { origin: 'unitary' }],
      ['?abandon_older_than=10', { whatIf: 10 }],
    ];
    for (const [query, filter] of cases) {
      const body = await forecast(admin, query);
      const years = query.includes('years=2') ? (d: string) => (['2027', '2028'].includes(d.slice(0, 4)) ? d.slice(0, 4) : null) : byYear;
      expect(sorted(actual(body.years)), query).toEqual(sorted(expected(data, filter, years, world.cabinetA)));
    }
    const all = await forecast(admin);
    const whatIf = await forecast(admin, '?abandon_older_than=10');
    expect(whatIf.abandon_older_than).toBe(10);
    expect(whatIf.totals.find((t) => t.currency === 'EUR')!.total).toBeLessThan(all.totals.find((t) => t.currency === 'EUR')!.total);
    const mine = await forecast(agent.client);
    expect(sorted(actual(mine.years))).toEqual(sorted(expected(data, { scope: { cabinetIds: [world.cabinetB], codes: ['CODE-2'] } }, byYear, world.cabinetA)));
  });

  it('a change of a patent shows once the background lane has rebuilt it: a "do not pay", a new annuity number, a deleted record, a ledger year', async () => {
    const db = world.t.portal.ctx.db;
    const target = data.records.find((r) => r.idbrevet && r.quantieme != null && r.instructionId == null && r.pays === 'FR' && !data.records.some((o) => o !== r && o.idbrevet === r.idbrevet))!;
    await db.update(patentRecords).set({ instructionId: 2 }).where(eq(patentRecords.idagenda, target.idagenda));
    target.instructionId = 2;
    expect(sorted(actual((await forecast(admin)).years))).toEqual(sorted(expected(data, {}, byYear, world.cabinetA)));
    // A ledger year abandoned names the patent too (its years from there drop out).
    const ledgered = data.records.find((r) => r.idbrevet && r.quantieme != null && r.instructionId == null && r.pays === 'DE' && !data.ledger.some((l) => l.patentKey === r.idbrevet) && !data.records.some((o) => o !== r && o.idbrevet === r.idbrevet))!;
    await db.insert(patentLedger).values({ patentKey: ledgered.idbrevet!, annuityYear: ledgered.quantieme! + 1, state: 'abandoned' });
    data.ledger.push({ patentKey: ledgered.idbrevet!, annuityYear: ledgered.quantieme! + 1, state: 'abandoned' });
    expect(await forecastHasDirty(db)).toBe(true);
    expect(sorted(actual((await forecast(admin)).years))).toEqual(sorted(expected(data, {}, byYear, world.cabinetA)));
    const other = data.records.find((r) => r.idbrevet && r.quantieme != null && r.quantieme < 15 && r.instructionId == null && r.pays === 'DE' && !data.records.some((o) => o !== r && o.idbrevet === r.idbrevet))!;
    await db.update(patentRecords).set({ quantieme: other.quantieme! + 1 }).where(eq(patentRecords.idagenda, other.idagenda));
    other.quantieme = other.quantieme! + 1;
    const gone = data.records.find((r) => r.idbrevet && r.pays === 'SE' && !data.records.some((o) => o !== r && o.idbrevet === r.idbrevet))!;
    await db.delete(patentRecords).where(eq(patentRecords.idagenda, gone.idagenda));
    data.records = data.records.filter((r) => r !== gone);
    expect(sorted(actual((await forecast(admin)).years))).toEqual(sorted(expected(data, {}, byYear, world.cabinetA)));
  });

  it('an answer says updating for the patents it keeps only: a change elsewhere leaves an agent’s or a cabinet’s figures whole (decision 239)', async () => {
    const db = world.t.portal.ctx.db;
    const mine: PatentScope = { kind: 'owned', cabinetIds: [world.cabinetB], codes: ['CODE-2'] };
    const updating = async (scope: PatentScope, query: Record<string, string> = {}) => (await computeForecast(db, scope, forecastQuery.parse(query), TODAY)).updating;
    const name = async (...keys: string[]) => {
      for (const key of keys) await db.execute(sql`insert into patent_forecast_dirty (patent_key) values (${key}) on conflict do nothing`);
    };
    const inScope = (r: Seed) => r.cabinetId === world.cabinetB || r.clientCode === 'CODE-2';
    const single = (r: Seed) => !!r.idbrevet && !data.records.some((o) => o !== r && o.idbrevet === r.idbrevet);
    await forecast(admin);

    // Another cabinet's patent waits for its rows: the agent's figures and cabinet B's are whole, the whole portfolio's and cabinet A's are not.
    const elsewhere = data.records.find((r) => single(r) && !inScope(r))!;
    await name(elsewhere.idbrevet!);
    expect(await updating(mine)).toBe(false);
    const res = await agent.client.get('/api/forecast');
    expect(res.status).toBe(200);
    expect((res.body as ForecastResponse).updating).toBe(false);
    expect(await updating({ kind: 'all' }, { cabinet: world.cabinetB })).toBe(false);
    expect(await updating({ kind: 'all' }, { cabinet: world.cabinetA })).toBe(true);
    expect(await updating({ kind: 'all' })).toBe(true);
    await forecast(admin);

    // One of its own, by its patent number and by its record (a record without one).
    await name(data.records.find((r) => single(r) && r.cabinetId === world.cabinetB)!.idbrevet!);
    expect(await updating(mine)).toBe(true);
    await forecast(admin);
    const [keyed] = rowsOf<{ id: string }>(await db.execute(sql`select id from patent_records where idbrevet is null and cabinet_id = ${world.cabinetB}::uuid limit 1`));
    await name(`record:${keyed!.id}`);
    expect(await updating(mine)).toBe(true);
    await forecast(admin);

    // A patent leaving the agent's scope (its stored rows are the agent's until rebuilt), and one coming in (its record is).
    const leaving = data.records.find((r) => single(r) && r.cabinetId === world.cabinetB && r.clientCode !== 'CODE-2')!;
    await db.update(patentRecords).set({ cabinetId: world.cabinetA }).where(eq(patentRecords.idagenda, leaving.idagenda));
    leaving.cabinetId = world.cabinetA;
    expect(await updating(mine)).toBe(true);
    const after = await forecast(agent.client);
    expect(sorted(actual(after.years))).toEqual(sorted(expected(data, { scope: { cabinetIds: [world.cabinetB], codes: ['CODE-2'] } }, byYear, world.cabinetA)));
    const coming = data.records.find((r) => single(r) && !inScope(r))!;
    await db.update(patentRecords).set({ clientCode: 'CODE-2' }).where(eq(patentRecords.idagenda, coming.idagenda));
    coming.clientCode = 'CODE-2';
    expect(await updating(mine)).toBe(true);
    await forecast(admin);

    // Past one batch of names (an import, a change of the fee tables), every answer says updating until they are fewer.
    await name(...Array.from({ length: FORECAST_SCOPED_DIRTY_MAX + 1 }, (_, i) => `bulk-${i}`));
    expect(await updating(mine)).toBe(true);
    await forecast(admin);
    expect(await updating(mine)).toBe(false);
    expect(sorted(actual((await forecast(agent.client)).years))).toEqual(sorted(expected(data, { scope: { cabinetIds: [world.cabinetB], codes: ['CODE-2'] } }, byYear, world.cabinetA)));
  });

  it('the request never rebuilds: after a bulk change it answers at once from the stored figures, says updating, and the export waits for the background lane (refused only past its wait)', async () => {
    const db = world.t.portal.ctx.db;
    const before = await forecast(admin);
    // What an import of the whole portfolio leaves: every patent named for a rebuild.
    await db.execute(sql`insert into patent_forecast_dirty (patent_key) select distinct coalesce(nullif(idbrevet, ''), 'record:' || id::text) from patent_records on conflict do nothing`);
    const partial = await computeForecast(db, { kind: 'all' }, forecastQuery.parse({}), TODAY);
    expect(partial.updating).toBe(true);
    // Nothing was rebuilt by the request: every patent is still named, the figures are those stored before.
    expect(Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from patent_forecast_dirty`))[0]!.n)).toBe(Number(rowsOf<{ n: number }>(await db.execute(sql`select count(distinct coalesce(nullif(idbrevet, ''), 'record:' || id::text))::int as n from patent_records`))[0]!.n));
    expect(sorted(actual(partial.years))).toEqual(sorted(actual(before.years)));
    // An export past its wait is refused, never written from partial figures.
    await expect(wholeForecast(db, { kind: 'all' }, forecastQuery.parse({}), TODAY, world.t.portal.ctx.logger, 0)).rejects.toMatchObject({ code: 'forecast_updating' });
    await forecastRefreshSettled();
    await db.execute(sql`insert into patent_forecast_dirty (patent_key) select distinct coalesce(nullif(idbrevet, ''), 'record:' || id::text) from patent_records on conflict do nothing`);
    // Within its wait, the export starts the rebuild, waits for it, and writes the whole figures (another user's edit
    // elsewhere does not refuse a user's file).
    const res = await admin.get('/api/forecast/export?format=csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await forecastHasDirty(db)).toBe(false);
    const after = await forecast(admin);
    expect(after.updating).toBe(false);
    expect(sorted(actual(after.years))).toEqual(sorted(expected(data, {}, byYear, world.cabinetA)));
    // The file holds the rebuilt figures, not those stored before the change.
    expect(res.text.replace(/^\uFEFF/, '')).toBe(forecastCsv(exportLines(after)).replace(/^\uFEFF/, ''));
  });

  it('a new day rebuilds the special patents’ stored parts in the background: until then the answer says updating', async () => {
    const db = world.t.portal.ctx.db;
    await forecast(admin);
    expect(await forecastLiveDay(db)).toBe(TODAY);
    const tomorrow = '2027-03-02';
    expect((await computeForecast(db, { kind: 'all' }, forecastQuery.parse({}), tomorrow)).updating).toBe(true);
    refreshInBackground(db, tomorrow, world.t.portal.ctx.logger);
    await forecastRefreshSettled();
    expect(await forecastLiveDay(db)).toBe(tomorrow);
    expect((await computeForecast(db, { kind: 'all' }, forecastQuery.parse({}), tomorrow)).updating).toBe(false);
    // Back to the fixture's day for the tests after this one.
    refreshInBackground(db, TODAY, world.t.portal.ctx.logger);
    await forecastRefreshSettled();
    expect(await forecastLiveDay(db)).toBe(TODAY);
  });

  it('the exports, CSV and xlsx, hold every figure of the answer with its parts', async () => {
    const body = await forecast(admin, '?office=GB');
    type Fig = ForecastResponse['totals'][number];
    const euros = (e: ForecastResponse['eur']) => [e.official, e.surcharge, e.agent_fee, e.service_fee, e.margin, e.total, e.unconverted];
    const eurOf = (f: Fig) => euros(f.eur);
    // After each period's totals per currency, its line `all`: every currency together, in euros only (as on screen).
    const allLine = (kind: string, period: string, p: { totals: Fig[]; eur: ForecastResponse['eur'] }) => (p.totals.length > 0 ? [[kind, period, 'all', '', null, null, null, ...euros(p.eur)]] : []);
    const expectedLines = [
      ...body.years.flatMap((y) => [...y.offices.map((o) => ['year', y.period, o.office, o.currency, o.parts.official, o.parts.surcharge, o.total, ...eurOf(o)]), ...y.totals.map((t) => ['year', y.period, 'total', t.currency, t.parts.official, t.parts.surcharge, t.total, ...eurOf(t)]), ...allLine('year', y.period, y)]),
      ...body.months.flatMap((m) => [...m.offices.map((o) => ['month', m.period, o.office, o.currency, o.parts.official, o.parts.surcharge, o.total, ...eurOf(o)]), ...m.totals.map((t) => ['month', m.period, 'total', t.currency, t.parts.official, t.parts.surcharge, t.total, ...eurOf(t)]), ...allLine('month', m.period, m)]),
      ...body.totals.map((t) => ['all', 'all', 'total', t.currency, t.parts.official, t.parts.surcharge, t.total, ...eurOf(t)]),
      ...allLine('all', 'all', body),
    ];
    expect(expectedLines.filter((l) => l[2] === 'all').length).toBeGreaterThan(5);
    // Each part of the patent's detail is a column in euros: GB's agent's fee (from 2028) among them.
    expect(expectedLines.some((l) => Number(l[9]) > 0)).toBe(true);
    expect(expectedLines.some((l) => Number(l[5]) > 0)).toBe(true);
    const csv = await admin.get('/api/forecast/export?office=GB&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="forecast-${TODAY}.csv"`);
    const [header, ...lines] = csv.text.trim().split('\r\n').map((l) => l.split(';'));
    expect(header).toEqual([...FORECAST_EXPORT_COLUMNS]);
    expect(lines.map((l) => [l[0], l[1], l[4], l[5], ...[6, 7, 8, 10, 11, 12, 13, 14, 15, 16].map((i) => (l[i] === '' ? null : Number(l[i])))])).toEqual(expectedLines);
    // The line `all` counts the annuities of every currency of its period.
    const annuitiesOf = (kind: string, period: string, office: string) => lines.filter((l) => l[0] === kind && l[1] === period && l[4] === office).reduce((n, l) => n + Number(l[9]), 0);
    for (const y of body.years.filter((p) => p.totals.length > 0)) expect(annuitiesOf('year', y.period, 'all')).toBe(annuitiesOf('year', y.period, 'total'));
    const res = await fetch(`${(admin as unknown as { baseUrl: string }).baseUrl}/api/forecast/export?office=GB`, {
      headers: { cookie: admin.cookieHeader(), 'x-api-key': (admin as unknown as { options: { apiKey: string } }).options.apiKey },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...FORECAST_EXPORT_COLUMNS]);
    const rows: unknown[][] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) {
        const v = (row.values as unknown[]).slice(1);
        // An empty cell reads as undefined: the currency of a line `all` is '', its amounts in an office's currency none.
        rows.push([v[0], v[1], v[4], v[5] ?? '', v[6] ?? null, v[7] ?? null, v[8] ?? null, v[10], v[11], v[12], v[13], v[14], v[15], v[16]]);
      }
    });
    expect(rows).toEqual(expectedLines);
  });

  it('bad input is a translated 400; a user without the annuities roles is refused', async () => {
    for (const query of ['?years=0', '?years=6', '?office=XX', '?origin=up', '?cabinet=nope', '?abandon_older_than=0', '?foo=1', '/export?format=pdf']) {
      const res = await admin.get(`/api/forecast${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const ledes = await world.t.loginAs('user_agent_ledes');
    expect((await ledes.client.get('/api/forecast')).status).toBe(403);
  });
});

describe.each(databaseKinds())('the forecast’s warm-up (%s)', (kind) => {
  let world: PatentWorld;
  afterAll(async () => world?.t.close());

  const until = async (what: string, done: () => Promise<boolean>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`still not ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('the API rebuilds the forecast after start, after a change and on a new day, before anyone asks (decision 235)', async () => {
    world = await startPatentWorld(kind, TODAY, 'Warm-up', { FORECAST_WARMUP_EVERY_MS: '300' });
    const db = world.t.portal.ctx.db;
    const data = fixture(world.cabinetA, world.cabinetB);
    await world.seed(data.records.slice(0, 100));
    // No request asked: the warm-up found the new patents named and the day not built, and rebuilt both.
    await until('warm', async () => (await forecastLiveDay(db)) === TODAY && !(await forecastHasDirty(db)));
    const admin = (await world.t.loginAs('admin')).client;
    const first = await admin.get('/api/forecast');
    expect(first.status).toBe(200);
    expect((first.body as ForecastResponse).updating).toBe(false);
    // A new day: the special patents' parts are rebuilt for it, again before anyone asks.
    world.t.clock.advance(86_400_000);
    const tomorrow = formatIsoDate(addDays(parseIsoDate(TODAY)!, 1));
    await until('rebuilt for the new day', async () => (await forecastLiveDay(db)) === tomorrow);
    await forecastRefreshSettled();
    // (The admin's session did not outlive the day: the service answers.)
    expect((await computeForecast(db, { kind: 'all' }, forecastQuery.parse({}), tomorrow)).updating).toBe(false);
  }, 120_000);
});
