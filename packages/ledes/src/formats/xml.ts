import { SaxesParser } from 'saxes';
import type { Finding } from '../findings.ts';
import { add, mul, parseDecimal, sub, ZERO, type Decimal } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import { amountValues, verdict } from '../rules/math.ts';
import { PIPE_FORMATS, type FormatId, type PipeFormat } from './pipe.ts';

/**
 * LEDES XML E-Billing 2.0 / 2.1 / 2.2, checked while streaming with saxes. No public sample
 * or XSD was available: element names below follow the LOC naming seen in vendor material
 * (lf_id, inv_id, file_item_nbr…); the totals' names are [?] and kept here, as data, so
 * they can be corrected against the XSD without touching the logic.
 */
const ROOT = /^ledesxmlebilling(2\.[012])$/i;
const VERSIONS: Readonly<Record<string, FormatId>> = { '2.0': 'LEDES_XML_2.0', '2.1': 'LEDES_XML_2.1', '2.2': 'LEDES_XML_2.2' };

/** Segments that must appear at least once in a file. */
const XML_REQUIRED_SEGMENTS: readonly string[] = ['firm', 'client', 'invoice', 'matter'];
/** Elements required inside each segment. */
const XML_REQUIRED_ELEMENTS: Readonly<Record<string, readonly string[]>> = {
  firm: ['lf_id'],
  client: ['cl_id'],
  invoice: ['inv_id', 'inv_date'],
  matter: ['lf_matter_id'],
  fee: ['total_amount'],
  expense: ['total_amount'],
};
/** Line items: each is one "data line" of the result, numbered in document order. */
const ITEMS: ReadonlySet<string> = new Set(['fee', 'expense']);
const ITEM_NUMBERS: readonly string[] = ['units', 'rate', 'base_amount', 'discount_amount', 'total_amount', 'tax_amount'];

/** Invoice-level totals compared with the sum of the items ([?] names, aliases accepted). */
const XML_INVOICE_TOTALS: Readonly<Record<'fees' | 'expenses' | 'tax' | 'net', readonly string[]>> = {
  fees: ['inv_total_fees', 'inv_fee_total'],
  expenses: ['inv_total_expenses', 'inv_expense_total'],
  tax: ['inv_total_tax', 'inv_tax_total'],
  net: ['inv_total_net_due'],
};
const INVOICE_DISCOUNT = 'inv_generic_discount';

/**
 * An XML item read as a LEDES 1998B record (`XML_ITEM_FORMAT`'s columns), so the rules that read a line by its
 * 98B columns (the client guidelines, the spend rollup: issue 31) read XML items too. Each 98B column takes the
 * first element of its list found on the item, else on its enclosing segments (nearest first). Names are kept
 * here as data, like the totals' above ([?] where no public XSD confirmed them). Dates become YYYYMMDD.
 */
export const XML_ITEM_FORMAT: PipeFormat = PIPE_FORMATS.find((f) => f.id === 'LEDES1998B')!;
const XML_ITEM_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  INVOICE_DATE: ['inv_date'],
  INVOICE_NUMBER: ['inv_id'],
  CLIENT_ID: ['cl_id'],
  LAW_FIRM_MATTER_ID: ['lf_matter_id'],
  INVOICE_TOTAL: ['inv_total_net_due'],
  BILLING_START_DATE: ['inv_start_date', 'billing_start_date'],
  BILLING_END_DATE: ['inv_end_date', 'billing_end_date'],
  INVOICE_DESCRIPTION: ['inv_desc', 'inv_description'],
  LINE_ITEM_NUMBER: ['file_item_nbr'],
  LINE_ITEM_NUMBER_OF_UNITS: ['units'],
  LINE_ITEM_ADJUSTMENT_AMOUNT: ['discount_amount'],
  LINE_ITEM_TOTAL: ['total_amount'],
  LINE_ITEM_DATE: ['charge_date', 'line_item_date'],
  LINE_ITEM_TASK_CODE: ['task_code', 'acca_task'],
  LINE_ITEM_EXPENSE_CODE: ['expense_code', 'exp_code', 'acca_expense'],
  LINE_ITEM_ACTIVITY_CODE: ['activity_code', 'acca_activity'],
  TIMEKEEPER_ID: ['tk_id'],
  LINE_ITEM_DESCRIPTION: ['description'],
  LAW_FIRM_ID: ['lf_id'],
  LINE_ITEM_UNIT_COST: ['rate'],
  TIMEKEEPER_NAME: ['tk_name'],
  TIMEKEEPER_CLASSIFICATION: ['tk_level', 'tk_classification'],
  CLIENT_MATTER_ID: ['cl_matter_id'],
};
const XML_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const XML_DATE_COLUMNS: ReadonlySet<string> = new Set(['INVOICE_DATE', 'BILLING_START_DATE', 'BILLING_END_DATE', 'LINE_ITEM_DATE']);

/** An XML item as a 98B record: see `XML_ITEM_FORMAT`. */
export interface XmlItem {
  /** Values in `XML_ITEM_FORMAT.fields` order ('' when absent). */
  readonly fields: string[];
  /** 'F' for a fee, 'E' for an expense. */
  readonly lineType: 'F' | 'E';
  /** The enclosing invoice (one object per invoice segment), or undefined outside one. */
  readonly invoice: object | undefined;
}

export interface XmlCheckOptions {
  readonly maxTextBytes: number;
  readonly profile: LedesProfile;
  /**
   * Each item, with its findings and its values as a 98B record. `onRecord`, when given, runs first and may add
   * findings to `out` (the client guidelines).
   */
  readonly onItem: (line: number, findings: readonly Finding[], item: XmlItem) => void;
  readonly onRecord?: (line: number, item: XmlItem, out: Finding[]) => void;
}

export interface XmlCheckResult {
  readonly format: FormatId | null;
  readonly late: Finding[];
  readonly items: number;
  readonly invoices: { invoice_number: string; client_id: string; total: string | null }[];
}

interface Segment {
  readonly name: string;
  readonly children: Set<string>;
  readonly values: Map<string, string>;
}

interface InvoiceSums {
  fees: Decimal;
  expenses: Decimal;
  tax: Decimal;
  bad: boolean;
}

class Stop extends Error {}

/** The item's values as a 98B record: each column from the item, else from the nearest enclosing segment. */
function itemOf(stack: readonly Segment[], seg: Segment): XmlItem {
  const names = XML_ITEM_FORMAT.names;
  const fields = new Array<string>(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    let value = '';
    const elements = XML_ITEM_COLUMNS[name];
    if (elements) {
      search: for (let s = stack.length; s >= 0; s--) {
        const values = (s === stack.length ? seg : stack[s]!).values;
        for (const e of elements) {
          const v = values.get(e);
          if (v !== undefined) {
            value = v;
            break search;
          }
        }
      }
    }
    if (value !== '' && XML_DATE_COLUMNS.has(name)) {
      const m = XML_DATE.exec(value);
      // Not a date: kept as written, which no date rule reads as one.
      if (m) value = `${m[1]}${m[2]}${m[3]}`;
    }
    fields[i] = value;
  }
  fields[XML_ITEM_FORMAT.index.get('EXP/FEE/INV_ADJ_TYPE')!] = seg.name === 'fee' ? 'F' : 'E';
  return { fields, lineType: seg.name === 'fee' ? 'F' : 'E', invoice: stack.findLast((s) => s.name === 'invoice') };
}

export async function checkXml(chunks: AsyncIterable<Buffer>, options: XmlCheckOptions): Promise<XmlCheckResult> {
  const late: Finding[] = [];
  const fileFinding = (code: Finding['code'], champ: string): void => {
    if (!late.some((f) => f.code === code && f.champ === champ)) late.push({ line: 'file', code, champ });
  };
  const parser = new SaxesParser({ xmlns: false });
  const stack: Segment[] = [];
  const seen = new Set<string>();
  const fileItemNumbers = new Set<string>();
  const invoices: XmlCheckResult['invoices'] = [];
  let format: FormatId | null = null;
  let items = 0;
  let text = '';
  let clientId = '';
  let sums: InvoiceSums = { fees: ZERO, expenses: ZERO, tax: ZERO, bad: false };
  /** The current invoice's first item line: its totals' findings go there, as a pipe invoice's do. */
  let invoiceFirstItem: number | null = null;

  const amount = (seg: Segment, name: string): Decimal | undefined => {
    const v = seg.values.get(name);
    if (v === undefined || v === '') return undefined;
    const n = parseDecimal(v);
    return n.ok ? n.value : undefined;
  };

  const closeItem = (seg: Segment): void => {
    const line = items++;
    if (stack.some((s) => s.name === 'invoice')) invoiceFirstItem ??= line;
    const out: Finding[] = [];
    for (const required of XML_REQUIRED_ELEMENTS[seg.name] ?? []) {
      if (!seg.children.has(required)) out.push({ line, code: 'XML-004', champ: `${seg.name}/${required}` });
    }
    for (const name of ITEM_NUMBERS) {
      const v = seg.values.get(name);
      if (v !== undefined && !parseDecimal(v).ok) out.push({ line, code: 'FLD-003', champ: name });
    }
    const nbr = seg.values.get('file_item_nbr');
    if (nbr !== undefined) {
      if (fileItemNumbers.has(nbr)) out.push({ line, code: 'XML-006', champ: 'file_item_nbr' });
      fileItemNumbers.add(nbr);
    }
    const units = amount(seg, 'units');
    const rate = amount(seg, 'rate');
    const base = amount(seg, 'base_amount');
    const discount = amount(seg, 'discount_amount') ?? ZERO;
    const total = amount(seg, 'total_amount');
    const tax = amount(seg, 'tax_amount') ?? ZERO;
    if (units && rate && base && verdict(base, mul(units, rate), options.profile) === 'mismatch') {
      out.push({ line, code: 'MTH-001', champ: 'base_amount', values: amountValues(base, mul(units, rate)) });
    }
    if (base && total && verdict(total, sub(base, discount), options.profile) === 'mismatch') {
      out.push({ line, code: 'MTH-001', champ: 'total_amount', values: amountValues(total, sub(base, discount)) });
    }
    if (total) {
      if (seg.name === 'fee') sums.fees = add(sums.fees, total);
      else sums.expenses = add(sums.expenses, total);
      sums.tax = add(sums.tax, tax);
    } else {
      sums.bad = true;
    }
    const item = itemOf(stack, seg);
    options.onRecord?.(line, item, out);
    options.onItem(line, out, item);
  };

  const closeInvoice = (seg: Segment): void => {
    const declared = (names: readonly string[]): Decimal | undefined => {
      for (const n of names) {
        const d = amount(seg, n);
        if (d) return d;
      }
      return undefined;
    };
    const fees = declared(XML_INVOICE_TOTALS.fees);
    const expenses = declared(XML_INVOICE_TOTALS.expenses);
    const tax = declared(XML_INVOICE_TOTALS.tax);
    const net = declared(XML_INVOICE_TOTALS.net);
    if (!sums.bad) {
      const check = (d: Decimal | undefined, exact: Decimal, champ: string): void => {
        // On the invoice's first item (the file when it has none): two invoices' totals never merge into one finding.
        if (d && verdict(d, exact, options.profile) === 'mismatch') late.push({ line: invoiceFirstItem ?? 'file', code: 'XML-005', champ, values: amountValues(d, exact) });
      };
      check(fees, sums.fees, XML_INVOICE_TOTALS.fees[0]!);
      check(expenses, sums.expenses, XML_INVOICE_TOTALS.expenses[0]!);
      check(tax, sums.tax, XML_INVOICE_TOTALS.tax[0]!);
      const discount = amount(seg, INVOICE_DISCOUNT) ?? ZERO;
      check(net, sub(add(add(sums.fees, sums.expenses), sums.tax), discount), XML_INVOICE_TOTALS.net[0]!);
    }
    invoices.push({ invoice_number: seg.values.get('inv_id') ?? '', client_id: clientId, total: net ? (seg.values.get(XML_INVOICE_TOTALS.net[0]!) ?? null) : null });
    sums = { fees: ZERO, expenses: ZERO, tax: ZERO, bad: false };
    invoiceFirstItem = null;
  };

  parser.on('doctype', () => {
    // DTDs are where entity-expansion and external-entity attacks live: refuse, stop reading.
    fileFinding('XML-001', '(file)');
    throw new Stop();
  });
  parser.on('error', () => {
    fileFinding('XML-002', '(file)');
    throw new Stop();
  });
  parser.on('opentag', (tag) => {
    const name = tag.name.includes(':') ? tag.name.slice(tag.name.indexOf(':') + 1) : tag.name;
    if (stack.length === 0) {
      const m = ROOT.exec(name);
      const version = m?.[1];
      format = version ? (VERSIONS[version] ?? null) : null;
      if (!format) {
        fileFinding('XML-003', name);
        throw new Stop();
      }
    }
    stack.at(-1)?.children.add(name);
    seen.add(name);
    stack.push({ name, children: new Set(), values: new Map() });
    text = '';
  });
  parser.on('text', (t) => {
    if (text.length + t.length > options.maxTextBytes) {
      fileFinding('FMT-011', stack.at(-1)?.name ?? '(file)');
      throw new Stop();
    }
    text += t;
  });
  parser.on('closetag', () => {
    const seg = stack.pop()!;
    const parent = stack.at(-1);
    if (seg.children.size === 0 && parent) {
      parent.values.set(seg.name, text.trim());
      // The client's id precedes its invoices, which need it before the client closes.
      if (seg.name === 'cl_id' && parent.name === 'client') clientId = text.trim();
    }
    text = '';
    if (ITEMS.has(seg.name)) closeItem(seg);
    else if (seg.name === 'invoice') closeInvoice(seg);
    if (seg.name === 'client' || seg.name === 'invoice' || seg.name === 'matter' || seg.name === 'firm') {
      for (const required of XML_REQUIRED_ELEMENTS[seg.name] ?? []) {
        if (!seg.children.has(required)) fileFinding('XML-004', `${seg.name}/${required}`);
      }
    }
  });

  const decoder = new TextDecoder('utf-8');
  let stopped = false;
  try {
    for await (const chunk of chunks) {
      parser.write(decoder.decode(chunk, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    stopped = true;
  }
  if (!stopped && format) {
    for (const segment of XML_REQUIRED_SEGMENTS) if (!seen.has(segment)) fileFinding('XML-004', segment);
  }
  return { format, late, items, invoices };
}
