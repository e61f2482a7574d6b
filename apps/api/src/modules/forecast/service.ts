import { sql, type SQL } from 'drizzle-orm';
import { dayFromYmd, formatIsoDate, monthEnd, parseIsoDate, ymdFromDay } from '@portal/annuities/core';
import { FORECAST_OFFICES, type ForecastFigure, type ForecastOfficeFigure, type ForecastPeriod, type ForecastQuery, type ForecastResponse } from '@portal/contracts';
import { inBackgroundLane, type Database } from '@portal/db';
import { forecastHasDirty, liveParts, refreshForecast, rowsOf } from '@portal/jobs';
import type { Logger } from '@portal/logger';
import type { PatentScope } from '../patents/index.ts';

/*
 * The renewal budget (issue 30 §2, decision 201), aggregated on the server from the schedule rows kept with each patent
 * (`patent_forecast_rows`): one grouped scan of the window's rows by office, currency and month, plus the engine run live
 * for the few patents whose first unpaid annuity is already due (its fee on today, its surcharge when in grace).
 * Drop out at once: years abandoned or lapsed in the ledger and "do not pay" instructions (that year and every later one),
 * years the ledger has paid (that year), and with the what-if every annuity above the given number.
 */

interface Bucket {
  official: number;
  surcharge: number;
  annuities: number;
}

const DO_NOT_PAY = 2;
const keyOf = (month: number, office: string, currency: string) => `${month}|${office}|${currency}`;
const monthOf = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
const monthLabel = (m: number) => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
const monthFirst = (m: number) => `${monthLabel(m)}-01`;
const monthLast = (m: number) => formatIsoDate(monthEnd(m));
const major = (minor: number) => minor / 100;

/** The filters and the scope as conditions on the rows `f`. */
function conditions(scope: PatentScope, query: ForecastQuery): SQL[] {
  const where: SQL[] = [];
  if (scope.kind === 'owned') where.push(sql`(f.cabinet_id = any(${sql.param(scope.cabinetIds)}::uuid[]) or f.client_code = any(${sql.param(scope.codes)}::text[]))`);
  if (query.cabinet !== undefined) where.push(sql`f.cabinet_id = ${query.cabinet}::uuid`);
  if (query.client_code !== undefined) where.push(sql`f.client_code = ${query.client_code}`);
  if (query.office !== undefined) where.push(sql`f.office = ${query.office}`);
  if (query.origin !== undefined) where.push(sql`f.origin = ${query.origin}`);
  if (query.abandon_older_than !== undefined) where.push(sql`f.annuity_year <= ${query.abandon_older_than}`);
  return where;
}

/**
 * The patents read through the engine (`special`), every other one read from its stored rows: those whose record names
 * an annuity already due, those without one whose annuity due by today is still within its last day (the engine counts it
 * unpaid until then), and those the ledger or a "do not pay" instruction drops years of (few: one anti-join, then the
 * rules applied in code).
 */
export function specialCte(today: string): SQL {
  return sql`
    special as materialized (
      select patent_key from patent_forecast_rows where unpaid_known and first_due <= ${today}::date
      union
      select patent_key from patent_forecast_rows where due_date <= ${today}::date and grace_end >= ${today}::date
      union
      -- a ledger year counts only where rows are kept: a paid year among them, an abandoned or lapsed one before one
      select l.patent_key from patent_ledger l
      where l.state in ('abandoned', 'lapsed', 'paid', 'confirmed')
        and exists (
          select 1 from patent_forecast_rows f
          where f.patent_key = l.patent_key and (f.annuity_year = l.annuity_year or (l.state in ('abandoned', 'lapsed') and f.annuity_year > l.annuity_year))
        )
      union
      select coalesce(nullif(idbrevet, ''), 'record:' || id::text) from patent_records where has_instruction and instruction_id = ${DO_NOT_PAY}
    )`;
}

/** The ledger's and the instructions' drop-outs of some patents as a CTE (`ledger`, `drops`). */
function dropsCte(keys: readonly string[]): SQL {
  const onLedger = sql` and patent_key = any(${sql.param(keys)}::text[])`;
  const onRecords = sql` and coalesce(nullif(idbrevet, ''), 'record:' || id::text) = any(${sql.param(keys)}::text[])`;
  return sql`
    ledger as materialized (
      select patent_key, annuity_year, state from patent_ledger
      where state in ('abandoned', 'lapsed', 'paid', 'confirmed')${onLedger}
    ),
    drops as materialized (
      select patent_key, min(annuity_year) as from_year from (
        select patent_key, annuity_year from ledger where state in ('abandoned', 'lapsed')
        union all
        select coalesce(nullif(idbrevet, ''), 'record:' || id::text), coalesce(quantieme, 0) from patent_records
        where has_instruction and instruction_id = ${DO_NOT_PAY}${onRecords}
      ) d group by patent_key
    )`;
}

/**
 * The longest a request spends rebuilding the rows of changed patents before it answers. A few changes (an edit, an
 * instruction) take one batch; a bulk change (an import, the demo seed: 100,000 patents, two minutes) goes on in the
 * background (`refreshInBackground`) while the answer says `updating`.
 */
export const FORECAST_REQUEST_REFRESH_MS = 1_500;

export interface ForecastRefresh {
  /** Epoch ms past which the request stops rebuilding (default: now + FORECAST_REQUEST_REFRESH_MS). */
  deadline?: number;
  batch?: number;
}

let background: Promise<void> | null = null;

/**
 * Rebuilds every changed patent's rows after the request that found too many has answered: one at a time in this
 * process, in the database's background lane (decision 185), so requests go first. Other API replicas may run
 * theirs at once: the batches take their patents with SKIP LOCKED.
 */
export function refreshInBackground(db: Database, todayIso: string, logger: Logger): void {
  if (background) return;
  background = inBackgroundLane(() => refreshForecast(db, todayIso))
    .then((rebuilt) => logger.info({ event: 'forecast_refreshed', rebuilt }, 'forecast rows rebuilt in the background'))
    .catch((err: unknown) => logger.error({ err, event: 'forecast_refresh_failed' }, 'forecast refresh failed; the next request tries again'))
    .finally(() => {
      background = null;
    });
}

/** Settles when the background refresh under way (if any) has ended (tests, shutdown). */
export function forecastRefreshSettled(): Promise<void> {
  return background ?? Promise.resolve();
}

export async function computeForecast(db: Database, scope: PatentScope, query: ForecastQuery, todayIso: string, refresh: ForecastRefresh = {}): Promise<Omit<ForecastResponse, 'success'>> {
  const today = parseIsoDate(todayIso);
  if (today === null) throw new Error(`computeForecast: invalid day ${todayIso}`);
  const year = ymdFromDay(today).year;
  const firstMonth = monthOf(todayIso);
  const lastYear = year + query.years - 1;
  const yearsEnd = formatIsoDate(dayFromYmd(lastYear, 12, 31));
  const monthsEnd = monthLast(firstMonth + 11);
  const end = yearsEnd > monthsEnd ? yearsEnd : monthsEnd;
  const whatIf = query.abandon_older_than ?? null;

  // Patents changed since their rows were written are rebuilt first (usually none or a few). A bulk change is rebuilt
  // within the request's budget, the rest in the background: the answer then says `updating` (its figures are those
  // stored before the change for the patents not rebuilt yet).
  await refreshForecast(db, todayIso, { needThrough: end, deadline: refresh.deadline ?? Date.now() + FORECAST_REQUEST_REFRESH_MS, ...(refresh.batch ? { batch: refresh.batch } : {}) });
  const updating = await forecastHasDirty(db);

  const buckets = new Map<string, Bucket>();
  let unpriced = 0;
  const add = (month: number, office: string, currency: string, official: number, surcharge: number, annuities: number) => {
    const key = keyOf(month, office, currency);
    const b = buckets.get(key);
    if (b) {
      b.official += official;
      b.surcharge += surcharge;
      b.annuities += annuities;
    } else buckets.set(key, { official, surcharge, annuities });
  };

  if (scope.kind === 'owned' && scope.cabinetIds.length + scope.codes.length === 0) return build();
  const where = conditions(scope, query);
  const filters = where.length === 0 ? sql`` : sql` and ${sql.join(where, sql` and `)}`;

  const addGroups = (groups: ReadonlyArray<{ office: string; currency: string; m: number; official: string; n: number; unpriced: number }>, sign: 1 | -1) => {
    for (const g of groups) {
      add(Number(g.m), g.office, g.currency, sign * Number(g.official), 0, sign * Number(g.n));
      if (Number(g.m) <= monthOf(yearsEnd)) unpriced += sign * Number(g.unpriced);
    }
  };
  const rowGroups = async (where: SQL) =>
    rowsOf<{ office: string; currency: string; m: number; official: string; n: number; unpriced: number }>(
      await db.execute(sql`
        with ${specialCte(todayIso)}
        select f.office, f.currency, (extract(year from f.due_date)::int * 12 + extract(month from f.due_date)::int - 1) as m,
          coalesce(sum(f.official_minor), 0)::text as official, count(*)::int as n, (count(*) - count(f.official_minor))::int as unpriced
        from patent_forecast_rows f
        where ${where}${filters}
        group by 1, 2, 3`),
    );
  const special = sql`exists (select 1 from special s where s.patent_key = f.patent_key)`;
  if (query.cabinet === undefined && query.client_code === undefined && scope.kind === 'all') {
    // The whole portfolio (by office, origin, what-if): the month sums after this month; this month's rows due after
    // today; the special patents' rows taken back out of the sums (they are read through the engine below).
    const monthEnd0 = monthLast(firstMonth);
    const sumsWhere: SQL[] = [sql`month > ${firstMonth} and month <= ${monthOf(end)}`];
    if (query.office !== undefined) sumsWhere.push(sql`office = ${query.office}`);
    if (query.origin !== undefined) sumsWhere.push(sql`origin = ${query.origin}`);
    if (whatIf !== null) sumsWhere.push(sql`annuity_year <= ${whatIf}`);
    addGroups(
      rowsOf(
        await db.execute(sql`
          select office, currency, month as m, sum(official_minor)::text as official, sum(annuities)::int as n, sum(unpriced)::int as unpriced
          from patent_forecast_sums where ${sql.join(sumsWhere, sql` and `)}
          group by 1, 2, 3`),
      ),
      1,
    );
    addGroups(await rowGroups(sql`f.due_date > ${todayIso}::date and f.due_date <= ${monthEnd0}::date and not ${special}`), 1);
    addGroups(await rowGroups(sql`f.due_date > ${monthEnd0}::date and f.due_date <= ${end}::date and ${special}`), -1);
  } else {
    // A cabinet, a client code or an agent's scope: the rows of its patents due after today.
    addGroups(await rowGroups(sql`f.due_date > ${todayIso}::date and f.due_date <= ${end}::date and not ${special}`), 1);
  }

  // The special patents: the engine as of today (an annuity in grace priced on today, with its surcharge), then the drop-outs.
  const overdue = rowsOf<{ patent_key: string; pays: string; origine: string | null; date_depot: string | null; quantieme: number | null }>(
    await db.execute(sql`
      with ${specialCte(todayIso)}
      select distinct on (f.patent_key) f.patent_key, r.pays, r.origine, r.date_depot::text as date_depot, r.quantieme
      from special s join patent_forecast_rows f on f.patent_key = s.patent_key join patent_records r on r.id = f.record_id
      where true${filters}
      order by f.patent_key`),
  );
  if (overdue.length > 0) {
    const keys = overdue.map((o) => o.patent_key);
    const dropRows = rowsOf<{ patent_key: string; annuity_year: number; kind: string }>(
      await db.execute(sql`
        with ${dropsCte(keys)}
        select patent_key, from_year as annuity_year, 'drop' as kind from drops
        union all
        select patent_key, annuity_year, 'paid' from ledger where state in ('paid', 'confirmed')`),
    );
    const dropFrom = new Map<string, number>();
    const paid = new Set<string>();
    for (const r of dropRows) {
      if (r.kind === 'drop') dropFrom.set(r.patent_key, Number(r.annuity_year));
      else paid.add(`${r.patent_key}|${r.annuity_year}`);
    }
    for (const o of overdue) {
      const from = dropFrom.get(o.patent_key) ?? Infinity;
      for (const p of liveParts({ pays: o.pays, origine: o.origine, dateDepot: o.date_depot, quantieme: o.quantieme }, today)) {
        if (p.payDay < todayIso || p.payDay > end || p.number >= from || paid.has(`${o.patent_key}|${p.number}`)) continue;
        if (whatIf !== null && p.number > whatIf) continue;
        const m = monthOf(p.payDay);
        add(m, p.office, p.currency, p.officialMinor ?? 0, p.surchargeMinor, 1);
        if (p.officialMinor === null && m <= monthOf(yearsEnd)) unpriced += 1;
      }
    }
  }
  return build();

  function build(): Omit<ForecastResponse, 'success'> {
    const period = (label: string, from: string, to: string, months: (m: number) => boolean): ForecastPeriod => {
      const perOffice = new Map<string, ForecastOfficeFigure>();
      for (const [key, b] of buckets) {
        const [m, office, currency] = key.split('|') as [string, string, string];
        // A bucket the special patents emptied (their rows taken back out of the sums) is no figure.
        if (!months(Number(m)) || b.annuities === 0) continue;
        const id = `${office}|${currency}`;
        const f = perOffice.get(id) ?? { office, currency, total: 0, parts: { official: 0, surcharge: 0 }, annuities: 0 };
        f.parts.official += b.official;
        f.parts.surcharge += b.surcharge;
        f.annuities += b.annuities;
        perOffice.set(id, f);
      }
      const offices = [...perOffice.values()]
        .sort((a, b) => officeRank(a.office) - officeRank(b.office) || a.currency.localeCompare(b.currency))
        .map((f) => ({ ...f, total: major(f.parts.official + f.parts.surcharge), parts: { official: major(f.parts.official), surcharge: major(f.parts.surcharge) } }));
      return { period: label, from, to, offices, totals: totalsOf(offices) };
    };
    const years: ForecastPeriod[] = [];
    for (let y = year; y <= lastYear; y++) {
      years.push(period(String(y), y === year ? todayIso : `${y}-01-01`, `${y}-12-31`, (m) => Math.floor(m / 12) === y));
    }
    const months: ForecastPeriod[] = [];
    for (let m = firstMonth; m < firstMonth + 12; m++) months.push(period(monthLabel(m), m === firstMonth ? todayIso : monthFirst(m), monthLast(m), (k) => k === m));
    const offices = [...new Set(years.flatMap((y) => y.offices.map((o) => o.office)))];
    return { today: todayIso, years, months, totals: totalsOf(years.flatMap((y) => y.totals)), offices, unpriced, abandon_older_than: whatIf, updating };
  }
}

const officeRank = (office: string) => {
  const i = (FORECAST_OFFICES as readonly string[]).indexOf(office);
  return i === -1 ? FORECAST_OFFICES.length : i;
};

/** Totals per currency of figures in major units, summed in minor units (exact). */
function totalsOf(figures: readonly ForecastFigure[]): ForecastFigure[] {
  const per = new Map<string, { official: number; surcharge: number; annuities: number }>();
  for (const f of figures) {
    const t = per.get(f.currency) ?? { official: 0, surcharge: 0, annuities: 0 };
    t.official += Math.round(f.parts.official * 100);
    t.surcharge += Math.round(f.parts.surcharge * 100);
    t.annuities += f.annuities;
    per.set(f.currency, t);
  }
  return [...per.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, t]) => ({ currency, total: major(t.official + t.surcharge), parts: { official: major(t.official), surcharge: major(t.surcharge) }, annuities: t.annuities }));
}
