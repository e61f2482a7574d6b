import { sql, type SQL } from 'drizzle-orm';
import { formatIsoDate, parseIsoDate } from '@portal/annuities/core';
import type { Executor } from '@portal/db';
import { rowsOf } from '../patents/rows.ts';
import { loadCostTables } from '../costs/load.ts';
import { eurPartsOf } from './costs.ts';
import { liveParts, storedThroughOf } from './schedule.ts';

/*
 * The forecast's special patents stored as of one day (decision 216, amending 201): the engine's parts of each special
 * patent as of the day (+1 per annuity) and its stored rows due after the day taken back out (−1 per row), in
 * `patent_forecast_live` and summed in `patent_forecast_live_sums`. A request adds them to the rows (a cabinet, a client
 * code, an agent's scope) or to the sums (the whole portfolio) and never runs the engine.
 */

const DO_NOT_PAY = 2;
/** Rows per INSERT statement (18 parameters each: under PostgreSQL's 65,535). */
const INSERT_ROWS = 3_000;

/**
 * The special patents as of `day` (among `keys` when given): a record naming an annuity already due; an annuity due by the
 * day still within its last day (the engine counts it unpaid until then); a ledger year abandoned, lapsed, paid or
 * confirmed among the kept years; a "do not pay" instruction.
 */
export function specialCte(day: string, keys?: readonly string[]): SQL {
  const onRows = keys === undefined ? sql`` : sql` and patent_key = any(${sql.param(keys)}::text[])`;
  const onLedger = keys === undefined ? sql`` : sql` and l.patent_key = any(${sql.param(keys)}::text[])`;
  const onRecords = keys === undefined ? sql`` : sql` and coalesce(nullif(idbrevet, ''), 'record:' || id::text) = any(${sql.param(keys)}::text[])`;
  return sql`
    special as materialized (
      select patent_key from patent_forecast_rows where unpaid_known and first_due <= ${day}::date${onRows}
      union
      select patent_key from patent_forecast_rows where due_date <= ${day}::date and grace_end >= ${day}::date${onRows}
      union
      -- a ledger year counts only where rows are kept: a paid year among them, an abandoned or lapsed one before one
      select l.patent_key from patent_ledger l
      where l.state in ('abandoned', 'lapsed', 'paid', 'confirmed')${onLedger}
        and exists (
          select 1 from patent_forecast_rows f
          where f.patent_key = l.patent_key and (f.annuity_year = l.annuity_year or (l.state in ('abandoned', 'lapsed') and f.annuity_year > l.annuity_year))
        )
      union
      select coalesce(nullif(idbrevet, ''), 'record:' || id::text) from patent_records where has_instruction and instruction_id = ${DO_NOT_PAY}${onRecords}
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

/** Adds (sign 1) or takes away (−1) live rows of `source` to the live sums. */
function liveSumsUpsert(source: SQL, sign: 1 | -1): SQL {
  const s = sql.raw(String(sign));
  return sql`
    insert into patent_forecast_live_sums as s (month, office, currency, origin, annuity_year, official_minor, surcharge_minor, annuities, unpriced,
      official_eur, surcharge_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
    select month, office, currency, origin, annuity_year, ${s} * sum(official_minor), ${s} * sum(surcharge_minor), ${s} * sum(annuities), ${s} * sum(unpriced),
      ${s} * sum(official_eur), ${s} * sum(surcharge_eur), ${s} * sum(agent_fee_eur), ${s} * sum(service_fee_eur), ${s} * sum(margin_eur), ${s} * sum(unconverted)
    from ${source} group by 1, 2, 3, 4, 5
    on conflict (month, office, currency, origin, annuity_year) do update
      set official_minor = s.official_minor + excluded.official_minor, surcharge_minor = s.surcharge_minor + excluded.surcharge_minor,
        annuities = s.annuities + excluded.annuities, unpriced = s.unpriced + excluded.unpriced,
        official_eur = s.official_eur + excluded.official_eur, surcharge_eur = s.surcharge_eur + excluded.surcharge_eur, agent_fee_eur = s.agent_fee_eur + excluded.agent_fee_eur,
        service_fee_eur = s.service_fee_eur + excluded.service_fee_eur, margin_eur = s.margin_eur + excluded.margin_eur, unconverted = s.unconverted + excluded.unconverted`;
}

const monthOf = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;

/** The day the live rows were built for; null: never. */
export async function forecastLiveDay(db: Executor): Promise<string | null> {
  const [row] = rowsOf<{ day: string }>(await db.execute(sql`select day::text as day from patent_forecast_live_day where id = 1`));
  return row?.day ?? null;
}

/**
 * Rebuilds the live rows as of `day`: of every patent (`keys` undefined: the day changed; the table is emptied first), or of
 * the patents whose rows were just rewritten (`keys`, within their transaction). Run inside a transaction.
 */
export async function rebuildLive(tx: Executor, day: string, keys?: readonly string[]): Promise<number> {
  const today = parseIsoDate(day);
  if (today === null) throw new Error(`rebuildLive: invalid day ${day}`);
  if (keys === undefined) {
    await tx.execute(sql`delete from patent_forecast_live`);
    await tx.execute(sql`delete from patent_forecast_live_sums`);
    await tx.execute(sql`
      insert into patent_forecast_live_day (id, day) values (1, ${day}::date)
      on conflict (id) do update set day = excluded.day`);
  } else {
    if (keys.length === 0) return 0;
    await tx.execute(sql`
      with gone as (delete from patent_forecast_live where patent_key = any(${sql.param(keys)}::text[]) returning *)
      ${liveSumsUpsert(sql`gone`, -1)}`);
  }
  const special = rowsOf<{ patent_key: string; pays: string; origine: string | null; date_depot: string | null; quantieme: number | null; cabinet_id: string; client_code: string; origin: string }>(
    await tx.execute(sql`
      with ${specialCte(day, keys)}
      select distinct on (f.patent_key) f.patent_key, r.pays, r.origine, r.date_depot::text as date_depot, r.quantieme, f.cabinet_id, f.client_code, f.origin
      from special s join patent_forecast_rows f on f.patent_key = s.patent_key join patent_records r on r.id = f.record_id
      order by f.patent_key`),
  );
  if (special.length === 0) return 0;
  const specialKeys = special.map((o) => o.patent_key);
  const dropRows = rowsOf<{ patent_key: string; annuity_year: number; kind: string }>(
    await tx.execute(sql`
      with ${dropsCte(specialKeys)}
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
  let values: SQL[] = [];
  const flush = async () => {
    if (values.length === 0) return;
    await tx.execute(sql`
      insert into patent_forecast_live (patent_key, month, office, currency, origin, annuity_year, cabinet_id, client_code, official_minor, surcharge_minor, annuities, unpriced,
        official_eur, surcharge_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
      values ${sql.join(values, sql`, `)}`);
    values = [];
  };
  // The cost parts as the patent's detail prices them on each payment day (decision 217): the tables read once.
  const tables = await loadCostTables(tx, { cabinetIds: [...new Set(special.map((o) => o.cabinet_id))], currencies: ['GBP', 'SEK'], fromDay: day, toDay: formatIsoDate(storedThroughOf(today)) });
  for (const o of special) {
    const from = dropFrom.get(o.patent_key) ?? Infinity;
    for (const p of liveParts({ pays: o.pays, origine: o.origine, dateDepot: o.date_depot, quantieme: o.quantieme }, today)) {
      if (p.payDay < day || p.number >= from || paid.has(`${o.patent_key}|${p.number}`)) continue;
      const eur = eurPartsOf(tables, p.annuity, o.cabinet_id, p.annuity.paymentDay);
      values.push(
        sql`(${o.patent_key}, ${monthOf(p.payDay)}, ${p.office}, ${p.currency}, ${o.origin}, ${p.number}, ${o.cabinet_id}, ${o.client_code}, ${p.officialMinor ?? 0}, ${p.surchargeMinor}, 1, ${p.officialMinor === null ? 1 : 0}, ${eur.official}, ${eur.surcharge}, ${eur.agentFee}, ${eur.serviceFee}, ${eur.margin}, ${eur.unconverted})`,
      );
      if (values.length >= INSERT_ROWS) await flush();
    }
  }
  await flush();
  // Their stored rows due after the day leave the figures (the rows and the sums hold them).
  await tx.execute(sql`
    insert into patent_forecast_live (patent_key, month, office, currency, origin, annuity_year, cabinet_id, client_code, official_minor, surcharge_minor, annuities, unpriced,
      official_eur, surcharge_eur, agent_fee_eur, service_fee_eur, margin_eur, unconverted)
    select patent_key, extract(year from due_date)::int * 12 + extract(month from due_date)::int - 1, office, currency, origin, annuity_year, cabinet_id, client_code,
      -coalesce(official_minor, 0), 0, -1, case when official_minor is null then -1 else 0 end,
      -official_eur, 0, -agent_fee_eur, -service_fee_eur, -margin_eur, -unconverted
    from patent_forecast_rows where patent_key = any(${sql.param(specialKeys)}::text[]) and due_date > ${day}::date`);
  await tx.execute(sql`
    with added as (select * from patent_forecast_live where patent_key = any(${sql.param(specialKeys)}::text[]))
    ${liveSumsUpsert(sql`added`, 1)}`);
  return special.length;
}
