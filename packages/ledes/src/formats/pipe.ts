import type { FieldSpec } from './fields.ts';
import { LEDES1998B_FIELDS, LEDES1998B_TOKEN } from './ledes1998b.ts';
import { LEDES98BI_ALT_TOKENS, LEDES98BI_FIELDS, LEDES98BI_TOKEN } from './ledes98bi.ts';

type PipeFormatId = 'LEDES1998B' | 'LEDES98BI_V2';
export type FormatId = PipeFormatId | 'LEDES_XML_2.0' | 'LEDES_XML_2.1' | 'LEDES_XML_2.2';

export interface PipeFormat {
  readonly id: PipeFormatId;
  readonly token: string;
  readonly altTokens: readonly string[];
  readonly fields: readonly FieldSpec[];
  readonly header: string;
  /** Field name → column index, for the rules. */
  readonly index: ReadonlyMap<string, number>;
  /** Column indices of the fields the rules read on every line (-1: not in this format), resolved once. */
  readonly cols: Columns;
  /** `fields[i].kind` as a small integer, for the per-field loop. */
  readonly kinds: Uint8Array;
  /** Invoice-level columns (CON-001), in column order. */
  readonly invoiceLevelColumns: readonly number[];
  /**
   * The field specs as flat per-column arrays: the specs are object literals of several shapes,
   * and reading their properties in the per-field loop of every line costs more than the checks.
   */
  readonly names: readonly string[];
  /** `maxLength`, -1 when none. */
  readonly maxLengths: Int32Array;
  readonly lengthSure: Uint8Array;
  /** `required`: REQUIRED_NO, REQUIRED_ALWAYS or REQUIRED_NOT_ADJUSTMENT. */
  readonly required: Uint8Array;
  /** Columns holding a list of values (`FieldSpec.list`): their length is checked item by item. */
  readonly lists: ReadonlyArray<{ readonly column: number; readonly separator: string; readonly maxItems: number }>;
  /** TK-001: the timekeeper columns a fee line must fill, and their names (parallel arrays). */
  readonly timekeeperColumns: Int32Array;
  readonly timekeeperNames: readonly string[];
}

export const REQUIRED_NO = 0;
export const REQUIRED_ALWAYS = 1;
export const REQUIRED_NOT_ADJUSTMENT = 2;
const TIMEKEEPER_REQUIRED = ['TIMEKEEPER_ID', 'TIMEKEEPER_NAME', 'TIMEKEEPER_CLASSIFICATION', 'TIMEKEEPER_LAST_NAME', 'TIMEKEEPER_FIRST_NAME'];

export const KIND_TEXT = 0;
export const KIND_DATE = 1;
export const KIND_CURRENCY = 2;
export const KIND_NUMBER = 3;
export const KIND_RATE = 4;
const KIND_CODES: Readonly<Record<FieldSpec['kind'], number>> = { text: KIND_TEXT, code: KIND_TEXT, date: KIND_DATE, currency: KIND_CURRENCY, number: KIND_NUMBER, rate: KIND_RATE };

const COLUMN_NAMES = {
  invoiceDate: 'INVOICE_DATE',
  invoiceNumber: 'INVOICE_NUMBER',
  clientId: 'CLIENT_ID',
  invoiceTotal: 'INVOICE_TOTAL',
  billingStart: 'BILLING_START_DATE',
  billingEnd: 'BILLING_END_DATE',
  lineNumber: 'LINE_ITEM_NUMBER',
  type: 'EXP/FEE/INV_ADJ_TYPE',
  units: 'LINE_ITEM_NUMBER_OF_UNITS',
  adjustment: 'LINE_ITEM_ADJUSTMENT_AMOUNT',
  total: 'LINE_ITEM_TOTAL',
  date: 'LINE_ITEM_DATE',
  task: 'LINE_ITEM_TASK_CODE',
  expense: 'LINE_ITEM_EXPENSE_CODE',
  activity: 'LINE_ITEM_ACTIVITY_CODE',
  timekeeperId: 'TIMEKEEPER_ID',
  description: 'LINE_ITEM_DESCRIPTION',
  unitCost: 'LINE_ITEM_UNIT_COST',
  timekeeperName: 'TIMEKEEPER_NAME',
  classification: 'TIMEKEEPER_CLASSIFICATION',
  clientMatterId: 'CLIENT_MATTER_ID',
  invoiceTax: 'INVOICE_TAX_TOTAL',
  invoiceNet: 'INVOICE_NET_TOTAL',
  currency: 'INVOICE_CURRENCY',
  taxCurrency: 'INVOICE_TAX_CURRENCY',
  firmCountry: 'LAW_FIRM_COUNTRY',
  clientCountry: 'CLIENT_COUNTRY',
  accountType: 'ACCOUNT_TYPE',
  taxRate: 'LINE_ITEM_TAX_RATE',
  taxTotal: 'LINE_ITEM_TAX_TOTAL',
} as const;

export type Columns = { readonly [K in keyof typeof COLUMN_NAMES]: number };

/** Built as one literal so the object keeps fast properties (one built key by key would not). */
function columns(index: ReadonlyMap<string, number>): Columns {
  const c = (name: string): number => index.get(name) ?? -1;
  return {
    invoiceDate: c(COLUMN_NAMES.invoiceDate),
    invoiceNumber: c(COLUMN_NAMES.invoiceNumber),
    clientId: c(COLUMN_NAMES.clientId),
    invoiceTotal: c(COLUMN_NAMES.invoiceTotal),
    billingStart: c(COLUMN_NAMES.billingStart),
    billingEnd: c(COLUMN_NAMES.billingEnd),
    lineNumber: c(COLUMN_NAMES.lineNumber),
    type: c(COLUMN_NAMES.type),
    units: c(COLUMN_NAMES.units),
    adjustment: c(COLUMN_NAMES.adjustment),
    total: c(COLUMN_NAMES.total),
    date: c(COLUMN_NAMES.date),
    task: c(COLUMN_NAMES.task),
    expense: c(COLUMN_NAMES.expense),
    activity: c(COLUMN_NAMES.activity),
    timekeeperId: c(COLUMN_NAMES.timekeeperId),
    description: c(COLUMN_NAMES.description),
    unitCost: c(COLUMN_NAMES.unitCost),
    timekeeperName: c(COLUMN_NAMES.timekeeperName),
    classification: c(COLUMN_NAMES.classification),
    clientMatterId: c(COLUMN_NAMES.clientMatterId),
    invoiceTax: c(COLUMN_NAMES.invoiceTax),
    invoiceNet: c(COLUMN_NAMES.invoiceNet),
    currency: c(COLUMN_NAMES.currency),
    taxCurrency: c(COLUMN_NAMES.taxCurrency),
    firmCountry: c(COLUMN_NAMES.firmCountry),
    clientCountry: c(COLUMN_NAMES.clientCountry),
    accountType: c(COLUMN_NAMES.accountType),
    taxRate: c(COLUMN_NAMES.taxRate),
    taxTotal: c(COLUMN_NAMES.taxTotal),
  };
}

function define(id: PipeFormatId, token: string, altTokens: readonly string[], fields: readonly FieldSpec[]): PipeFormat {
  const index = new Map(fields.map((f, i) => [f.name, i]));
  return {
    id,
    token,
    altTokens,
    fields,
    header: fields.map((f) => f.name).join('|'),
    index,
    cols: columns(index),
    kinds: Uint8Array.from(fields, (f) => KIND_CODES[f.kind]),
    invoiceLevelColumns: fields.flatMap((f, i) => (f.invoiceLevel ? [i] : [])),
    names: fields.map((f) => f.name),
    maxLengths: Int32Array.from(fields, (f) => f.maxLength ?? -1),
    lengthSure: Uint8Array.from(fields, (f) => (f.lengthSure ? 1 : 0)),
    required: Uint8Array.from(fields, (f) => (f.required === 'always' ? REQUIRED_ALWAYS : f.required === 'not-adjustment' ? REQUIRED_NOT_ADJUSTMENT : REQUIRED_NO)),
    lists: fields.flatMap((f, i) => (f.list ? [{ column: i, separator: f.list.separator, maxItems: f.list.maxItems }] : [])),
    timekeeperColumns: Int32Array.from(TIMEKEEPER_REQUIRED.filter((n) => index.has(n)), (n) => index.get(n)!),
    timekeeperNames: TIMEKEEPER_REQUIRED.filter((n) => index.has(n)),
  };
}

export const PIPE_FORMATS: readonly PipeFormat[] = [
  define('LEDES1998B', LEDES1998B_TOKEN, [], LEDES1998B_FIELDS),
  define('LEDES98BI_V2', LEDES98BI_TOKEN, LEDES98BI_ALT_TOKENS, LEDES98BI_FIELDS),
];

/** Token line (without its `[]`) → format and whether the token is the canonical one. */
export function formatFromToken(token: string): { format: PipeFormat; canonical: boolean } | undefined {
  for (const format of PIPE_FORMATS) {
    if (token === format.token) return { format, canonical: true };
    if (format.altTokens.includes(token)) return { format, canonical: false };
  }
  return undefined;
}

/** Header line (without its `[]`) → the format whose exact header it is. */
export function formatFromHeader(header: string): PipeFormat | undefined {
  return PIPE_FORMATS.find((f) => f.header === header);
}

/** Best guess when neither token nor header is exact: by field count. */
export function formatFromFieldCount(count: number): PipeFormat | undefined {
  return PIPE_FORMATS.find((f) => f.fields.length === count);
}
