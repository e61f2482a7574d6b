import { quoted } from '../findings.ts';
import type { Finding } from '../findings.ts';
import { compare, DecimalSum, parseDecimal } from '../money.ts';
import { at, numAt, report, type InvoiceState, type RecordContext } from './context.ts';

function sameValue(kind: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (kind !== 'currency') return false;
  // "1250" and "1250.00" are the same amount.
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x.ok && y.ok && compare(x.value, y.value) === 0;
}

/** Finds or opens the line's invoice; CON-001 and CON-002 against it. */
export function trackInvoice(ctx: RecordContext): void {
  const { file, format, fields } = ctx;
  const { cols } = format;
  const number = at(ctx, cols.invoiceNumber);
  if (number === '') {
    // No invoice to group the line with (FLD-001 says so): its dates are still checked, on the line itself.
    checkInvoiceDates(ctx);
    return;
  }
  const last = file.lastInvoice;
  let inv = last !== undefined && last.number === number ? last : file.invoices.get(number);
  if (!inv) {
    const firstColumns = format.invoiceLevelColumns;
    inv = {
      number,
      clientId: at(ctx, cols.clientId),
      firstLine: ctx.line,
      firstColumns,
      firstValues: firstColumns.map((i) => fields[i]!),
      declaredTotal: numAt(ctx, cols.invoiceTotal),
      declaredTax: numAt(ctx, cols.invoiceTax),
      declaredNet: numAt(ctx, cols.invoiceNet),
      sumLineTotals: new DecimalSum(),
      sumLineTaxes: new DecimalSum(),
      incomplete: false,
      lines: 0,
    };
    file.invoices.set(number, inv);
    checkInvoiceDates(ctx);
  } else {
    const { firstColumns, firstValues } = inv;
    for (let k = 0; k < firstColumns.length; k++) {
      const i = firstColumns[k]!;
      const v = fields[i]!;
      if (v !== firstValues[k] && !sameValue(format.fields[i]!.kind, v, firstValues[k]!)) {
        // This line's value, and the invoice's first line's, which it should repeat.
        report(ctx, 'CON-001', format.fields[i]!.name, undefined, { found: quoted(v), expected: quoted(firstValues[k]!) });
      }
    }
  }
  inv.lines++;
  ctx.invoice = inv;
  file.lastInvoice = inv;

  // Only the current block of the invoice is remembered, so memory stays flat on huge files.
  if (file.blockInvoice !== number) {
    file.blockInvoice = number;
    file.blockLineNumbers = new Set();
  }
  const lineNumber = at(ctx, cols.lineNumber);
  if (lineNumber !== '') {
    const before = file.blockLineNumbers.size;
    file.blockLineNumbers.add(lineNumber);
    if (file.blockLineNumbers.size === before) report(ctx, 'CON-002', 'LINE_ITEM_NUMBER');
  }
}

function validDate(ctx: RecordContext, i: number): string | undefined {
  const v = ctx.fields[i]!;
  return v === '' || ctx.invalid.has(i) ? undefined : v;
}

/** CON-003, CON-005 and CON-006 on the invoice date: once per invoice, on its first line (on every line without an invoice number). */
function checkInvoiceDates(ctx: RecordContext): void {
  const { cols } = ctx.format;
  const start = validDate(ctx, cols.billingStart);
  const end = validDate(ctx, cols.billingEnd);
  const invoiceDate = validDate(ctx, cols.invoiceDate);
  if (start && end && start > end) report(ctx, 'CON-003', 'BILLING_START_DATE');
  if (invoiceDate && end && invoiceDate < end) report(ctx, 'CON-005', 'INVOICE_DATE');
  if (invoiceDate && invoiceDate > ctx.today) report(ctx, 'CON-006', 'INVOICE_DATE');
}

/** CON-004 and CON-006 on the line date. */
export function checkLineDates(ctx: RecordContext): void {
  const { cols } = ctx.format;
  const date = validDate(ctx, cols.date);
  if (!date) return;
  const start = validDate(ctx, cols.billingStart);
  const end = validDate(ctx, cols.billingEnd);
  if ((start && date < start) || (end && date > end)) report(ctx, 'CON-004', 'LINE_ITEM_DATE');
  if (date > ctx.today) report(ctx, 'CON-006', 'LINE_ITEM_DATE');
}

/**
 * Asked once per `batchSize` invoices (default 1,000) of the file, at the end: which of these invoice
 * numbers were already accepted for the client the file is checked for. The engine stays I/O-free;
 * the caller answers a whole batch with one query instead of one round trip per invoice.
 */
export interface AcceptedInvoiceBatchLookup {
  readonly acceptedAmong: (invoiceNumbers: readonly string[]) => Iterable<string> | Promise<Iterable<string>>;
  readonly batchSize?: number;
}

/** Caller-supplied knowledge of invoices already accepted for the client (CON-007). */
export type AcceptedInvoiceLookup =
  | ReadonlySet<string>
  | AcceptedInvoiceBatchLookup
  | ((invoiceNumber: string, clientId: string) => boolean | Promise<boolean>);

const DEFAULT_LOOKUP_BATCH = 1000;

async function knownInvoices(invoices: readonly InvoiceState[], lookup: AcceptedInvoiceLookup): Promise<InvoiceState[]> {
  if (typeof lookup === 'function') {
    const known: InvoiceState[] = [];
    for (const inv of invoices) if (await lookup(inv.number, inv.clientId)) known.push(inv);
    return known;
  }
  if (!('acceptedAmong' in lookup)) return invoices.filter((inv) => lookup.has(inv.number));
  const size = Math.max(1, lookup.batchSize ?? DEFAULT_LOOKUP_BATCH);
  const known: InvoiceState[] = [];
  for (let start = 0; start < invoices.length; start += size) {
    const batch = invoices.slice(start, start + size);
    const hits = new Set(await lookup.acceptedAmong(batch.map((inv) => inv.number)));
    for (const inv of batch) if (hits.has(inv.number)) known.push(inv);
  }
  return known;
}

export async function checkDuplicateInvoices(invoices: Iterable<InvoiceState>, lookup: AcceptedInvoiceLookup | undefined, out: Finding[]): Promise<void> {
  if (!lookup) return;
  for (const inv of await knownInvoices([...invoices], lookup)) out.push({ line: inv.firstLine, code: 'CON-007', champ: 'INVOICE_NUMBER' });
}
