import { sql, type SQL } from 'drizzle-orm';
import { formatIsoDate, parseIsoDate, type Day } from '@portal/annuities/core';
import type { Database, Executor } from '@portal/db';
import { patentKeyOf } from '../ledger/write.ts';
import { rowsOf } from '../patents/rows.ts';
import { forecastLiveDay, rebuildLive } from './live.ts';
import { loadCostTables } from '../costs/load.ts';
import { eurPartsOf } from './costs.ts';
import { storedScheduleOf, storedThroughOf, type StoredAnnuity, type StoredSchedule } from './schedule.ts';

/*
 * Keeps `patent_forecast_rows` (decision 201): the patents the trigger on `patent_records` named in
 * `patent_forecast_dirty` get their rows rebuilt from the engine, a batch per transaction. Idempotent, safe to run
 * concurrently (a batch takes its names with SKIP LOCKED) and after a crash (a name leaves the queue in the
 * transaction that writes its rows).
 */

export const FORECAST_REFRESH_BATCH = 2_000;
/** Rows per INSERT statement (20 parameters each: under PostgreSQL's 65,535). */
const INSERT_ROWS = 3_000;

interface RecordRow {
  id: string;
  idbrevet: string | null;
  cabinet_id: string;
  client_code: string;
  pays: string;
  origine: string | null;
  date_depot: string | null;
  quantieme: number | null;
}

/** The record a patent's schedule is read from: the one naming the highest annuity (a record without one last), then the newest id. */
function headOf(records: readonly RecordRow[]): RecordRow {
  return records.reduce((best, r) => {
    const a = r.quantieme ?? -1;
    const b = best.quantieme ?? -1;
    return a > b || (a === b && r.id > best.id) ? r : best;
  });
}

/** Adds (sign 1) or takes away (−1) the rows of `source` to the month sums. */
function sumsUpsert(source: SQL, sign: 1 | -1): SQL {
  return sql`
    insert into patent_forecast_sums as s (month, office, currency, origin, annuity_year, official_minor, annuities, unpriced,
      official_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
    select (extract(year from due_date)::int * 12 + extract(month from due_date)::int - 1), office, currency, origin, annuity_year,
      ${sql.raw(String(sign))} * coalesce(sum(official_minor), 0), ${sql.raw(String(sign))} * count(*), ${sql.raw(String(sign))} * (count(*) - count(official_minor)),
      ${sql.raw(String(sign))} * sum(official_eur), ${sql.raw(String(sign))} * sum(agent_fee_eur), ${sql.raw(String(sign))} * sum(service_fee_eur),
      ${sql.raw(String(sign))} * sum(margin_eur), ${sql.raw(String(sign))} * sum(unconverted)
    from ${source} group by 1, 2, 3, 4, 5
    on conflict (month, office, currency, origin, annuity_year) do update
      set official_minor = s.official_minor + excluded.official_minor, annuities = s.annuities + excluded.annuities, unpriced = s.unpriced + excluded.unpriced,
        official_eur = s.official_eur + excluded.official_eur, agent_fee_eur = s.agent_fee_eur + excluded.agent_fee_eur,
        service_fee_eur = s.service_fee_eur + excluded.service_fee_eur, margin_eur = s.margin_eur + excluded.margin_eur, unconverted = s.unconverted + excluded.unconverted`;
}

/** Rebuilds one batch of named patents; the number of patents taken (0: nothing was named). */
async function refreshBatch(db: Database, today: Day, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    const keys = rowsOf<{ patent_key: string }>(
      await tx.execute(sql`
        delete from patent_forecast_dirty
        where patent_key in (select patent_key from patent_forecast_dirty limit ${batch} for update skip locked)
        returning patent_key`),
    ).map((r) => r.patent_key);
    if (keys.length === 0) return 0;
    const ids = keys.filter((k) => k.startsWith('record:')).map((k) => k.slice('record:'.length));
    const brevets = keys.filter((k) => !k.startsWith('record:'));
    const records = rowsOf<RecordRow>(
      await tx.execute(sql`
        select id, idbrevet, cabinet_id, client_code, pays, origine, date_depot::text as date_depot, quantieme
        from patent_records where idbrevet = any(${sql.param(brevets)}::text[])
        union all
        select id, idbrevet, cabinet_id, client_code, pays, origine, date_depot::text as date_depot, quantieme
        from patent_records where id = any(${sql.param(ids)}::uuid[]) and coalesce(idbrevet, '') = ''`),
    );
    const wanted = new Set(keys);
    const byKey = new Map<string, RecordRow[]>();
    for (const r of records) {
      const key = patentKeyOf(r);
      if (!wanted.has(key)) continue;
      const list = byKey.get(key);
      if (list) list.push(r);
      else byKey.set(key, [r]);
    }
    // The rows leave the month sums, then the new ones join them (decision 201: the sums are the rows', always).
    await tx.execute(sql`
      with gone as (delete from patent_forecast_rows where patent_key = any(${sql.param(keys)}::text[]) returning due_date, office, currency, origin, annuity_year, official_minor, official_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
      ${sumsUpsert(sql`gone`, -1)}`);
    const from = formatIsoDate(today);
    const through = formatIsoDate(storedThroughOf(today));
    let values: ReturnType<typeof sql>[] = [];
    const flush = async () => {
      if (values.length === 0) return;
      await tx.execute(sql`
        insert into patent_forecast_rows (patent_key, annuity_year, record_id, cabinet_id, client_code, office, origin, currency,
          due_date, no_surcharge_end, grace_end, official_minor, unpaid_known, first_due, stored_through,
          official_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
        values ${sql.join(values, sql`, `)}`);
      values = [];
    };
    // The cost parts of every annuity as the patent's detail prices them (decision 217): the tables and rates read once.
    const tables = await loadCostTables(tx, { cabinetIds: [...new Set(records.map((r) => r.cabinet_id))], currencies: ['GBP', 'SEK'], fromDay: from, toDay: through });
    const row = (key: string, head: RecordRow, schedule: StoredSchedule, a: StoredAnnuity) => {
      const eur = eurPartsOf(tables, a.annuity, head.cabinet_id, a.annuity.due);
      return sql`(${key}, ${a.number}, ${head.id}, ${head.cabinet_id}, ${head.client_code}, ${schedule.office}, ${schedule.origin}, ${a.currency}, ${a.due}, ${a.noSurchargeEnd}, ${a.graceEnd}, ${a.officialMinor}, ${schedule.unpaidKnown}, ${schedule.firstDue}, ${through}, ${eur.official}, ${eur.agentFee}, ${eur.serviceFee}, ${eur.margin}, ${eur.unconverted})`;
    };
    for (const [key, list] of byKey) {
      const head = headOf(list);
      const schedule = storedScheduleOf({ pays: head.pays, origine: head.origine, dateDepot: head.date_depot, quantieme: head.quantieme });
      if (schedule === null) continue;
      for (const a of schedule.annuities) {
        // Annuities whose last day passed before the refresh day are never read again from the rows (a known unpaid one
        // is read live from the record; the engine counts an unknown one paid). Later than `through`, a later refresh writes them.
        if (a.graceEnd < from || a.due > through) continue;
        values.push(row(key, head, schedule, a));
        if (values.length >= INSERT_ROWS) await flush();
      }
      // A patent whose first unpaid annuity is already due keeps one row (read live by the request) even with none to store.
      if (schedule.unpaidKnown && schedule.firstDue < from && !schedule.annuities.some((a) => a.graceEnd >= from && a.due <= through)) {
        values.push(row(key, head, schedule, schedule.annuities[0]!));
      }
    }
    await flush();
    await tx.execute(sql`
      with added as (select due_date, office, currency, origin, annuity_year, official_minor, official_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted from patent_forecast_rows where patent_key = any(${sql.param(keys)}::text[]))
      ${sumsUpsert(sql`added`, 1)}`);
    // Their special parts as of the live rows' day follow their rows (decision 216), in the same transaction.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('forecast-live'))`);
    const liveDay = await forecastLiveDay(tx);
    if (liveDay !== null) await rebuildLive(tx, liveDay, keys);
    return keys.length;
  });
}

/**
 * Rebuilds the forecast rows of every named patent, and first names those stored through a day before `needThrough`
 * (the end of the forecast's window). Returns how many patents were rebuilt. With `deadline` (epoch ms) it stops
 * after the batch that reaches it: `forecastHasDirty` then says whether patents are left.
 */
export async function refreshForecast(db: Database, today: string, options: { needThrough?: string; batch?: number; deadline?: number } = {}): Promise<number> {
  const day = parseIsoDate(today);
  if (day === null) throw new Error(`refreshForecast: invalid day ${today}`);
  if (options.needThrough !== undefined) await nameStale(db, options.needThrough);
  await refreshLiveDay(db, today);
  let total = 0;
  for (;;) {
    const taken = await refreshBatch(db, day, options.batch ?? FORECAST_REFRESH_BATCH);
    if (taken === 0) return total;
    total += taken;
    // A caller with a deadline (a request) stops after the batch that reaches it; the patents left stay named.
    if (options.deadline !== undefined && Date.now() >= options.deadline) return total;
  }
}

/** Rebuilds every special patent's live rows when they were built for another day than `today` (once a day). */
async function refreshLiveDay(db: Database, today: string): Promise<void> {
  if ((await forecastLiveDay(db)) === today) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('forecast-live'))`);
    // Another process may have rebuilt them while this one waited.
    if ((await forecastLiveDay(tx)) === today) return;
    await rebuildLive(tx, today);
  });
}

/**
 * Whether the forecast needs the background refresh before its figures are whole for a window ending `needThrough`.
 * With `among`, the figures are those of the patents it keeps (an agent's scope, a cabinet or client filter): a patent
 * waiting elsewhere leaves them whole (decision 239); a new day or rows stored through too early a day concern every
 * answer.
 */
export async function forecastNeedsRefresh(db: Executor, today: string, needThrough: string, among?: ForecastAudience): Promise<boolean> {
  if ((await forecastLiveDay(db)) !== today) return true;
  if (among ? await forecastHasDirtyAmong(db, among) : await forecastHasDirty(db)) return true;
  return rowsOf(await db.execute(sql`select 1 from patent_forecast_rows where stored_through < ${needThrough}::date limit 1`)).length > 0;
}

/** Names the patents whose rows end before `needThrough` (none, but once a year). */
async function nameStale(db: Executor, needThrough: string): Promise<void> {
  await db.execute(sql`
    insert into patent_forecast_dirty (patent_key)
    select distinct patent_key from patent_forecast_rows where stored_through < ${needThrough}::date
    on conflict do nothing`);
}

/**
 * The patents an answer keeps, as a condition on the `cabinet_id` and `client_code` of a table under the alias given
 * (the stored rows, the special patents' rows, the records).
 */
export type ForecastAudience = (alias: string) => SQL;

/**
 * Names looked at one by one for a scoped answer (`forecastHasDirtyAmong`; each costs four index probes, ≈ 0.15 ms on the
 * embedded database): past this many (an import, a change of the fee tables), every answer says `updating` until the
 * background lane has brought them under it, a batch or two later.
 */
export const FORECAST_SCOPED_DIRTY_MAX = 500;

/**
 * Whether a patent waiting for its rows may change the figures of the patents `among` keeps: its stored or special rows
 * are among them (it may leave them, or be deleted), or one of its records is (it may come in, or change). One index
 * probe per table and name; past FORECAST_SCOPED_DIRTY_MAX names, true without looking.
 */
export async function forecastHasDirtyAmong(db: Executor, among: ForecastAudience): Promise<boolean> {
  // CASE evaluates its ELSE only when the count is within the bound: past it, no name is probed.
  const [row] = rowsOf<{ updating: boolean }>(
    await db.execute(sql`
      with d as materialized (select patent_key from patent_forecast_dirty limit ${FORECAST_SCOPED_DIRTY_MAX + 1})
      select case when (select count(*) from d) > ${FORECAST_SCOPED_DIRTY_MAX} then true else exists (
        select 1 from d where
          exists (select 1 from patent_forecast_rows f where f.patent_key = d.patent_key and ${among('f')})
          or exists (select 1 from patent_forecast_live l where l.patent_key = d.patent_key and ${among('l')})
          or exists (select 1 from patent_records r where r.idbrevet = d.patent_key and ${among('r')})
          -- PATENT_KEY_SQL split in two so that each side probes an index: the patent number, or the record's id.
          or exists (select 1 from patent_records r
            where r.id = (case when d.patent_key like 'record:%' then substr(d.patent_key, 8)::uuid end) and ${among('r')})
      ) end as updating`),
  );
  return row!.updating;
}

/** Whether any patent waits for its rows to be rebuilt (a cheap probe before `refreshForecast`). */
export async function forecastHasDirty(db: Executor): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from patent_forecast_dirty limit 1`)).length > 0;
}
