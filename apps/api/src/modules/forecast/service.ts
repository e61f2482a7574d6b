import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import { dayFromYmd, formatIsoDate, monthEnd, parseIsoDate, ymdFromDay } from '@portal/annuities/core';
import { FORECAST_MAX_YEARS, FORECAST_OFFICES, type ForecastEur, type ForecastFigure, type ForecastPeriod, type ForecastQuery, type ForecastResponse } from '@portal/contracts';
import { inBackgroundLane, type Database } from '@portal/db';
import { forecastNeedsRefresh, refreshForecast, rowsOf, type EurParts, type ForecastAudience } from '@portal/jobs';
import type { Logger } from '@portal/logger';
import { AppError } from '../../domain/errors.ts';
import type { PatentScope } from '../patents/index.ts';

/*
 * The renewal budget (issue 30 §2, decision 201), aggregated on the server from the schedule rows kept with each patent
 * (`patent_forecast_rows`): one grouped scan of the window's rows by office, currency and month, plus the engine run live
 * for the few patents whose first unpaid annuity is already due (its fee on today, its surcharge when in grace).
 * Drop out at once: years abandoned or lapsed in the ledger and "do not pay" instructions (that year and every later one),
 * years the ledger has paid (that year), and with the what-if every annuity above the given number.
 */

/** A figure's cost parts in euro cents, as the rows store them (decision 217). */
type Eur = EurParts;

interface Bucket extends Eur {
  officialMinor: number;
  surchargeMinor: number;
  annuities: number;
}

const EUR_ZERO: Eur = { official: 0, surcharge: 0, agentFee: 0, serviceFee: 0, margin: 0, unconverted: 0 };
const addEur = (to: Eur, from: Eur, sign = 1) => {
  to.official += sign * from.official;
  to.surcharge += sign * from.surcharge;
  to.agentFee += sign * from.agentFee;
  to.serviceFee += sign * from.serviceFee;
  to.margin += sign * from.margin;
  to.unconverted += sign * from.unconverted;
};
/** Euro cents to the wire's euros, with the total of the parts. */
const eurWire = (e: Eur): ForecastEur => ({
  official: major(e.official),
  surcharge: major(e.surcharge),
  agent_fee: major(e.agentFee),
  service_fee: major(e.serviceFee),
  margin: major(e.margin),
  total: major(e.official + e.surcharge + e.agentFee + e.serviceFee + e.margin),
  unconverted: e.unconverted,
});

const keyOf = (month: number, office: string, currency: string) => `${month}|${office}|${currency}`;
const monthOf = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
const monthLabel = (m: number) => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
const monthFirst = (m: number) => `${monthLabel(m)}-01`;
const monthLast = (m: number) => formatIsoDate(monthEnd(m));
const major = (minor: number) => minor / 100;
/** The euro parts every forecast query sums the same way (after `e_official`, `e_surcharge`). */
const EUR_REST = sql`sum(agent_fee_eur)::text as e_agent, sum(service_fee_eur)::text as e_service, sum(margin_eur)::text as e_margin, sum(unconverted)::text as e_unconverted`;

/**
 * The reader's scope and the cabinet and client filters, on the `cabinet_id` and `client_code` of the table aliased
 * `alias`: the stored rows the answer sums (`f`), and the tables its `updating` looks at (decision 239).
 */
function holderConditions(scope: PatentScope, query: ForecastQuery, alias: string): SQL[] {
  const a = sql.raw(alias);
  const where: SQL[] = [];
  if (scope.kind === 'owned') where.push(sql`(${a}.cabinet_id = any(${sql.param(scope.cabinetIds)}::uuid[]) or ${a}.client_code = any(${sql.param(scope.codes)}::text[]))`);
  if (query.cabinet !== undefined) where.push(sql`${a}.cabinet_id = ${query.cabinet}::uuid`);
  if (query.client_code !== undefined) where.push(sql`${a}.client_code = ${query.client_code}`);
  return where;
}

/** The filters and the scope as conditions on the rows `f`. */
function conditions(scope: PatentScope, query: ForecastQuery): SQL[] {
  const where = holderConditions(scope, query, 'f');
  if (query.office !== undefined) where.push(sql`f.office = ${query.office}`);
  if (query.origin !== undefined) where.push(sql`f.origin = ${query.origin}`);
  if (query.abandon_older_than !== undefined) where.push(sql`f.annuity_year <= ${query.abandon_older_than}`);
  return where;
}

/**
 * The patents an answer keeps by cabinet and client code, for its `updating` (decision 239); undefined: every patent.
 * The office, origin and what-if filters are left out: a superset.
 */
function audienceOf(scope: PatentScope, query: ForecastQuery): ForecastAudience | undefined {
  const where = (alias: string) => holderConditions(scope, query, alias);
  if (where('f').length === 0) return undefined;
  return (alias) => sql.join(where(alias), sql` and `);
}

let background: Promise<void> | null = null;

/**
 * The forecast's rebuild, off the request path (decision 216): the rows of every changed patent, the rows kept through a
 * day before the longest window's end, and once a day the special patents' live rows. One at a time in this process, in
 * the database's background lane (decision 185), so requests go first; started by a request that found the figures not
 * whole (it answers `updating`). Other API replicas may run theirs at once: the batches take their patents with SKIP
 * LOCKED and the live rows are written under one advisory lock.
 */
export function refreshInBackground(db: Database, todayIso: string, logger: Logger): void {
  if (background) return;
  const needThrough = needThroughOf(todayIso);
  background = inBackgroundLane(() => refreshForecast(db, todayIso, { needThrough }))
    .then((rebuilt) => logger.info({ event: 'forecast_refreshed', rebuilt }, 'forecast rows rebuilt in the background'))
    .catch((err: unknown) => logger.error({ err, event: 'forecast_refresh_failed' }, 'forecast refresh failed; the next request tries again'))
    .finally(() => {
      background = null;
    });
}

/** The last day the stored rows must reach: the end of the longest window asked on `todayIso`. */
const needThroughOf = (todayIso: string) => `${Number(todayIso.slice(0, 4)) + FORECAST_MAX_YEARS - 1}-12-31`;

/**
 * Starts the background refresh when the forecast is not whole for `todayIso` (a new day, patents named, rows stored
 * through too early a day), as a request would (the warm-up's check, decision 235). Resolves once checked.
 */
export async function refreshForecastIfNeeded(db: Database, todayIso: string, logger: Logger): Promise<void> {
  if (background) return;
  if (await forecastNeedsRefresh(db, todayIso, needThroughOf(todayIso))) refreshInBackground(db, todayIso, logger);
}

/** Settles when the background refresh under way (if any) has ended (tests, shutdown). */
export function forecastRefreshSettled(): Promise<void> {
  return background ?? Promise.resolve();
}

/**
 * How long an export waits for the background rebuild when it finds the figures not whole (a patent among the answer's
 * changed, a new day: decision 239) before it answers `forecast_updating`: a file is never written from figures the screen would call partial, and
 * a rebuild of a few patents takes milliseconds, so an export asked while another user edits is not refused (decision 237).
 */
export const FORECAST_EXPORT_WAIT_MS = 20_000;
/** The pause between two looks when the rebuild under way is another process's (its batches are SKIP LOCKED here). */
const EXPORT_RECHECK_MS = 100;

/**
 * The forecast whole for `todayIso`: computed, and while it says `updating`, the background rebuild started and awaited,
 * then computed again, until `waitMs` has passed (then `forecast_updating`, 409).
 */
export async function wholeForecast(
  db: Database,
  scope: PatentScope,
  query: ForecastQuery,
  todayIso: string,
  logger: Logger,
  waitMs = FORECAST_EXPORT_WAIT_MS,
): Promise<Omit<ForecastResponse, 'success'>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const forecast = await computeForecast(db, scope, query, todayIso);
    if (!forecast.updating) return forecast;
    refreshInBackground(db, todayIso, logger);
    const left = deadline - Date.now();
    if (left <= 0) throw new AppError('forecast_updating');
    // This process's rebuild, then a short pause before the next look (another process's batches may hold the rest),
    // or the deadline. The timers hold no process open.
    await Promise.race([forecastRefreshSettled().then(() => sleep(EXPORT_RECHECK_MS, undefined, { ref: false })), sleep(left, undefined, { ref: false })]);
  }
}

export async function computeForecast(db: Database, scope: PatentScope, query: ForecastQuery, todayIso: string): Promise<Omit<ForecastResponse, 'success'>> {
  const today = parseIsoDate(todayIso);
  if (today === null) throw new Error(`computeForecast: invalid day ${todayIso}`);
  const year = ymdFromDay(today).year;
  const firstMonth = monthOf(todayIso);
  const lastYear = year + query.years - 1;
  const yearsEnd = formatIsoDate(dayFromYmd(lastYear, 12, 31));
  const monthsEnd = monthLast(firstMonth + 11);
  const end = yearsEnd > monthsEnd ? yearsEnd : monthsEnd;
  const whatIf = query.abandon_older_than ?? null;

  // The request reads what is stored and never rebuilds (decision 216): patents of the answer's (decision 239) changed since their rows were written, rows
  // kept through a day before the window's end, or special patents stored for another day make the answer `updating`
  // (the caller starts the background refresh) with the figures stored before.
  const updating = await forecastNeedsRefresh(db, todayIso, end, audienceOf(scope, query));

  const buckets = new Map<string, Bucket>();
  let unpriced = 0;
  const add = (month: number, office: string, currency: string, official: number, surcharge: number, annuities: number, eur: Eur) => {
    const key = keyOf(month, office, currency);
    const b = buckets.get(key) ?? { ...EUR_ZERO, officialMinor: 0, surchargeMinor: 0, annuities: 0 };
    b.officialMinor += official;
    b.surchargeMinor += surcharge;
    b.annuities += annuities;
    addEur(b, eur);
    buckets.set(key, b);
  };

  if (scope.kind === 'owned' && scope.cabinetIds.length + scope.codes.length === 0) return build();
  const where = conditions(scope, query);
  const filters = where.length === 0 ? sql`` : sql` and ${sql.join(where, sql` and `)}`;
  type Group = { office: string; currency: string; m: number; official: string; surcharge: string; n: number; unpriced: number; e_official: string; e_surcharge: string; e_agent: string; e_service: string; e_margin: string; e_unconverted: string };
  const addGroups = (groups: readonly Group[]) => {
    for (const g of groups) {
      const eur = { official: Number(g.e_official), surcharge: Number(g.e_surcharge), agentFee: Number(g.e_agent), serviceFee: Number(g.e_service), margin: Number(g.e_margin), unconverted: Number(g.e_unconverted) };
      add(Number(g.m), g.office, g.currency, Number(g.official), Number(g.surcharge), Number(g.n), eur);
      if (Number(g.m) <= monthOf(yearsEnd)) unpriced += Number(g.unpriced);
    }
  };
  const read = async (query: SQL) => addGroups(rowsOf<Group>(await db.execute(query)));
  const lastMonth = monthOf(end);
  // The special patents' correction (their engine parts in, their stored rows out), as of today.
  const live = (table: SQL, extra: SQL) => sql`
    select office, currency, month as m, sum(official_minor)::text as official, sum(surcharge_minor)::text as surcharge, sum(annuities)::int as n, sum(unpriced)::int as unpriced,
      sum(official_eur)::text as e_official, sum(surcharge_eur)::text as e_surcharge, ${EUR_REST}
    from ${table} where month <= ${lastMonth}${extra}
    group by 1, 2, 3`;
  if (query.cabinet === undefined && query.client_code === undefined && scope.kind === 'all') {
    // The whole portfolio (by office, origin, what-if): the month sums after this month, this month's rows due after
    // today, and the special patents' summed correction.
    const sumsWhere: SQL[] = [];
    if (query.office !== undefined) sumsWhere.push(sql`office = ${query.office}`);
    if (query.origin !== undefined) sumsWhere.push(sql`origin = ${query.origin}`);
    if (whatIf !== null) sumsWhere.push(sql`annuity_year <= ${whatIf}`);
    const extra = sumsWhere.length === 0 ? sql`` : sql` and ${sql.join(sumsWhere, sql` and `)}`;
    await read(sql`
      select office, currency, month as m, sum(official_minor)::text as official, '0' as surcharge, sum(annuities)::int as n, sum(unpriced)::int as unpriced,
        sum(official_eur)::text as e_official, '0' as e_surcharge, ${EUR_REST}
      from patent_forecast_sums where month > ${firstMonth} and month <= ${lastMonth}${extra}
      group by 1, 2, 3`);
    await read(sql`
      select f.office, f.currency, ${firstMonth}::int as m, coalesce(sum(f.official_minor), 0)::text as official, '0' as surcharge, count(*)::int as n, (count(*) - count(f.official_minor))::int as unpriced,
        sum(f.official_eur)::text as e_official, '0' as e_surcharge, ${EUR_REST}
      from patent_forecast_rows f
      where f.due_date > ${todayIso}::date and f.due_date <= ${monthLast(firstMonth)}::date${filters}
      group by 1, 2`);
    await read(live(sql`patent_forecast_live_sums`, extra));
  } else {
    // A cabinet, a client code or an agent's scope: the rows of its patents due after today and their correction.
    await read(sql`
      select f.office, f.currency, (extract(year from f.due_date)::int * 12 + extract(month from f.due_date)::int - 1) as m,
        coalesce(sum(f.official_minor), 0)::text as official, '0' as surcharge, count(*)::int as n, (count(*) - count(f.official_minor))::int as unpriced,
        sum(f.official_eur)::text as e_official, '0' as e_surcharge, ${EUR_REST}
      from patent_forecast_rows f
      where f.due_date > ${todayIso}::date and f.due_date <= ${end}::date${filters}
      group by 1, 2, 3`);
    await read(live(sql`patent_forecast_live f`, filters));
  }
  return build();

  function build(): Omit<ForecastResponse, 'success'> {
    const period = (label: string, from: string, to: string, months: (m: number) => boolean): ForecastPeriod => {
      const perOffice = new Map<string, { office: string; currency: string; official: number; surcharge: number; annuities: number; eur: Eur }>();
      for (const [key, b] of buckets) {
        const [m, office, currency] = key.split('|') as [string, string, string];
        // A bucket the special patents emptied (their rows taken back out of the sums) is no figure.
        if (!months(Number(m)) || b.annuities === 0) continue;
        const id = `${office}|${currency}`;
        const f = perOffice.get(id) ?? { office, currency, official: 0, surcharge: 0, annuities: 0, eur: { ...EUR_ZERO } };
        f.official += b.officialMinor;
        f.surcharge += b.surchargeMinor;
        f.annuities += b.annuities;
        addEur(f.eur, b);
        perOffice.set(id, f);
      }
      const offices = [...perOffice.values()]
        .sort((a, b) => officeRank(a.office) - officeRank(b.office) || a.currency.localeCompare(b.currency))
        .map((f) => ({ office: f.office, currency: f.currency, total: major(f.official + f.surcharge), parts: { official: major(f.official), surcharge: major(f.surcharge) }, eur: eurWire(f.eur), annuities: f.annuities }));
      return { period: label, from, to, offices, totals: totalsOf(offices), eur: eurOf(offices) };
    };
    const years: ForecastPeriod[] = [];
    for (let y = year; y <= lastYear; y++) {
      years.push(period(String(y), y === year ? todayIso : `${y}-01-01`, `${y}-12-31`, (m) => Math.floor(m / 12) === y));
    }
    const months: ForecastPeriod[] = [];
    for (let m = firstMonth; m < firstMonth + 12; m++) months.push(period(monthLabel(m), m === firstMonth ? todayIso : monthFirst(m), monthLast(m), (k) => k === m));
    const offices = [...new Set(years.flatMap((y) => y.offices.map((o) => o.office)))];
    const yearTotals = years.flatMap((y) => y.totals);
    return { today: todayIso, years, months, totals: totalsOf(yearTotals), eur: eurOf(yearTotals), offices, unpriced, abandon_older_than: whatIf, updating };
  }
}

const officeRank = (office: string) => {
  const i = (FORECAST_OFFICES as readonly string[]).indexOf(office);
  return i === -1 ? FORECAST_OFFICES.length : i;
};

const cents = (v: number) => Math.round(v * 100);
/** A figure's euro parts back in cents (the wire's euros are exact sums of cents). */
const eurCents = (e: ForecastEur): Eur => ({ official: cents(e.official), surcharge: cents(e.surcharge), agentFee: cents(e.agent_fee), serviceFee: cents(e.service_fee), margin: cents(e.margin), unconverted: e.unconverted });

/** The euro parts of figures of any currencies, summed in cents (exact). */
function eurOf(figures: readonly ForecastFigure[]): ForecastEur {
  const sum = { ...EUR_ZERO };
  for (const f of figures) addEur(sum, eurCents(f.eur));
  return eurWire(sum);
}

/** Totals per currency of figures in major units, summed in minor units (exact). */
function totalsOf(figures: readonly ForecastFigure[]): ForecastFigure[] {
  const per = new Map<string, { official: number; surcharge: number; annuities: number; eur: Eur }>();
  for (const f of figures) {
    const t = per.get(f.currency) ?? { official: 0, surcharge: 0, annuities: 0, eur: { ...EUR_ZERO } };
    t.official += cents(f.parts.official);
    t.surcharge += cents(f.parts.surcharge);
    t.annuities += f.annuities;
    addEur(t.eur, eurCents(f.eur));
    per.set(f.currency, t);
  }
  return [...per.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, t]) => ({ currency, total: major(t.official + t.surcharge), parts: { official: major(t.official), surcharge: major(t.surcharge) }, eur: eurWire(t.eur), annuities: t.annuities }));
}
