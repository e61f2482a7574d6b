import { sql } from 'drizzle-orm';
import type { Executor, ledesFindings } from '@portal/db';

type FindingRow = typeof ledesFindings.$inferInsert;

/** How many line numbers of each kind a run row keeps for the history item (its `error` and `format_ok`). */
export const HISTORY_LINE_LIST = 100;

/**
 * Stores one batch of findings as ten array parameters and `unnest`: one statement whatever the
 * batch size, and faster than multi-row VALUES on both drivers (docs/benchmarks.md, "findings insert").
 * A redelivered batch is ignored row by row, never doubled.
 */
export async function insertFindings(db: Executor, rows: readonly FindingRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into ledes_findings (run_id, line, code, champ, severity, found, expected, difference, over, reference)
    select * from unnest(
      ${sql.param(rows.map((r) => r.runId))}::uuid[], ${sql.param(rows.map((r) => r.line))}::integer[],
      ${sql.param(rows.map((r) => r.code))}::text[], ${sql.param(rows.map((r) => r.champ))}::text[], ${sql.param(rows.map((r) => r.severity))}::text[],
      ${sql.param(rows.map((r) => r.found ?? null))}::text[], ${sql.param(rows.map((r) => r.expected ?? null))}::text[], ${sql.param(rows.map((r) => r.difference ?? null))}::text[],
      ${sql.param(rows.map((r) => r.over ?? null))}::text[], ${sql.param(rows.map((r) => r.reference ?? null))}::text[])
    on conflict do nothing`);
}

/**
 * Writes the findings' summary on the run row when the run finishes, so that history pages read run
 * rows only. Each sub-query is bounded by this run's findings (primary key prefix run_id, line), and
 * the line lists by HISTORY_LINE_LIST: the first HISTORY_LINE_LIST OK lines lie among the first
 * HISTORY_LINE_LIST + (refused lines) lines, so only those are walked, never the whole file (on
 * PGlite the statement blocks the embedded API's event loop while it runs).
 */
export async function storeFindingsSummary(tx: Executor, runId: string, linesChecked: number): Promise<void> {
  await tx.execute(sql`
    with refused as (
      select count(distinct line)::integer as n from ledes_findings where run_id = ${runId} and severity = 'error' and line >= 0)
    update ledes_runs set
      error_line_count = (select count(distinct line) from ledes_findings where run_id = ${runId} and severity = 'error'),
      refused_line_count = (select n from refused),
      warning_count = (select count(*) from ledes_findings where run_id = ${runId} and severity = 'warning'),
      first_error_lines = array(
        select distinct line from ledes_findings where run_id = ${runId} and severity = 'error' order by line limit ${HISTORY_LINE_LIST}),
      first_ok_lines = array(
        select g from generate_series(0, least(${linesChecked}::integer, ${HISTORY_LINE_LIST}::integer + (select n from refused)) - 1) g
        where not exists (select 1 from ledes_findings f where f.run_id = ${runId} and f.line = g and f.severity = 'error')
        order by g limit ${HISTORY_LINE_LIST})
    where id = ${runId}`);
}
