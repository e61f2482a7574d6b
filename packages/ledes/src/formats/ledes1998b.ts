import type { FieldSpec } from './fields.ts';

/** LEDES 1998B, 24 fields in spec order (ledes.md §1.2). */
export const LEDES1998B_TOKEN = 'LEDES1998B';

export const LEDES1998B_FIELDS: readonly FieldSpec[] = [
  { name: 'INVOICE_DATE', kind: 'date', required: 'always', invoiceLevel: true },
  { name: 'INVOICE_NUMBER', kind: 'text', maxLength: 20, lengthSure: true, required: 'always' },
  { name: 'CLIENT_ID', kind: 'text', maxLength: 20, lengthSure: true, required: 'always', invoiceLevel: true },
  { name: 'LAW_FIRM_MATTER_ID', kind: 'text', maxLength: 20, lengthSure: true, required: 'always' },
  { name: 'INVOICE_TOTAL', kind: 'currency', required: 'always', invoiceLevel: true },
  { name: 'BILLING_START_DATE', kind: 'date', required: 'always', invoiceLevel: true },
  { name: 'BILLING_END_DATE', kind: 'date', required: 'always', invoiceLevel: true },
  { name: 'INVOICE_DESCRIPTION', kind: 'text', maxLength: 15360, lengthSure: true, required: 'no', invoiceLevel: true },
  { name: 'LINE_ITEM_NUMBER', kind: 'text', maxLength: 20, lengthSure: true, required: 'always' },
  { name: 'EXP/FEE/INV_ADJ_TYPE', kind: 'code', maxLength: 2, lengthSure: true, required: 'always' },
  { name: 'LINE_ITEM_NUMBER_OF_UNITS', kind: 'number', required: 'not-adjustment' },
  { name: 'LINE_ITEM_ADJUSTMENT_AMOUNT', kind: 'currency', required: 'no' },
  { name: 'LINE_ITEM_TOTAL', kind: 'currency', required: 'always' },
  { name: 'LINE_ITEM_DATE', kind: 'date', required: 'always' },
  { name: 'LINE_ITEM_TASK_CODE', kind: 'code', maxLength: 20, lengthSure: true, required: 'no' },
  { name: 'LINE_ITEM_EXPENSE_CODE', kind: 'code', maxLength: 20, lengthSure: true, required: 'no' },
  { name: 'LINE_ITEM_ACTIVITY_CODE', kind: 'code', maxLength: 20, lengthSure: true, required: 'no' },
  { name: 'TIMEKEEPER_ID', kind: 'text', maxLength: 20, lengthSure: true, required: 'no' },
  { name: 'LINE_ITEM_DESCRIPTION', kind: 'text', maxLength: 15360, lengthSure: false, required: 'always' },
  { name: 'LAW_FIRM_ID', kind: 'text', maxLength: 20, lengthSure: true, required: 'always', invoiceLevel: true },
  { name: 'LINE_ITEM_UNIT_COST', kind: 'currency', required: 'not-adjustment' },
  { name: 'TIMEKEEPER_NAME', kind: 'text', maxLength: 30, lengthSure: false, required: 'no' },
  { name: 'TIMEKEEPER_CLASSIFICATION', kind: 'code', maxLength: 10, lengthSure: false, required: 'no' },
  { name: 'CLIENT_MATTER_ID', kind: 'text', maxLength: 20, lengthSure: false, required: 'no' },
];
