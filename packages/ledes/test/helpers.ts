import { checkLedes, defaultProfile, type CheckOptions, type InvoiceType, type LedesProfile } from '../src/index.ts';
import { LEDES1998B_FIELDS } from '../src/formats/ledes1998b.ts';
import { LEDES98BI_FIELDS } from '../src/formats/ledes98bi.ts';

export const CLOCK = (): Date => new Date('2025-06-01T08:00:00.000Z');

export type Rec = Record<string, string>;

/** A valid fee line and a valid expense line of one invoice (98B; 98BI adds tax columns). */
export function baseRecords(format: '98B' | '98BI' = '98B'): Rec[] {
  const common: Rec = {
    INVOICE_DATE: '20250210', INVOICE_NUMBER: 'INV-1', CLIENT_ID: 'C1', LAW_FIRM_MATTER_ID: 'M1',
    INVOICE_TOTAL: '705', BILLING_START_DATE: '20250101', BILLING_END_DATE: '20250131',
    INVOICE_DESCRIPTION: 'Services rendered', LAW_FIRM_ID: '12-3456789', CLIENT_MATTER_ID: 'CM-1',
  };
  const fee: Rec = {
    ...common, LINE_ITEM_NUMBER: '1', 'EXP/FEE/INV_ADJ_TYPE': 'F', LINE_ITEM_NUMBER_OF_UNITS: '2',
    LINE_ITEM_ADJUSTMENT_AMOUNT: '0', LINE_ITEM_TOTAL: '700', LINE_ITEM_DATE: '20250115', LINE_ITEM_TASK_CODE: 'L120',
    LINE_ITEM_ACTIVITY_CODE: 'A102', TIMEKEEPER_ID: 'TK1', LINE_ITEM_DESCRIPTION: 'Research prior art',
    LINE_ITEM_UNIT_COST: '350', TIMEKEEPER_NAME: 'Doe, Jane', TIMEKEEPER_CLASSIFICATION: 'PARTNR',
  };
  const expense: Rec = {
    ...common, LINE_ITEM_NUMBER: '2', 'EXP/FEE/INV_ADJ_TYPE': 'E', LINE_ITEM_NUMBER_OF_UNITS: '10',
    LINE_ITEM_ADJUSTMENT_AMOUNT: '0', LINE_ITEM_TOTAL: '5', LINE_ITEM_DATE: '20250116', LINE_ITEM_EXPENSE_CODE: 'E101',
    LINE_ITEM_DESCRIPTION: 'Copies', LINE_ITEM_UNIT_COST: '0.50',
  };
  if (format === '98B') return [fee, expense];
  const intl: Rec = {
    CLIENT_TAX_ID: 'FR123', MATTER_NAME: 'Widget patent', INVOICE_TAX_TOTAL: '140', INVOICE_NET_TOTAL: '705',
    INVOICE_CURRENCY: 'EUR', ACCOUNT_TYPE: 'O', LAW_FIRM_NAME: 'Firm', LAW_FIRM_COUNTRY: 'FR', CLIENT_COUNTRY: 'FRA',
    LINE_ITEM_TAX_TYPE: 'VAT', INVOICE_TAX_CURRENCY: 'EUR', INVOICE_TOTAL: '845',
  };
  return [
    { ...fee, ...intl, TIMEKEEPER_LAST_NAME: 'Doe', TIMEKEEPER_FIRST_NAME: 'Jane', LINE_ITEM_TAX_RATE: '0.2', LINE_ITEM_TAX_TOTAL: '140', LINE_ITEM_TOTAL: '840' },
    { ...expense, ...intl, LINE_ITEM_TAX_RATE: '0', LINE_ITEM_TAX_TOTAL: '0' },
  ];
}

export function recordLine(rec: Rec, format: '98B' | '98BI' = '98B'): string {
  const fields = format === '98B' ? LEDES1998B_FIELDS : LEDES98BI_FIELDS;
  return `${fields.map((f) => rec[f.name] ?? '').join('|')}[]`;
}

export function fileText(records: Rec[], format: '98B' | '98BI' = '98B', token?: string): string {
  const fields = format === '98B' ? LEDES1998B_FIELDS : LEDES98BI_FIELDS;
  const head = [`${token ?? (format === '98B' ? 'LEDES1998B' : 'LEDES98BI V2')}[]`, `${fields.map((f) => f.name).join('|')}[]`];
  return [...head, ...records.map((r) => recordLine(r, format))].join('\r\n') + '\r\n';
}

/** Feeds the bytes in small chunks so line splitting across chunk boundaries is exercised. */
export async function* chunked(data: string | Uint8Array, size = 61): AsyncGenerator<Uint8Array> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export function profileFor(type: InvoiceType = 'patent', overrides: Partial<LedesProfile> = {}): LedesProfile {
  return { ...defaultProfile('PAR', type)!, ...overrides };
}

interface Flat {
  line: number | string;
  code: string;
  champ: string;
  severity: 'error' | 'warning';
}

export async function run(data: string | Uint8Array, options: Partial<CheckOptions> & { type?: InvoiceType } = {}) {
  const { type, ...rest } = options;
  const outcome = await checkLedes(chunked(data), { filename: 'test.txt', profile: profileFor(type), clock: CLOCK, ...rest });
  const flat: Flat[] = [];
  for (const [severity, lines] of [['error', outcome.result.errors], ['warning', outcome.result.warnings]] as const) {
    for (const l of lines) for (const i of l.items) flat.push({ line: l.line, code: i.code_ledes, champ: i.champ, severity });
  }
  return { ...outcome, flat, codes: new Set(flat.map((f) => f.code)) };
}

/** A small valid LEDES XML 2.1 invoice: one fee, one expense, totals matching. */
export const XML_OK = `<?xml version="1.0" encoding="UTF-8"?>
<ledesxmlebilling2.1 xmlns="http://www.ledes.org/LEDES21.xsd">
  <firm><lf_id>12-3456789</lf_id>
    <client><cl_id>C1</cl_id>
      <invoice><inv_id>INV-1</inv_id><inv_date>2025-02-10</inv_date>
        <matter><lf_matter_id>M1</lf_matter_id>
          <fee><file_item_nbr>10</file_item_nbr><units>2</units><rate>350</rate><base_amount>700</base_amount><discount_amount>0</discount_amount><total_amount>700</total_amount></fee>
          <expense><file_item_nbr>11</file_item_nbr><units>10</units><rate>0.5</rate><base_amount>5</base_amount><total_amount>5</total_amount><tax_amount>1</tax_amount></expense>
        </matter>
        <inv_total_fees>700</inv_total_fees><inv_total_expenses>5</inv_total_expenses><inv_total_tax>1</inv_total_tax><inv_total_net_due>706</inv_total_net_due>
      </invoice>
    </client>
  </firm>
</ledesxmlebilling2.1>
`;
