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

/** Whole digits a Number holds exactly in 1/10,000: 10^11 × 10^4 = 10^15 < 2^53. */
const SMALL_WHOLE_DIGITS = 11;

/**
 * `toTenThousandths` without regular expression nor BigInt, for the decimals of every line (issue 28: the rollup cost
 * the engine thread as much as the check itself): the value as an exact Number, 0 for text that is no decimal (the
 * rollup adds nothing for it), or NaN — past 11 whole digits, or anything but sign, digits and one point (spaces to
 * trim) — where the caller takes `toTenThousandths`, which decides.
 */
function smallTenThousandths(text: string): number {
  const n = text.length;
  let i = 0;
  let c = n > 0 ? text.charCodeAt(0) : 0;
  const negative = c === 45; // '-'
  if (negative || c === 43) i = 1; // '+'
  let whole = 0;
  const wholeFrom = i;
  for (; i < n; i++) {
    c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    whole = whole * 10 + (c - 48);
  }
  const wholeDigits = i - wholeFrom;
  let frac = 0;
  let fracDigits = 0;
  if (i < n && c === 46) {
    // '.'
    for (i++; i < n; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      if (fracDigits < 4) frac = frac * 10 + (c - 48);
      fracDigits++;
    }
  }
  if (i !== n || wholeDigits > SMALL_WHOLE_DIGITS) return NaN;
  if (wholeDigits === 0 && fracDigits === 0) return 0;
  for (let k = fracDigits; k < 4; k++) frac *= 10;
  const value = whole * 10000 + frac;
  return negative ? -value : value;
}

/**
 * An exact sum of LEDES decimals in 1/10,000: a Number while it stays far below 2^53 (each addend < 10^15), moved
 * into a BigInt before it could lose a unit; a decimal too long for a Number goes to the BigInt directly.
 */
class ExactSum {
  private small = 0;
  private big = 0n;

  add(text: string): void {
    const value = smallTenThousandths(text);
    if (Number.isNaN(value)) {
      this.big += toTenThousandths(text) ?? 0n;
      return;
    }
    this.small += value;
    if (this.small > 2 ** 52 || this.small < -(2 ** 52)) {
      this.big += BigInt(this.small);
      this.small = 0;
    }
  }

  value(): bigint {
    return this.big + BigInt(this.small);
  }
}

/**
 * "20260315" → "2026-03"; anything else → null. `months` keeps the strings made, by year × 100 + month: one string per
 * month of a check, not one per line.
 */
function monthOf(date: string | undefined, months: Map<number, string>): string | null {
  if (date === undefined || date.length !== 8) return null;
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const c = date.charCodeAt(i);
    if (c < 48 || c > 57) return null;
    if (i < 6) value = value * 10 + (c - 48);
  }
  const month = value % 100;
  if (month < 1 || month > 12) return null;
  let text = months.get(value);
  if (text === undefined) months.set(value, (text = `${date.slice(0, 4)}-${date.slice(4, 6)}`));
  return text;
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

/**
 * A line's field, trimmed. A function of the module, not a closure of each line: the built server keeps function
 * names (esbuild's keepNames), a call and a property definition per closure made (issue 28).
 */
function field(fields: readonly string[], at: number): string {
  return (fields[at] ?? '').trim();
}

/** A row of the rollup while lines come in: its sums kept exact and cheap (`ExactSum`), made `SpendRow`s at the end. */
interface SpendAcc {
  readonly row: Omit<SpendRow, 'lines' | 'amount' | 'units' | 'overGuidelines'>;
  lines: number;
  readonly amount: ExactSum;
  readonly units: ExactSum;
  overGuidelines: bigint;
}

/** The rows of one (month, law firm, client, matter), by (timekeeper, task, type). */
type MatterRows = Map<string, SpendAcc>;

/** Rolls up the lines of one check (98B and 98BI: the same 24 first columns; XML items as the engine's 98B records). */
export class SpendAccumulator {
  private index: Record<Column, number> | null = null;
  /** By (month, firm, client, matter), then by (timekeeper, task, type): the lines of an invoice share the first part. */
  private readonly matters = new Map<string, MatterRows>();
  /** The previous line's first part and its rows: most lines follow one of the same matter (no key built, no lookup). */
  private last: { month: string; lawFirmId: string; clientId: string; matterId: string; rows: MatterRows } | null = null;
  /** Every row in the order its first line came: the result's order. */
  private readonly seen: SpendAcc[] = [];
  private readonly months = new Map<number, string>();

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
    const month = monthOf(field(fields, index.date), this.months) ?? monthOf(field(fields, index.end), this.months) ?? '';
    const lawFirmId = field(fields, index.firm);
    const clientId = field(fields, index.client);
    const matterId = field(fields, index.matter);
    let last = this.last;
    if (!last || last.month !== month || last.lawFirmId !== lawFirmId || last.clientId !== clientId || last.matterId !== matterId) {
      const matterKey = `${month}\u0000${lawFirmId}\u0000${clientId}\u0000${matterId}`;
      let rows = this.matters.get(matterKey);
      if (!rows) this.matters.set(matterKey, (rows = new Map<string, SpendAcc>()));
      this.last = last = { month, lawFirmId, clientId, matterId, rows };
    }
    const timekeeperId = field(fields, index.timekeeper);
    const taskCode = field(fields, index.task).toUpperCase();
    const lineType = field(fields, index.type).toUpperCase();
    const key = `${timekeeperId}\u0000${taskCode}\u0000${lineType}`;
    let acc = last.rows.get(key);
    if (!acc) {
      const row = { month, lawFirmId, clientId, matterId, timekeeperId, timekeeperName: field(fields, index.timekeeperName), taskCode, lineType };
      acc = { row, lines: 0, amount: new ExactSum(), units: new ExactSum(), overGuidelines: 0n };
      last.rows.set(key, acc);
      this.seen.push(acc);
    }
    acc.lines++;
    acc.amount.add(field(fields, index.total));
    acc.units.add(field(fields, index.units));
    if (findings.length > 0) acc.overGuidelines += overGuidelinesOf(findings);
  }

  result(): SpendRow[] {
    return this.seen.map((a) => ({ ...a.row, lines: a.lines, amount: a.amount.value(), units: a.units.value(), overGuidelines: a.overGuidelines }));
  }
}

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
