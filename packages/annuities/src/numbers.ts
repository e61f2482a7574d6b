import { fail, ok, type Result } from './reasons.ts';
import { isOffice, type Office } from './types.ts';

export type NumberKind = 'publication' | 'application';

/**
 * verified: an entered check digit matched; computed: none entered, we computed it;
 * unverified: entered but no verified algorithm for this office or remainder; none: not applicable.
 */
export type CheckDigitStatus = 'verified' | 'computed' | 'unverified' | 'none';

export interface ParsedNumber {
  readonly kind: NumberKind;
  /** Country of the number itself: EP for the EP number of a validated national row. */
  readonly country: Office;
  /** Letter series inside a national number (ES: P patent, U utility model, E European file). */
  readonly series: string;
  readonly digits: string;
  /** Kind code split off the publication number (A1, B1, T3, …). */
  readonly kindCode: string | null;
  readonly checkDigit: string | null;
  readonly checkDigitStatus: CheckDigitStatus;
  /** Canonical form without kind code or check digit, e.g. EP1234567, ESP202030431, DE102007004488. */
  readonly normalised: string;
  /** Human form with the check digit, e.g. EP16839078.9. */
  readonly display: string;
}

const COUNTRY_ALIASES: Readonly<Record<string, Office>> = { UK: 'GB' };
const ES_SERIES = new Set(['P', 'U', 'E']);

/**
 * EP application check digit (annuities.md §5 line 244): weights 1,2,1,2… from the left,
 * digit sums of the products, check = (10 − sum mod 10) mod 10.
 */
export function epCheckDigit(eightDigits: string): string {
  let sum = 0;
  for (let i = 0; i < eightDigits.length; i++) {
    const p = (eightDigits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 2);
    sum += p > 9 ? p - 9 : p;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * DE Aktenzeichen check digit (annuities.md §5 line 245, DPMA Mitteilung 3/83): weights 2,3,4…
 * from the rightmost digit, check = 11 − (sum mod 11). Remainders 0 and 1 give 11 and 10, which no
 * verified example covers [U]: we keep the last digit of the result and mark the digit unverifiable.
 */
export function deCheckDigit(digits: string): { digit: string; certain: boolean } {
  let sum = 0;
  for (let i = digits.length - 1, w = 2; i >= 0; i--, w++) sum += (digits.charCodeAt(i) - 48) * w;
  const check = 11 - (sum % 11);
  return { digit: String(check % 10), certain: check < 10 };
}

const CHECK_SUFFIX_RE = /^(.*\d)\s*[.-]\s*(\d)$/;
const SEPARATORS_RE = /[\s.,/\\_-]+/g;
const SHAPE_RE = /^([A-Z]{0,3})(\d+)([A-Z]\d?)?$/;

/**
 * Parse a publication or application number as typed in a spreadsheet. The country comes from the
 * prefix, else from `rowCountry`. Failures are reason codes, never exceptions.
 */
export function parseNumber(raw: string, kind: NumberKind, rowCountry?: Office | null): Result<ParsedNumber> {
  let text = raw.normalize('NFKC').toUpperCase().trim();
  if (text === '') return fail('empty_number');
  if (text.length > 64) return fail('unreadable_number');

  // §5 line 248: a '-' or '.' before a single trailing digit is a check digit, kept apart.
  let checkDigit: string | null = null;
  if (kind === 'application') {
    const m = CHECK_SUFFIX_RE.exec(text);
    if (m) {
      text = m[1] as string;
      checkDigit = m[2] as string;
    }
  }
  const shape = SHAPE_RE.exec(text.replace(SEPARATORS_RE, ''));
  if (!shape) return fail('unreadable_number');
  const letters = shape[1] as string;
  let digits = shape[2] as string;
  const kindCode = shape[3] ?? null;

  let country: Exclude<Office, 'UP'> | null;
  let series: string;
  const head = letters.slice(0, 2);
  const aliased = COUNTRY_ALIASES[head] ?? head;
  if (letters.length >= 2 && isOffice(aliased)) {
    country = aliased === 'UP' ? 'EP' : aliased;
    series = letters.slice(2);
  } else if (letters.length >= 2) {
    return fail('unknown_country', letters);
  } else {
    series = letters;
    country = rowCountry === 'UP' ? 'EP' : (rowCountry ?? null);
  }
  if (country === null) return fail('unknown_country');
  if (rowCountry) {
    // A validated national row carries the EP number; an EP or UP row carries nothing else.
    const allowed = rowCountry === 'EP' || rowCountry === 'UP' ? country === 'EP' : country === rowCountry || country === 'EP';
    if (!allowed) return fail('country_mismatch', `${country} number on a ${rowCountry} row`);
  }
  if (series !== '' && !(country === 'ES' && ES_SERIES.has(series))) return fail('unreadable_number');

  let status: CheckDigitStatus = 'none';
  const withCheck = (d: string, certain: boolean): Result<void> => {
    if (checkDigit === null) {
      checkDigit = d;
      status = 'computed';
    } else if (!certain) status = 'unverified';
    else if (checkDigit !== d) return fail('check_digit_mismatch', `expected ${d}`);
    else status = 'verified';
    return ok(undefined);
  };

  switch (country) {
    case 'EP':
      if (kind === 'publication') {
        if (digits.length > 7) return fail('invalid_length');
        digits = digits.padStart(7, '0');
      } else {
        // Espacenet also accepts the year in four digits (EP2016839078).
        if (digits.length === 10 && (digits.startsWith('19') || digits.startsWith('20'))) digits = digits.slice(2);
        if (digits.length === 9 && checkDigit === null && epCheckDigit(digits.slice(0, 8)) === digits[8]) {
          checkDigit = digits.slice(8);
          digits = digits.slice(0, 8);
        }
        if (digits.length === 8) {
          const r = withCheck(epCheckDigit(digits), true);
          if (!r.ok) return r;
        } else if (digits.length !== 9) return fail('invalid_length');
      }
      break;
    case 'DE': {
      const lengths = kind === 'publication' ? [7, 8, 12] : [8, 12];
      if (kind === 'application' && checkDigit === null && (digits.length === 13 || digits.length === 9)) {
        checkDigit = digits.slice(-1);
        digits = digits.slice(0, -1);
      }
      if (!lengths.includes(digits.length)) return fail('invalid_length');
      if (kind === 'application') {
        const { digit, certain } = deCheckDigit(digits);
        const r = withCheck(digit, certain);
        if (!r.ok) return r;
      }
      break;
    }
    case 'ES':
      if (kind === 'publication') {
        if (digits.length !== 7) return fail('invalid_length');
      } else {
        if (series === '') series = digits.length === 8 ? 'E' : 'P';
        const expected = series === 'E' ? [8] : [7, 9];
        if (!expected.includes(digits.length)) return fail('invalid_length');
      }
      break;
    case 'GB':
    case 'FR':
    case 'NL':
      if (digits.length !== 7) return fail('invalid_length');
      // GB application check digit: no verified algorithm [U]; kept as entered.
      if (checkDigit !== null) status = 'unverified';
      break;
    case 'IT':
      if (digits.length !== 15 && (kind === 'application' || digits.length !== 7)) return fail('invalid_length');
      break;
    case 'BE':
      if (kind === 'publication' ? digits.length !== 7 : digits.length < 5 || digits.length > 9) return fail('invalid_length');
      break;
    case 'SE':
      if (kind === 'application' && checkDigit === null && digits.length === 8) {
        checkDigit = digits.slice(-1);
        digits = digits.slice(0, -1);
      }
      if (kind === 'publication' ? digits.length < 6 || digits.length > 7 : digits.length !== 7) return fail('invalid_length');
      // SE check digit: algorithm not confirmed in the reference; kept as entered.
      if (checkDigit !== null) status = 'unverified';
      break;
  }
  if (checkDigit !== null && status === 'none') status = 'unverified';
  const normalised = `${country}${series}${digits}`;
  return ok({
    kind,
    country,
    series,
    digits,
    kindCode,
    checkDigit,
    checkDigitStatus: status,
    normalised,
    display: checkDigit === null ? normalised : `${normalised}.${checkDigit}`,
  });
}
