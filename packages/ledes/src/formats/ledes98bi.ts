import type { FieldSpec } from './fields.ts';
import { LEDES1998B_FIELDS } from './ledes1998b.ts';

/** LEDES 98BI V2: the 24 fields of 98B then 28 more (ledes.md §2.2). */
export const LEDES98BI_TOKEN = 'LEDES98BI V2';
/** Written by many generators; accepted with FMT-002. */
export const LEDES98BI_ALT_TOKENS: readonly string[] = ['LEDES1998BI V2'];

export const LEDES98BI_FIELDS: readonly FieldSpec[] = [
  ...LEDES1998B_FIELDS.map((f) =>
    // 98BI allows up to three firm identifiers separated by "~", each of 98B's length (ledes.md §2.2).
    f.name === 'LAW_FIRM_ID' ? { ...f, list: { separator: '~', maxItems: 3 } } : f,
  ),
  { name: 'PO_NUMBER', kind: 'text', maxLength: 100, lengthSure: true, required: 'no', invoiceLevel: true },
  { name: 'CLIENT_TAX_ID', kind: 'text', maxLength: 20, lengthSure: true, required: 'always', invoiceLevel: true },
  { name: 'MATTER_NAME', kind: 'text', maxLength: 255, lengthSure: true, required: 'always' },
  { name: 'INVOICE_TAX_TOTAL', kind: 'currency', required: 'no', invoiceLevel: true },
  { name: 'INVOICE_NET_TOTAL', kind: 'currency', required: 'always', invoiceLevel: true },
  { name: 'INVOICE_CURRENCY', kind: 'code', maxLength: 3, lengthSure: true, required: 'always', invoiceLevel: true },
  { name: 'TIMEKEEPER_LAST_NAME', kind: 'text', maxLength: 30, lengthSure: false, required: 'no' },
  { name: 'TIMEKEEPER_FIRST_NAME', kind: 'text', maxLength: 30, lengthSure: false, required: 'no' },
  { name: 'ACCOUNT_TYPE', kind: 'code', maxLength: 1, lengthSure: true, required: 'always' },
  { name: 'LAW_FIRM_NAME', kind: 'text', maxLength: 60, lengthSure: true, required: 'no', invoiceLevel: true },
  { name: 'LAW_FIRM_ADDRESS_1', kind: 'text', maxLength: 60, lengthSure: false, required: 'no' },
  { name: 'LAW_FIRM_ADDRESS_2', kind: 'text', maxLength: 60, lengthSure: false, required: 'no' },
  { name: 'LAW_FIRM_CITY', kind: 'text', maxLength: 40, lengthSure: false, required: 'no' },
  { name: 'LAW_FIRM_STATEorREGION', kind: 'text', maxLength: 40, lengthSure: false, required: 'no' },
  { name: 'LAW_FIRM_POSTCODE', kind: 'text', maxLength: 20, lengthSure: false, required: 'no' },
  { name: 'LAW_FIRM_COUNTRY', kind: 'code', maxLength: 3, lengthSure: false, required: 'no' },
  { name: 'CLIENT_NAME', kind: 'text', maxLength: 60, lengthSure: false, required: 'no' },
  { name: 'CLIENT_ADDRESS_1', kind: 'text', maxLength: 60, lengthSure: false, required: 'no' },
  { name: 'CLIENT_ADDRESS_2', kind: 'text', maxLength: 60, lengthSure: false, required: 'no' },
  { name: 'CLIENT_CITY', kind: 'text', maxLength: 40, lengthSure: false, required: 'no' },
  { name: 'CLIENT_STATEorREGION', kind: 'text', maxLength: 40, lengthSure: false, required: 'no' },
  { name: 'CLIENT_POSTCODE', kind: 'text', maxLength: 20, lengthSure: false, required: 'no' },
  { name: 'CLIENT_COUNTRY', kind: 'code', maxLength: 3, lengthSure: false, required: 'no' },
  { name: 'LINE_ITEM_TAX_RATE', kind: 'rate', required: 'no' },
  { name: 'LINE_ITEM_TAX_TOTAL', kind: 'currency', required: 'always' },
  { name: 'LINE_ITEM_TAX_TYPE', kind: 'text', maxLength: 20, lengthSure: false, required: 'no' },
  { name: 'INVOICE_REPORTED_TAX_TOTAL', kind: 'currency', required: 'no', invoiceLevel: true },
  { name: 'INVOICE_TAX_CURRENCY', kind: 'code', maxLength: 3, lengthSure: true, required: 'no', invoiceLevel: true },
];
