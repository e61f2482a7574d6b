import { describe, expect, it } from 'vitest';
import { RULES, type CheckOptions, type GuidelineRule, type InvoiceType, type Severity } from '../src/index.ts';
import { baseRecords, fileText, profileFor, run, XML_OK, type Rec } from './helpers.ts';

/** One small generated file: records mutated from the valid base, or raw text/bytes. */
interface Input {
  format?: '98B' | '98BI';
  token?: string;
  edit?: (records: Rec[]) => Rec[] | void;
  text?: string | Uint8Array;
  type?: InvoiceType;
  options?: Partial<CheckOptions>;
}

interface Case {
  code: string;
  /** Expected severity of the triggered finding. */
  severity: Severity;
  trigger: Input;
  clean: Input;
}

const set = (i: number, values: Rec) => (rs: Rec[]) => {
  Object.assign(rs[i]!, values);
};
const setAll = (values: Rec) => (rs: Rec[]) => {
  for (const r of rs) Object.assign(r, values);
};
const feeOnly = (values: Rec) => (rs: Rec[]) => [{ ...rs[0]!, INVOICE_TOTAL: '700', ...values }];
const annuity = { CLIENT_MATTER_ID: 'PAT-1[20250315]' };

function build(input: Input): string | Uint8Array {
  if (input.text !== undefined) return input.text;
  const format = input.format ?? '98B';
  const records = baseRecords(format);
  const edited = input.edit?.(records) ?? records;
  return fileText(edited, format, input.token);
}

const CASES: Case[] = [
  { code: 'FMT-001', severity: 'error', trigger: { token: 'LEDES1998Z' }, clean: {} },
  { code: 'FMT-002', severity: 'warning', trigger: { format: '98BI', token: 'LEDES1998BI V2' }, clean: { format: '98BI' } },
  {
    code: 'FMT-003', severity: 'error',
    trigger: { text: fileText(baseRecords()).replace('INVOICE_DATE|INVOICE_NUMBER', 'INVOICE_NUMBER|INVOICE_DATE') },
    clean: {},
  },
  { code: 'FMT-004', severity: 'error', trigger: { text: fileText(baseRecords()).replace('Copies|', 'Copies|extra|') }, clean: {} },
  {
    code: 'FMT-005', severity: 'error',
    trigger: { text: fileText(baseRecords()).replace('CM-1[]\r\n', 'CM-1\r\n') },
    clean: { text: fileText(baseRecords()).replace('CM-1[]\r\n', 'CM-1[]  \r\n') },
  },
  { code: 'FMT-006', severity: 'warning', trigger: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'Recherche d’antériorités' }) }, clean: { edit: set(0, { LINE_ITEM_DESCRIPTION: "Prior art search (inventor's notes)" }) } },
  { code: 'FMT-007', severity: 'error', trigger: { edit: set(1, { CLIENT_MATTER_ID: 'NULL' }) }, clean: { edit: set(1, { CLIENT_MATTER_ID: 'NULLABLE' }) } },
  { code: 'FMT-008', severity: 'error', trigger: { edit: () => [] }, clean: {} },
  {
    code: 'FMT-009', severity: 'error',
    trigger: { text: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fileText(baseRecords()), 'utf16le')]) },
    clean: { text: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(fileText(baseRecords()), 'utf8')]) },
  },
  {
    code: 'FMT-010', severity: 'error',
    trigger: { text: Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256) },
    clean: {},
  },
  {
    code: 'FMT-011', severity: 'error',
    trigger: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'x'.repeat(600) }), options: { maxLineBytes: 500 } },
    clean: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'x'.repeat(100) }), options: { maxLineBytes: 500 } },
  },
  {
    code: 'FMT-012', severity: 'error',
    trigger: { text: fileText(baseRecords()).replace('\r\n1', '\r\n\r\n1').replace(/(\r\n)(20250210\|INV-1\|C1\|M1\|705\|20250101\|20250131\|Services rendered\|2)/, '$1   $1$2') },
    clean: { text: `${fileText(baseRecords())}\r\n \r\n\r\n` },
  },
  { code: 'FMT-013', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'Research\0prior art' }) }, clean: {} },
  { code: 'FMT-014', severity: 'warning', trigger: { text: `\r\n\r\n${fileText(baseRecords())}` }, clean: { text: `${fileText(baseRecords())}\r\n\r\n` } },
  // A JSON file renamed .txt: the one verdict (a LEDES file whose first line and header are damaged is not one: FMT-001).
  {
    code: 'FMT-015', severity: 'error',
    trigger: { text: JSON.stringify([{ invoice: 'INV-1', total: 845, lines: [{ units: 2 }] }], null, 2) },
    clean: { text: fileText(baseRecords()).replace(/^LEDES1998B\[\]/, 'X[]') },
  },

  { code: 'FLD-001', severity: 'error', trigger: { edit: setAll({ INVOICE_DATE: '' }) }, clean: { edit: (rs) => [...rs, { ...rs[1]!, LINE_ITEM_NUMBER: '3', 'EXP/FEE/INV_ADJ_TYPE': 'IE', LINE_ITEM_NUMBER_OF_UNITS: '', LINE_ITEM_UNIT_COST: '', LINE_ITEM_EXPENSE_CODE: '', LINE_ITEM_ADJUSTMENT_AMOUNT: '0', LINE_ITEM_TOTAL: '0', LINE_ITEM_DESCRIPTION: 'Courtesy adjustment' }] } },
  { code: 'FLD-002', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_DATE: '20250230' }) }, clean: { edit: setAll({ BILLING_START_DATE: '20240201', LINE_ITEM_DATE: '20240229' }) } },
  { code: 'FLD-003', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_UNIT_COST: '1,350.00' }) }, clean: { edit: set(0, { LINE_ITEM_ADJUSTMENT_AMOUNT: '-0', LINE_ITEM_UNIT_COST: '350.' }) } },
  { code: 'FLD-004', severity: 'warning', trigger: { edit: set(1, { LINE_ITEM_UNIT_COST: '0.500' }) }, clean: { edit: set(1, { LINE_ITEM_UNIT_COST: '0.50' }) } },
  { code: 'FLD-005', severity: 'error', trigger: { edit: setAll({ INVOICE_NUMBER: 'X'.repeat(21) }) }, clean: { edit: setAll({ INVOICE_NUMBER: 'X'.repeat(20) }) } },
  { code: 'FLD-006', severity: 'error', trigger: { edit: set(1, { 'EXP/FEE/INV_ADJ_TYPE': 'X' }) }, clean: {} },
  { code: 'FLD-007', severity: 'error', trigger: { format: '98BI', edit: setAll({ INVOICE_CURRENCY: 'EUX' }) }, clean: { format: '98BI' } },
  { code: 'FLD-008', severity: 'warning', trigger: { format: '98BI', edit: setAll({ LAW_FIRM_COUNTRY: 'France' }) }, clean: { format: '98BI' } },
  { code: 'FLD-009', severity: 'error', trigger: { format: '98BI', edit: set(0, { ACCOUNT_TYPE: 'X' }) }, clean: { format: '98BI', edit: set(0, { ACCOUNT_TYPE: 'T' }) } },
  { code: 'FLD-010', severity: 'warning', trigger: { edit: set(0, { LINE_ITEM_NUMBER_OF_UNITS: '2.25', LINE_ITEM_TOTAL: '787.5' }) }, clean: { edit: set(0, { LINE_ITEM_NUMBER_OF_UNITS: '2.00', LINE_ITEM_TOTAL: '700' }) } },
  { code: 'FLD-011', severity: 'error', trigger: { edit: set(1, { LINE_ITEM_NUMBER_OF_UNITS: '0', LINE_ITEM_TOTAL: '0' }) }, clean: {} },

  { code: 'MTH-001', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_TOTAL: '701' }) }, clean: { edit: feeOnly({ LINE_ITEM_NUMBER_OF_UNITS: '0.3', LINE_ITEM_UNIT_COST: '333.33', LINE_ITEM_TOTAL: '100.00', INVOICE_TOTAL: '100.00' }) } },
  { code: 'MTH-002', severity: 'error', trigger: { edit: setAll({ INVOICE_TOTAL: '706' }) }, clean: {} },
  {
    code: 'MTH-003', severity: 'warning',
    trigger: { edit: set(0, { LINE_ITEM_TOTAL: '700.01' }), options: { profile: profileFor('patent', { totalsToleranceMinor: 1 }) } },
    clean: { edit: set(0, { LINE_ITEM_TOTAL: '700.01' }) },
  },
  { code: 'MTH-004', severity: 'error', trigger: { format: '98BI', edit: (rs) => { Object.assign(rs[0]!, { LINE_ITEM_TAX_TOTAL: '141', LINE_ITEM_TOTAL: '841' }); for (const r of rs) Object.assign(r, { INVOICE_TOTAL: '846', INVOICE_TAX_TOTAL: '141' }); } }, clean: { format: '98BI' } },
  { code: 'MTH-005', severity: 'error', trigger: { format: '98BI', edit: setAll({ INVOICE_TAX_TOTAL: '150', INVOICE_NET_TOTAL: '695' }) }, clean: { format: '98BI' } },
  { code: 'MTH-006', severity: 'error', trigger: { format: '98BI', edit: setAll({ INVOICE_NET_TOTAL: '700' }) }, clean: { format: '98BI' } },
  { code: 'MTH-007', severity: 'warning', trigger: { format: '98BI', edit: set(0, { LINE_ITEM_TAX_RATE: '20' }) }, clean: { format: '98BI', edit: set(0, { LINE_ITEM_TAX_RATE: '0.20' }) } },

  { code: 'CON-001', severity: 'error', trigger: { edit: set(1, { INVOICE_DATE: '20250211' }) }, clean: { edit: set(1, { LAW_FIRM_MATTER_ID: 'M2', INVOICE_TOTAL: '705.00' }) } },
  { code: 'CON-002', severity: 'error', trigger: { edit: set(1, { LINE_ITEM_NUMBER: '1' }) }, clean: { edit: (rs) => [feeOnly({})(rs)[0]!, { ...rs[0]!, INVOICE_NUMBER: 'INV-2', INVOICE_TOTAL: '700' }] } },
  { code: 'CON-003', severity: 'error', trigger: { edit: setAll({ BILLING_START_DATE: '20250201' }) }, clean: { edit: setAll({ BILLING_START_DATE: '20250131', BILLING_END_DATE: '20250131', LINE_ITEM_DATE: '20250131' }) } },
  { code: 'CON-004', severity: 'warning', trigger: { edit: set(0, { LINE_ITEM_DATE: '20250201' }) }, clean: { edit: set(0, { LINE_ITEM_DATE: '20250131' }) } },
  { code: 'CON-005', severity: 'warning', trigger: { edit: setAll({ INVOICE_DATE: '20250130' }) }, clean: { edit: setAll({ INVOICE_DATE: '20250131' }) } },
  { code: 'CON-006', severity: 'warning', trigger: { edit: setAll({ INVOICE_DATE: '20250602' }) }, clean: { edit: setAll({ INVOICE_DATE: '20250601' }) } },
  {
    code: 'CON-007', severity: 'error',
    trigger: { options: { acceptedInvoices: async (n: string, client: string) => n === 'INV-1' && client === 'C1' } },
    clean: { options: { acceptedInvoices: new Set(['INV-2']) } },
  },

  { code: 'COD-001', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_TASK_CODE: '', LINE_ITEM_ACTIVITY_CODE: '' }) }, clean: { edit: set(0, { LINE_ITEM_TASK_CODE: '', LINE_ITEM_ACTIVITY_CODE: '' }), options: { profile: profileFor('patent', { requireTaskCode: false, requireActivityCode: false }) } } },
  { code: 'COD-002', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_TASK_CODE: 'P210' }) }, clean: { edit: set(0, { LINE_ITEM_TASK_CODE: 'P210' }), options: { profile: profileFor('patent', { extraTaskCodes: ['P210'] }) } } },
  { code: 'COD-003', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_ACTIVITY_CODE: 'A199' }) }, clean: { edit: set(0, { LINE_ITEM_ACTIVITY_CODE: 'A111' }) } },
  { code: 'COD-004', severity: 'error', trigger: { edit: set(0, { LINE_ITEM_TASK_CODE: '' }) }, clean: {} },
  { code: 'COD-005', severity: 'error', trigger: { edit: set(1, { LINE_ITEM_EXPENSE_CODE: 'E199' }) }, clean: { edit: set(1, { LINE_ITEM_EXPENSE_CODE: 'E131' }) } },
  { code: 'COD-006', severity: 'warning', trigger: { edit: set(1, { LINE_ITEM_TASK_CODE: 'L120' }) }, clean: {} },

  { code: 'TK-001', severity: 'error', trigger: { edit: set(0, { TIMEKEEPER_ID: '' }) }, clean: {} },
  { code: 'TK-002', severity: 'warning', trigger: { edit: set(0, { TIMEKEEPER_NAME: 'Jane Doe' }) }, clean: { edit: set(0, { TIMEKEEPER_NAME: 'Doe,Jane' }) } },
  { code: 'TK-003', severity: 'error', trigger: { edit: set(0, { TIMEKEEPER_CLASSIFICATION: 'BOSS' }) }, clean: { edit: set(0, { TIMEKEEPER_CLASSIFICATION: 'ASSOC' }) } },
  {
    code: 'TK-004', severity: 'warning',
    trigger: { edit: (rs) => [{ ...rs[0]!, INVOICE_TOTAL: '1500' }, { ...rs[0]!, INVOICE_TOTAL: '1500', LINE_ITEM_NUMBER: '2', LINE_ITEM_UNIT_COST: '400', LINE_ITEM_TOTAL: '800' }] },
    clean: { edit: (rs) => [{ ...rs[0]!, INVOICE_TOTAL: '1400' }, { ...rs[0]!, INVOICE_TOTAL: '1400', LINE_ITEM_NUMBER: '2', LINE_ITEM_UNIT_COST: '350.00' }] },
  },

  { code: 'ANN-001', severity: 'error', trigger: { type: 'annuites' }, clean: { type: 'annuites', edit: setAll(annuity) } },
  { code: 'ANN-002', severity: 'error', trigger: { type: 'annuites', edit: setAll({ CLIENT_MATTER_ID: 'PAT-1[20250230]' }) }, clean: { type: 'annuites', edit: setAll(annuity) } },
  { code: 'ANN-003', severity: 'error', trigger: { type: 'annuites', edit: setAll({ CLIENT_MATTER_ID: 'PATENT-1234[20250315]' }) }, clean: { type: 'annuites', edit: setAll({ CLIENT_MATTER_ID: 'PATENT-123[20250315]' }) } },
  {
    code: 'ANN-004', severity: 'warning',
    trigger: { type: 'annuites', edit: (rs) => { setAll(annuity)(rs); Object.assign(rs[1]!, { LINE_ITEM_DESCRIPTION: 'EP renewal fee, 5th year', LINE_ITEM_EXPENSE_CODE: 'E129' }); } },
    clean: { type: 'annuites', edit: (rs) => { setAll(annuity)(rs); Object.assign(rs[1]!, { LINE_ITEM_DESCRIPTION: 'EP renewal fee, 5th year', LINE_ITEM_EXPENSE_CODE: 'E130' }); } },
  },
  { code: 'GDL-001', severity: 'warning', trigger: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'Review; draft claims; call client; email' }) }, clean: {} },
];


/** The client's guidelines (GDL-1xx): one version in force from 2024, the given rules (each at `error`). */
const gdl = (...rules: GuidelineRule[]): Partial<CheckOptions> => ({ guidelines: { versions: [{ id: 'v', version: 1, effective_from: '20240101', rules }] } });
const E_ = 'error' as const;
const twice = (rs: Rec[]) => [rs[0]!, rs[1]!, { ...rs[0]!, LINE_ITEM_NUMBER: '3' }];
CASES.push(
  { code: 'GDL-101', severity: 'error', trigger: { options: gdl({ kind: 'max_rate', ref: 'r', severity: E_, classification: 'PARTNR', max: '349.99' }) }, clean: { options: gdl({ kind: 'max_rate', ref: 'r', severity: E_, classification: 'PARTNR', max: '350' }) } },
  { code: 'GDL-102', severity: 'error', trigger: { options: gdl({ kind: 'max_units_per_day', ref: 'r', severity: E_, max: '1.9' }) }, clean: { options: gdl({ kind: 'max_units_per_day', ref: 'r', severity: E_, max: '2' }) } },
  {
    code: 'GDL-103', severity: 'error',
    trigger: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'Draft claims; call client' }), options: gdl({ kind: 'block_billing', ref: 'r', severity: E_, min_tasks: 2, min_units: '1' }) },
    clean: { edit: set(0, { LINE_ITEM_DESCRIPTION: 'Draft claims; call client' }), options: gdl({ kind: 'block_billing', ref: 'r', severity: E_, min_tasks: 3, min_units: '1' }) },
  },
  { code: 'GDL-104', severity: 'error', trigger: { options: gdl({ kind: 'code', ref: 'r', severity: E_, code: 'E101' }) }, clean: { options: gdl({ kind: 'code', ref: 'r', severity: E_, code: 'E102' }) } },
  { code: 'GDL-105', severity: 'error', trigger: { options: gdl({ kind: 'code', ref: 'r', severity: E_, code: 'L120', matters: ['X'] }) }, clean: { options: gdl({ kind: 'code', ref: 'r', severity: E_, code: 'L120', matters: ['CM-1'] }) } },
  { code: 'GDL-106', severity: 'error', trigger: { options: gdl({ kind: 'expense_cap', ref: 'r', severity: E_, code: 'E101', max_unit_cost: '0.49' }) }, clean: { options: gdl({ kind: 'expense_cap', ref: 'r', severity: E_, code: 'E101', max_unit_cost: '0.50' }) } },
  { code: 'GDL-107', severity: 'error', trigger: { options: gdl({ kind: 'receipt', ref: 'r', severity: E_, code: 'E101' }) }, clean: { options: gdl({ kind: 'receipt', ref: 'r', severity: E_, code: 'E124' }) } },
  { code: 'GDL-108', severity: 'error', trigger: { options: gdl({ kind: 'max_billing_period', ref: 'r', severity: E_, max_days: 30 }) }, clean: { options: gdl({ kind: 'max_billing_period', ref: 'r', severity: E_, max_days: 31 }) } },
  { code: 'GDL-109', severity: 'error', trigger: { options: gdl({ kind: 'max_upload_delay', ref: 'r', severity: E_, max_days: 120 }) }, clean: { options: gdl({ kind: 'max_upload_delay', ref: 'r', severity: E_, max_days: 121 }) } },
  { code: 'GDL-110', severity: 'error', trigger: { edit: twice, options: gdl({ kind: 'duplicate_line', ref: 'r', severity: E_ }) }, clean: { options: gdl({ kind: 'duplicate_line', ref: 'r', severity: E_ }) } },
  {
    code: 'GDL-111', severity: 'error',
    trigger: { options: { guidelines: { ...gdl({ kind: 'duplicate_line', ref: 'r', severity: E_ }).guidelines!, history: { lookup: (_u, lines) => ({ units: [], lines }) } } } },
    clean: { options: { guidelines: { ...gdl({ kind: 'duplicate_line', ref: 'r', severity: E_ }).guidelines!, history: { lookup: () => ({ units: [], lines: [] }) } } } },
  },
);

CASES.push(
  { code: 'XML-001', severity: 'error', trigger: { text: XML_OK.replace('?>', '?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>') }, clean: { text: XML_OK } },
  { code: 'XML-002', severity: 'error', trigger: { text: XML_OK.replace('</matter>', '</mater>') }, clean: { text: XML_OK } },
  { code: 'XML-003', severity: 'error', trigger: { text: XML_OK.replaceAll('ledesxmlebilling2.1', 'ledesxmlebilling1.9') }, clean: { text: XML_OK.replaceAll('ledesxmlebilling2.1', 'ledesxmlebilling2.2') } },
  { code: 'XML-004', severity: 'error', trigger: { text: XML_OK.replace('<inv_id>INV-1</inv_id>', '') }, clean: { text: XML_OK } },
  { code: 'XML-005', severity: 'error', trigger: { text: XML_OK.replace('<inv_total_fees>700<', '<inv_total_fees>710<') }, clean: { text: XML_OK } },
  { code: 'XML-006', severity: 'error', trigger: { text: XML_OK.replace('<file_item_nbr>11<', '<file_item_nbr>10<') }, clean: { text: XML_OK } },
);

async function findings(input: Input) {
  return run(build(input), { type: input.type, ...input.options });
}

describe('rule catalogue: every rule has a triggering and a clean generated file', () => {
  it('covers every code of the catalogue', () => {
    expect(new Set(CASES.map((c) => c.code))).toEqual(new Set(RULES.map((r) => r.code)));
  });

  it('the base files are clean (98B and 98BI, patent and annuites)', async () => {
    for (const input of [{}, { format: '98BI' as const }, { type: 'annuites' as const, edit: setAll(annuity) }, { text: XML_OK }]) {
      const r = await findings(input);
      expect(r.flat, JSON.stringify(input)).toEqual([]);
      expect(r.summary.accepted).toBe(true);
    }
  });

  it.each(CASES)('$code is triggered', async (c) => {
    const r = await findings(c.trigger);
    const hits = r.flat.filter((f) => f.code === c.code);
    expect(hits.length, JSON.stringify(r.flat)).toBeGreaterThan(0);
    expect(hits[0]!.severity).toBe(c.severity);
    if (c.severity === 'error') expect(r.summary.accepted).toBe(false);
  });

  it.each(CASES)('$code is not triggered by the near-miss file', async (c) => {
    const r = await findings(c.clean);
    expect(r.codes.has(c.code), JSON.stringify(r.flat)).toBe(false);
  });
});

describe('issue 12: rules checked against files written by others', () => {
  it('FLD-004: more than 4 decimals is an error (the formats allow 4); more than the profile\'s but at most 4 stays a warning', async () => {
    const six = await findings({ edit: setAll({ INVOICE_TOTAL: '705.000000' }) });
    expect(six.flat.filter((f) => f.code === 'FLD-004').map((f) => f.severity)).toContain('error');
    expect(six.summary.accepted).toBe(false);
    const four = await findings({ edit: setAll({ INVOICE_TOTAL: '705.0000' }) });
    const fourSeverities = four.flat.filter((f) => f.code === 'FLD-004').map((f) => f.severity);
    expect(fourSeverities.length).toBeGreaterThan(0);
    expect(fourSeverities.every((s) => s === 'warning')).toBe(true);
    expect(four.summary.accepted, JSON.stringify(four.flat)).toBe(true);
  });

  it('CON-005 does not depend on INVOICE_NUMBER: an invoice date before the end of the period is flagged without one', async () => {
    const r = await findings({ edit: setAll({ INVOICE_DATE: '20250130', INVOICE_NUMBER: '' }) });
    expect(r.codes.has('FLD-001')).toBe(true); // the missing number itself
    expect(r.codes.has('CON-005'), JSON.stringify(r.flat)).toBe(true);
    const clean = await findings({ edit: setAll({ INVOICE_DATE: '20250131', INVOICE_NUMBER: '' }) });
    expect(clean.codes.has('CON-005')).toBe(false);
  });

  it('findings carry the values that decide them: amounts (declared, computed, difference), counts, lengths, codes and tokens', async () => {
    const valuesOf = async (input: Input, code: string) => {
      const r = await run(build(input), { type: input.type, ...input.options });
      return r.result.errors.concat(r.result.warnings).flatMap((l) => l.items).filter((i) => i.code_ledes === code).map(({ found, expected, difference }) => ({ found, expected, difference }));
    };
    // The base invoice's lines add up to 705.
    expect(await valuesOf({ edit: setAll({ INVOICE_TOTAL: '715.50' }) }, 'MTH-002')).toEqual([{ found: '715.50', expected: '705', difference: '10.50' }]);
    expect(await valuesOf({ text: fileText(baseRecords()).replace('Copies|', 'Copies|extra|') }, 'FMT-004')).toEqual([{ found: '25', expected: '24', difference: undefined }]);
    expect(await valuesOf({ token: 'LEDES1998Z' }, 'FMT-001')).toEqual([{ found: 'LEDES1998Z', expected: undefined, difference: undefined }]);
    expect(await valuesOf({ edit: set(0, { CLIENT_ID: 'C'.repeat(23) }) }, 'FLD-005')).toEqual([{ found: '23', expected: '20', difference: undefined }]);
    expect(await valuesOf({ edit: set(0, { LINE_ITEM_TASK_CODE: 'P210' }) }, 'COD-002')).toEqual([{ found: 'P210', expected: undefined, difference: undefined }]);
    // The first character at fault, with its code point (a control character by its code point alone).
    expect(await valuesOf({ edit: set(0, { LINE_ITEM_DESCRIPTION: 'Recherche d’antériorités' }) }, 'FMT-006')).toEqual([{ found: '’ (U+2019)', expected: undefined, difference: undefined }]);
    expect(await valuesOf({ edit: set(0, { LINE_ITEM_DESCRIPTION: 'Research\x07bell' }) }, 'FMT-006')).toEqual([{ found: 'U+0007', expected: undefined, difference: undefined }]);
  });

  it('98BI LAW_FIRM_ID: up to three identifiers of at most 20 characters each, separated by ~', async () => {
    const long = 'F'.repeat(21);
    for (const id of [long, `AB~${long}`, 'A~B~C~D']) {
      const r = await findings({ format: '98BI', edit: setAll({ LAW_FIRM_ID: id }) });
      expect(r.flat.filter((f) => f.code === 'FLD-005' && f.champ === 'LAW_FIRM_ID').length, id).toBeGreaterThan(0);
    }
    for (const id of ['F'.repeat(20), `${'A'.repeat(20)}~${'B'.repeat(20)}~${'C'.repeat(20)}`]) {
      const r = await findings({ format: '98BI', edit: setAll({ LAW_FIRM_ID: id }) });
      expect(r.flat.filter((f) => f.code === 'FLD-005'), id).toEqual([]);
    }
  });
});

describe('E/W rules take the alternate severity where the reference says so', () => {
  it('FMT-006: control character is an error, non-ASCII a warning', async () => {
    const r = await findings({ edit: set(0, { LINE_ITEM_DESCRIPTION: 'Research\x07bell' }) });
    expect(r.flat.find((f) => f.code === 'FMT-006')?.severity).toBe('error');
  });
  it('TK-003: pre-2014 classification PT is a warning', async () => {
    const r = await findings({ edit: set(0, { TIMEKEEPER_CLASSIFICATION: 'PT' }) });
    expect(r.flat.filter((f) => f.code === 'TK-003').map((f) => f.severity)).toEqual(['warning']);
    expect(r.summary.accepted).toBe(true);
  });
  it('COD-002: a phase heading (L100) is a warning', async () => {
    const r = await findings({ edit: set(0, { LINE_ITEM_TASK_CODE: 'L100' }) });
    expect(r.flat.filter((f) => f.code === 'COD-002').map((f) => f.severity)).toEqual(['warning']);
  });
  it('FLD-003: a leading + is a warning', async () => {
    const r = await findings({ edit: set(0, { LINE_ITEM_UNIT_COST: '+350' }) });
    expect(r.flat.filter((f) => f.code === 'FLD-003').map((f) => f.severity)).toEqual(['warning']);
  });
  it('profile severity overrides win (MUC makes FMT-006 an error)', async () => {
    const muc = (await import('../src/index.ts')).defaultProfile('MUC', 'patent')!;
    const r = await findings({ edit: set(0, { LINE_ITEM_DESCRIPTION: 'Recherche d’antériorités' }), options: { profile: muc } });
    expect(r.flat.find((f) => f.code === 'FMT-006')?.severity).toBe('error');
  });
});
