/**
 * A server day (YYYY-MM-DD) as the interface writes it in each language (issue 26 §2, decision 153):
 * French 15/03/2025, English 15 Mar 2025 (no-break spaces). Written here on its own, not imported from the
 * web, so the end-to-end tests check the screens against the rule rather than against the code.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function shownDay(iso: string, lang: 'en' | 'fr'): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return lang === 'fr' ? `${d}/${m}/${y}` : `${Number(d)}\u00A0${MONTHS[Number(m) - 1]}\u00A0${y}`;
}

/** Matches any day as the interface writes it in `lang`. */
export function shownDayPattern(lang: 'en' | 'fr'): RegExp {
  return lang === 'fr' ? /^\d{2}\/\d{2}\/\d{4}$/ : /^\d{1,2}\u00A0[A-Z][a-z]{2}\u00A0\d{4}$/;
}

/** A locale text with its `{{name}}` (or `{{name, number}}`) placeholders filled, as the tests expect it shown. */
export const fill = (text: string, values: Record<string, string | number>): string => text.replace(/\{\{(\w+)(?:,\s*\w+)?\}\}/g, (_m, k: string) => String(values[k] ?? ''));
