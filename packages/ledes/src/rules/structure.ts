import { report, type RecordContext } from './context.ts';

// Printable ASCII only (Collaborati's rule for 98B/98BI).
export const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * FMT-006 (per field: control characters are errors, other non-ASCII warnings) and FMT-007.
 * `scan`: the record holds a character outside printable ASCII (the caller tests the whole line
 * once; most lines are clean and skip the per-field tests).
 */
export function checkCharacters(ctx: RecordContext, scan: boolean): void {
  const { fields, format } = ctx;
  for (let i = 0; i < fields.length; i++) {
    const v = fields[i]!;
    if (v.length === 4 && v === 'NULL') report(ctx, 'FMT-007', format.fields[i]!.name);
    if (!scan) continue;
    // NUL has its own finding (FMT-013) on the line.
    const text = v.includes('\0') ? v.replaceAll('\0', '') : v;
    const at = text.search(NOT_PRINTABLE_ASCII);
    if (at >= 0) {
      const control = CONTROL.test(text);
      // The first character at fault, as its code point (a control character has no glyph to show).
      const bad = control ? text[text.search(CONTROL)]! : String.fromCodePoint(text.codePointAt(at)!);
      const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      report(ctx, 'FMT-006', format.fields[i]!.name, control ? 'error' : undefined, { found: control ? code : `${bad} (${code})` });
    }
  }
}
