/**
 * Stable reason codes returned as values (never thrown). The web and API layers translate them;
 * renaming one is a breaking change.
 */
export const REASON_CODES = [
  // numbers
  'empty_number',
  'unreadable_number',
  'unknown_country',
  'missing_country',
  'country_mismatch',
  'invalid_length',
  'check_digit_mismatch',
  // schedule inputs
  'invalid_date',
  'missing_filing_date',
  'grant_before_filing',
  'invalid_last_paid',
  'origin_not_allowed',
  'unitary_not_available',
  // files
  'file_too_large',
  'empty_file',
  'type_mismatch',
  'archive_too_large',
  'too_many_entries',
  'unsafe_entry_name',
  'doctype_refused',
  'unsupported_encoding',
  'macro_not_allowed',
  'encrypted_not_supported',
  'shared_strings_too_large',
  'too_many_merged_cells',
  'too_many_rows',
  'too_many_columns',
  'malformed_workbook',
  'headers_not_found',
] as const;

export type ReasonCode = (typeof REASON_CODES)[number];

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: ReasonCode; readonly detail?: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: ReasonCode, detail?: string): Result<T> {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}
