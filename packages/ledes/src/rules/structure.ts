import { report, type RecordContext } from './context.ts';

// Printable ASCII only (Collaborati's rule for 98B/98BI).
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;
const CONTROL = /[\x00-\x1f\x7f]/;

/** FMT-006 (per field: control characters are errors, other non-ASCII warnings) and FMT-007. */
export function checkCharacters(ctx: RecordContext, body: string): void {
  const scan = NOT_PRINTABLE_ASCII.test(body);
  const { fields, format } = ctx;
  for (let i = 0; i < fields.length; i++) {
    const v = fields[i]!;
    if (v === 'NULL') report(ctx, 'FMT-007', format.fields[i]!.name);
    if (!scan) continue;
    // NUL has its own finding (FMT-013) on the line.
    const text = v.includes('\0') ? v.replaceAll('\0', '') : v;
    if (NOT_PRINTABLE_ASCII.test(text)) report(ctx, 'FMT-006', format.fields[i]!.name, CONTROL.test(text) ? 'error' : undefined);
  }
}
