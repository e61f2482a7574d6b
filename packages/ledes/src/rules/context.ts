import type { Finding, FindingValues } from '../findings.ts';
import type { PipeFormat } from '../formats/pipe.ts';
import type { Decimal, DecimalSum, ParsedNumber } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import type { RuleCode, Severity } from './catalogue.ts';

export type LineType = 'F' | 'E' | 'IF' | 'IE';

/** Running totals and reference values of one invoice (small, kept to the end of the file). */
export interface InvoiceState {
  readonly number: string;
  readonly clientId: string;
  readonly firstLine: number;
  /** Invoice-level columns and their values on the invoice's first line (parallel arrays). */
  readonly firstColumns: readonly number[];
  readonly firstValues: readonly string[];
  declaredTotal: Decimal | undefined;
  declaredTax: Decimal | undefined;
  declaredNet: Decimal | undefined;
  readonly sumLineTotals: DecimalSum;
  readonly sumLineTaxes: DecimalSum;
  /** A line total or tax could not be read: the invoice sums are not meaningful. */
  incomplete: boolean;
  lines: number;
}

/** State shared by the rules across the whole file. */
export interface FileState {
  readonly invoices: Map<string, InvoiceState>;
  /** The invoice of the previous line: consecutive lines of one invoice skip the map lookup. */
  lastInvoice: InvoiceState | undefined;
  /** Line numbers of the invoice block being read (released when the invoice changes). */
  blockInvoice: string | undefined;
  blockLineNumbers: Set<string>;
  /** Timekeeper id → first rate seen. */
  readonly timekeeperRates: Map<string, Decimal>;
}

/** Columns of the current record holding an invalid date or number (reset per record without allocating). */
export class ColumnFlags {
  private marks = new Uint32Array(64);
  private generation = 1;

  reset(columns: number): void {
    if (columns > this.marks.length) this.marks = new Uint32Array(columns);
    if (++this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
  }

  add(column: number): void {
    this.marks[column] = this.generation;
  }

  has(column: number): boolean {
    return column >= 0 && this.marks[column] === this.generation;
  }
}

/** One record being checked. The checker reuses one context for every record of the file. */
export interface RecordContext {
  line: number;
  fields: readonly string[];
  format: PipeFormat;
  readonly profile: LedesProfile;
  /** YYYYMMDD of the check's clock, for "date in the future". */
  readonly today: string;
  readonly file: FileState;
  /** Parsed numeric fields by column index (undefined when empty or invalid). */
  readonly numbers: (Decimal | undefined)[];
  /** Columns whose value is syntactically invalid (date or number): later rules skip them. */
  readonly invalid: ColumnFlags;
  /** The previous value of each column and what it parsed to: LEDES repeats most values from line to line. */
  readonly previous: PreviousValues;
  lineType: LineType | undefined;
  invoice: InvoiceState | undefined;
  readonly out: Finding[];
}

export interface PreviousValues {
  /** Column → last value seen there ('' when none: empty values are never looked up). */
  readonly values: string[];
  /** Column → that value's parse, for number columns. */
  readonly numbers: ParsedNumber[];
  /** Column → that value is a valid date, for date columns. */
  readonly dates: boolean[];
}

/** The value at a column (see `PipeFormat.cols`), '' when the format has no such column. */
export function at(ctx: RecordContext, column: number): string {
  return column < 0 ? '' : ctx.fields[column]!;
}

/** The parsed number at a column, undefined when absent, empty or invalid. */
export function numAt(ctx: RecordContext, column: number): Decimal | undefined {
  return column < 0 ? undefined : ctx.numbers[column];
}

export function report(ctx: RecordContext, code: RuleCode, champ: string, severity?: Severity, values?: FindingValues): void {
  const finding: Finding = severity === undefined ? { line: ctx.line, code, champ } : { line: ctx.line, code, champ, severity };
  ctx.out.push(values === undefined ? finding : { ...finding, values });
}
