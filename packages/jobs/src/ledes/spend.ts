import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import type { LedesSummary, ResolvedFinding } from '@portal/ledes';

/**
 * Spend analytics (issue 31 §2, decision 206): the engine's lines rolled up per (month, law firm, client,
 * matter, timekeeper, UTBMS task, line type) while the check reads them, and stored with the run's move to
 * Done, in the same transaction. The analytics read these rows, never the lines: a 1,000,000-line history is
 * a few tens of thousands of rows, and a run deleted takes its rows with it (cascade).
 *
 * Amounts are kept as integers of 1/10,000 (LEDES currencies have at most 4 decimals), so a sum is exact.
 */
export interface SpendRow {
  readonly month: string;
  readonly lawFirmId: string;
  readonly clientId: string;
  readonly matterId: string;
  readonly timekeeperId: string;
  readonly timekeeperName: string;
  readonly taskCode: string;
  /** The line's EXP/FEE/INV_ADJ_TYPE: F, E, IF, IE (as written, upper case). */
  readonly lineType: string;
  lines: number;
  /** Σ LINE_ITEM_TOTAL in 1/10,000. */
  amount: bigint;
  /** Σ LINE_ITEM_NUMBER_OF_UNITS in 1/10,000. */
  units: bigint;
  /** Σ of the guideline findings' "total over the cap" in 1/10,000 (see `overGuidelinesOf`). */
  overGuidelines: bigint;
}

/** A check's summary with the rolled-up spend of its lines (attached by `runChecks`; crosses threads as is). */
export interface SpendSummary extends LedesSummary {
  readonly spend?: readonly SpendRow[];
}

/**
 * THE SEAM for "amount over guidelines": a finding counts when its code is a client-guideline code
 * (`GDL-` prefix, issue 31 §1) and its values carry `over`, the total over the cap (a decimal string). The sum per
 * line of these values is the line's amount over guidelines. Without guidelines no finding has these, and the
 * figure is 0.
 */
export const GUIDELINE_CODE_PREFIX = 'GDL-';
export function overGuidelinesOf(findings: readonly ResolvedFinding[]): bigint {
  let total = 0n;
  for (const f of findings) {
    if (!f.code.startsWith(GUIDELINE_CODE_PREFIX)) continue;
    const over = f.values?.over;
    if (over !== undefined) total += toTenThousandths(over) ?? 0n;
  }
  return total;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** A LEDES decimal ("1234.5", "-0.25", ".5") in 1/10,000, or null if it is not one (digits past the 4th dropped). */
export function toTenThousandths(text: string): bigint | null {
  const m = DECIMAL.exec(text.trim());
  if (!m || (!m[2] && !m[3])) return null;
  const whole = m[2] || '0';
  const frac = ((m[3] ?? '') + '0000').slice(0, 4);
  const value = BigInt(whole) * 10000n + BigInt(frac);
  return m[1] === '-' ? -value : value;
}

/** "20260315" → "2026-03"; anything else → null. */
function monthOf(date: string | undefined): string | null {
  if (!date || !/^\d{8}$/.test(date)) return null;
  const month = Number(date.slice(4, 6));
  if (month < 1 || month > 12) return null;
  return `${date.slice(0, 4)}-${date.slice(4, 6)}`;
}

const COLUMNS = {
  total: 'LINE_ITEM_TOTAL',
  units: 'LINE_ITEM_NUMBER_OF_UNITS',
  date: 'LINE_ITEM_DATE',
  end: 'BILLING_END_DATE',
  type: 'EXP/FEE/INV_ADJ_TYPE',
  firm: 'LAW_FIRM_ID',
  client: 'CLIENT_ID',
  matter: 'LAW_FIRM_MATTER_ID',
  timekeeper: 'TIMEKEEPER_ID',
  timekeeperName: 'TIMEKEEPER_NAME',
  task: 'LINE_ITEM_TASK_CODE',
} as const;
type Column = keyof typeof COLUMNS;

/** Rolls up the lines of one check (98B and 98BI: the same 24 first columns; XML items as the engine's 98B records). */
export class SpendAccumulator {
  private index: Record<Column, number> | null = null;
  private readonly rows = new Map<string, SpendRow>();

  onStart(fieldNames: readonly string[]): void {
    const upper = fieldNames.map((n) => n.trim().toUpperCase());
    const index = {} as Record<Column, number>;
    for (const [key, name] of Object.entries(COLUMNS) as [Column, string][]) {
      const at = upper.indexOf(name);
      if (at < 0) {
        this.index = null;
        return;
      }
      index[key] = at;
    }
    this.index = index;
  }

  onLine(fields: readonly string[] | null, findings: readonly ResolvedFinding[]): void {
    const index = this.index;
    if (!index || !fields) return;
    const get = (c: Column) => (fields[index[c]] ?? '').trim();
    const month = monthOf(get('date')) ?? monthOf(get('end')) ?? '';
    const row = {
      month,
      lawFirmId: get('firm'),
      clientId: get('client'),
      matterId: get('matter'),
      timekeeperId: get('timekeeper'),
      timekeeperName: get('timekeeperName'),
      taskCode: get('task').toUpperCase(),
      lineType: get('type').toUpperCase(),
    };
    const key = `${row.month}|${row.lawFirmId}|${row.clientId}|${row.matterId}|${row.timekeeperId}|${row.taskCode}|${row.lineType}`;
    let acc = this.rows.get(key);
    if (!acc) {
      acc = { ...row, lines: 0, amount: 0n, units: 0n, overGuidelines: 0n };
      this.rows.set(key, acc);
    }
    acc.lines++;
    acc.amount += toTenThousandths(get('total')) ?? 0n;
    acc.units += toTenThousandths(get('units')) ?? 0n;
    if (findings.length > 0) acc.overGuidelines += overGuidelinesOf(findings);
  }

  result(): SpendRow[] {
    return [...this.rows.values()];
  }
}

/** Rows per insert statement: array parameters and unnest, one statement per batch whatever its size. */
export const SPEND_INSERT_BATCH = 5000;

const decimal = (v: bigint): string => {
  const negative = v < 0n;
  const abs = negative ? -v : v;
  return `${negative ? '-' : ''}${abs / 10000n}.${(abs % 10000n).toString().padStart(4, '0')}`;
};

/** A run's rollup per dimension alone: (dimension, value, month) → sums, the rows of `ledes_spend_by_dimension`. */
export function byDimension(rows: readonly SpendRow[]): { dimension: string; key: string; label: string | null; month: string; lines: number; amount: bigint; overGuidelines: bigint }[] {
  const out = new Map<string, { dimension: string; key: string; label: string | null; month: string; lines: number; amount: bigint; overGuidelines: bigint }>();
  for (const r of rows) {
    const keys: [string, string, string | null][] = [
      ['law_firm', r.lawFirmId, null],
      ['client', r.clientId, null],
      ['matter', r.matterId, null],
      ['timekeeper', r.timekeeperId, r.timekeeperName || null],
      ['task', r.taskCode, null],
      ['month', r.month, null],
    ];
    for (const [dimension, key, label] of keys) {
      const id = `${dimension}\u0000${key}\u0000${r.month}`;
      const acc = out.get(id) ?? { dimension, key, label, month: r.month, lines: 0, amount: 0n, overGuidelines: 0n };
      if (!out.has(id)) out.set(id, acc);
      acc.label ??= label;
      acc.lines += r.lines;
      acc.amount += r.amount;
      acc.overGuidelines += r.overGuidelines;
    }
  }
  return [...out.values()];
}

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
