import type { Finding } from '../findings.ts';
import type { PipeFormat } from '../formats/pipe.ts';
import type { Decimal } from '../money.ts';
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
  sumLineTotals: Decimal;
  sumLineTaxes: Decimal;
  /** A line total or tax could not be read: the invoice sums are not meaningful. */
  incomplete: boolean;
  lines: number;
}

/** State shared by the rules across the whole file. */
export interface FileState {
  readonly invoices: Map<string, InvoiceState>;
  /** Line numbers of the invoice block being read (released when the invoice changes). */
  blockInvoice: string | undefined;
  blockLineNumbers: Set<string>;
  /** Timekeeper id → first rate seen. */
  readonly timekeeperRates: Map<string, Decimal>;
}

export interface RecordContext {
  readonly line: number;
  readonly fields: readonly string[];
  readonly format: PipeFormat;
  readonly profile: LedesProfile;
  /** YYYYMMDD of the check's clock, for "date in the future". */
  readonly today: string;
  readonly file: FileState;
  /** Parsed numeric fields by column index (undefined when empty or invalid). */
  readonly numbers: (Decimal | undefined)[];
  /** Columns whose value is syntactically invalid (date or number): later rules skip them. */
  readonly invalid: Set<number>;
  lineType: LineType | undefined;
  invoice: InvoiceState | undefined;
  readonly out: Finding[];
}

export function value(ctx: RecordContext, name: string): string {
  const i = ctx.format.index.get(name);
  return i === undefined ? '' : (ctx.fields[i] ?? '');
}

export function num(ctx: RecordContext, name: string): Decimal | undefined {
  const i = ctx.format.index.get(name);
  return i === undefined ? undefined : ctx.numbers[i];
}

export function report(ctx: RecordContext, code: RuleCode, champ: string, severity?: Severity): void {
  ctx.out.push(severity === undefined ? { line: ctx.line, code, champ } : { line: ctx.line, code, champ, severity });
}
