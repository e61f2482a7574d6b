import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import { byDimension, type SpendRow } from './spend.ts';

/*
 * The spend rollup's storage (decision 206), apart from the rollup itself (`spend.ts`): the engine thread loads the
 * rollup and no database module (issue 28: without drizzle-orm the thread starts in 39 ms instead of 85–143).
 */

/** Rows per insert statement: array parameters and unnest, one statement per batch whatever its size. */
export const SPEND_INSERT_BATCH = 5000;

const decimal = (v: bigint): string => {
  const negative = v < 0n;
  const abs = negative ? -v : v;
  return `${negative ? '-' : ''}${abs / 10000n}.${(abs % 10000n).toString().padStart(4, '0')}`;
};

/**
 * Stores a finished run's spend rows, and the same per dimension alone, in the transaction that moves it to Done
 * (so the analytics never count a run twice nor a run not finished). `accepted` splits spend (accepted files) from
 * the amounts refused.
 */
export async function storeSpend(tx: Executor, runId: string, accepted: boolean, rows: readonly SpendRow[] | undefined): Promise<void> {
  if (!rows || rows.length === 0) return;
  for (let start = 0; start < rows.length; start += SPEND_INSERT_BATCH) {
    const batch = rows.slice(start, start + SPEND_INSERT_BATCH);
    const col = <T>(f: (r: SpendRow) => T) => sql.param(batch.map(f));
    await tx.execute(sql`
      insert into ledes_spend (run_id, accepted, month, law_firm_id, client_id, matter_id, timekeeper_id, timekeeper_name, task_code, line_type, lines, amount, units, over_guidelines)
      select ${runId}::uuid, ${accepted}, u.* from unnest(
        ${col((r) => r.month)}::text[], ${col((r) => r.lawFirmId)}::text[], ${col((r) => r.clientId)}::text[], ${col((r) => r.matterId)}::text[],
        ${col((r) => r.timekeeperId)}::text[], ${col((r) => r.timekeeperName)}::text[], ${col((r) => r.taskCode)}::text[], ${col((r) => r.lineType)}::text[],
        ${col((r) => r.lines)}::integer[], ${col((r) => decimal(r.amount))}::numeric[], ${col((r) => decimal(r.units))}::numeric[], ${col((r) => decimal(r.overGuidelines))}::numeric[]) as u`);
  }
  const dims = byDimension(rows);
  for (let start = 0; start < dims.length; start += SPEND_INSERT_BATCH) {
    const batch = dims.slice(start, start + SPEND_INSERT_BATCH);
    const col = <T>(f: (r: (typeof batch)[number]) => T) => sql.param(batch.map(f));
    await tx.execute(sql`
      insert into ledes_spend_by_dimension (run_id, accepted, dimension, key, label, month, lines, amount, over_guidelines)
      select ${runId}::uuid, ${accepted}, u.* from unnest(
        ${col((r) => r.dimension)}::text[], ${col((r) => r.key)}::text[], ${col((r) => r.label)}::text[], ${col((r) => r.month)}::text[],
        ${col((r) => r.lines)}::integer[], ${col((r) => decimal(r.amount))}::numeric[], ${col((r) => decimal(r.overGuidelines))}::numeric[]) as u`);
  }
}
