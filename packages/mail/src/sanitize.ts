import { MailAddressError } from './errors.ts';

// C0 controls (CR, LF, TAB, NUL…), DEL, and the Unicode line/paragraph separators.
const CONTROL_CHARS = /[\u0000-\u001f\u007f\u2028\u2029]+/g;
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f]+/g;
// One bare address; deliberately stricter than RFC 5322 (no display names, lists, quotes or comments).
const PLAIN_ADDRESS = /^[^\s@,;:<>()"'\\[\]]+@[^\s@,;:<>()"'\\[\]]+\.[^\s@,;:<>()"'\\[\]]+$/;

/** A header value on one line: CR/LF and other controls become a space (VAL-09). */
export function toHeaderValue(value: string, maxLength = 250): string {
  return value.replace(CONTROL_CHARS, ' ').replace(/\s{2,}/g, ' ').trim().slice(0, maxLength);
}

/** Free text kept multi-line (normalised to \n) but without other control characters. */
export function toMultilineText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(CONTROL_EXCEPT_NEWLINE, ' ');
}

/** Refuses anything but a single plain address, so a crafted value cannot add recipients. */
export function assertPlainAddress(value: string, field: string): string {
  if (!PLAIN_ADDRESS.test(value) || value.length > 254) {
    throw new MailAddressError(`Invalid ${field} address`);
  }
  return value;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}
