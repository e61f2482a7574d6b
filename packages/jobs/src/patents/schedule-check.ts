import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import { rowsOf, scheduleColumnsOf } from './rows.ts';

/** Rows read and rewritten per statement by `recheckSchedules`. */
const RECHECK_BATCH = 5000;

/**
 * Checks the records no checking path wrote yet (`schedule_checked` false: rows from before migration
 * 0012, or inserted by hand): run at start-up and by `seed:demo` (decision 147). A row written
 * meanwhile by a checking path is left as that path wrote it. Returns the rows checked and flagged.
 */
export async function recheckSchedules(db: Executor): Promise<{ checked: number; flagged: number }> {
  let checked = 0;
  let flagged = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    type Row = { id: string; pays: string; origine: string | null; date_depot: string | Date | null; quantieme: number | null; date_echeance: string | Date | null };
    const rows = rowsOf<Row>(
      await db.execute(sql`
        select id, pays, origine, date_depot::text as date_depot, quantieme, date_echeance::text as date_echeance
        from patent_records where not schedule_checked and id > ${after}::uuid order by id limit ${RECHECK_BATCH}`),
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const columns = rows.map((r) =>
      scheduleColumnsOf({ pays: r.pays, origine: r.origine, dateDepot: r.date_depot === null ? null : String(r.date_depot), quantieme: r.quantieme, dateEcheance: r.date_echeance === null ? null : String(r.date_echeance) }),
    );
    await db.execute(sql`
      update patent_records as p
      set schedule_code = v.code, schedule_quantieme = v.quantieme, schedule_echeance = v.echeance, schedule_checked = true
      from unnest(${sql.param(rows.map((r) => r.id))}::uuid[], ${sql.param(columns.map((c) => c.scheduleCode))}::text[],
        ${sql.param(columns.map((c) => c.scheduleQuantieme))}::integer[], ${sql.param(columns.map((c) => c.scheduleEcheance))}::date[]) as v(id, code, quantieme, echeance)
      where p.id = v.id and not p.schedule_checked`);
    checked += rows.length;
    flagged += columns.filter((c) => c.scheduleCode !== null).length;
  }
  return { checked, flagged };
}
