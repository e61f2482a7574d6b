import { baseRecords, fileText, recordLine, type Rec } from './helpers.ts';

const LINES_PER_INVOICE = 100;

/**
 * A valid LEDES file of `lines` data lines, produced as a stream of ~64 KiB chunks
 * (never held whole): invoices of 100 lines alternating fee and expense lines.
 */
export async function* generateLedes(lines: number, format: '98B' | '98BI' = '98B'): AsyncGenerator<Buffer> {
  const [fee, expense] = baseRecords(format) as [Rec, Rec];
  const feeTotal = format === '98B' ? 700 : 840;
  const block = (count: number): string => {
    const total = (count / 2) * (feeTotal + 5);
    const invoice: Rec = format === '98B'
      ? { INVOICE_NUMBER: '{INV}', INVOICE_TOTAL: String(total) }
      : { INVOICE_NUMBER: '{INV}', INVOICE_TOTAL: String(total), INVOICE_TAX_TOTAL: String((count / 2) * 140), INVOICE_NET_TOTAL: String(total - (count / 2) * 140) };
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      out.push(recordLine({ ...(i % 2 === 0 ? fee : expense), ...invoice, LINE_ITEM_NUMBER: String(i + 1) }, format));
    }
    return `${out.join('\n')}\n`;
  };
  const full = block(LINES_PER_INVOICE);
  yield Buffer.from(fileText([], format).replaceAll('\r\n', '\n'));
  let pending = '';
  let invoice = 0;
  for (let done = 0; done < lines; done += LINES_PER_INVOICE) {
    const count = Math.min(LINES_PER_INVOICE, lines - done);
    // An odd remainder would break the fee/expense pairing of the totals: round it up.
    const text = count === LINES_PER_INVOICE ? full : block(count + (count % 2));
    pending += text.replaceAll('{INV}', `INV-${++invoice}`);
    if (pending.length >= 65536) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending) yield Buffer.from(pending);
}

/** A valid LEDES 1998B file of `count` one-line invoices INV-<prefix>1 … (fee lines of 700). */
export function manyInvoices(count: number, prefix = ''): string {
  const [fee] = baseRecords('98B') as [Rec];
  const lines = Array.from({ length: count }, (_, i) => recordLine({ ...fee, INVOICE_NUMBER: `INV-${prefix}${i + 1}`, INVOICE_TOTAL: '700' }));
  return `${fileText([]).replaceAll('\r\n', '\n')}${lines.join('\n')}\n`;
}
