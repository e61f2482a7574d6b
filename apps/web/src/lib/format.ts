/**
 * The one place the web writes a number or a day for the reader (docs/decisions.md: decision 153).
 * Numbers: the page's locale (French "40 000" with U+202F, English "40,000"). Numbers inside a text go
 * through i18next's interpolation (`{{count, number}}`, whose `number` format is `formatNumber`: see
 * lib/i18n.ts), so a count stays a number for the plural forms. Days: French "15/03/2025", English "15 Mar 2025".
 * Formatting only: no day is ever computed here (apps/web/test/no-deadline-arithmetic.test.ts).
 */

import i18next from 'i18next';

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const isFrench = (lang: string | undefined): boolean => (lang ?? '').toLowerCase().startsWith('fr');

/** The language the page shows (the screens re-render on a switch, so a cell formatted with it follows). */
export function pageLanguage(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en';
}

/** An integer or decimal in the reader's format; anything that is not a finite number is written as it is. */
export function formatNumber(value: unknown, lang: string = pageLanguage()): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return typeof value === 'string' ? value : '';
  return new Intl.NumberFormat(isFrench(lang) ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 20 }).format(n);
}

/**
 * An amount of money in the reader's format, always with its currency's minor digits ("3,520.40 EUR" was written
 * "3,520.4 EUR" by `formatNumber`): French "3 520,40 €", English "€3,520.40". `whole` drops the cents (charts' axes
 * and budgets). Anything that is not a finite number is written as it is.
 */
export function formatMoney(value: unknown, currency: string, { whole = false, lang = pageLanguage() }: { whole?: boolean; lang?: string } = {}): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return typeof value === 'string' ? value : '';
  return new Intl.NumberFormat(isFrench(lang) ? 'fr-FR' : 'en-GB', { style: 'currency', currency, ...(whole ? { maximumFractionDigits: 0 } : {}) }).format(n);
}

/** A calendar day given by its parts (year, month 1-12, day), as the reader's language writes it. */
export function formatYmd(year: string, month: string, day: string, lang: string = pageLanguage()): string {
  const mm = Number(month);
  if (!/^\d{4}$/.test(year) || !(mm >= 1 && mm <= 12) || !/^\d{1,2}$/.test(day)) return '';
  if (isFrench(lang)) return `${day.padStart(2, '0')}/${month.padStart(2, '0')}/${year}`;
  return `${Number(day)}\u00A0${MONTHS_EN[mm - 1]}\u00A0${year}`;
}

/** A server day (`YYYY-MM-DD`, possibly followed by a time) without a time zone shifting it; '' for none. */
export function formatDay(day: string | null | undefined, lang: string = pageLanguage()): string {
  if (!day) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? formatYmd(m[1]!, m[2]!, m[3]!, lang) : '';
}

/** A moment (timestamp, ISO date-time, Date) as the reader's local calendar day. Invalid input gives ''. */
export function formatDate(value: string | number | Date | null | undefined, lang: string = pageLanguage()): string {
  if (value === null || value === undefined || value === '') return '';
  // A bare day is a calendar day, not UTC midnight: read it as such (no shift west of Greenwich).
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value, lang);
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return formatYmd(String(d.getFullYear()), String(d.getMonth() + 1), String(d.getDate()), lang);
}
