/**
 * The contracts' plain values (limits, patterns, enumerations, error codes, realtime names) without
 * zod: `@portal/contracts/constants` is what the web's first load imports. Building the schemas
 * (`@portal/contracts`) costs zod and its start-up work, so screens load them with their forms.
 * `@portal/contracts` re-exports everything here; nothing in this file may import zod.
 */
export * from './roles.ts';
export * from './realtime.ts';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const LOGIN_LOCKOUT_ATTEMPTS = 5;
export const LOGIN_LOCKOUT_MINUTES = 5;
export const RESET_TOKEN_MINUTES = 10;
export const FIRST_CONNECTION_TOKEN_HOURS = 72;
export const SESSION_DAYS = 30;

/** Same pattern as the forgot-password screen: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The spec's issue → topic map for the contact form. */
export const CONTACT_TOPICS = {
  patent: ['patent_missing', 'patent_issue', 'receipt_demand'],
  ledes: ['ledes_verification', 'ledes_display'],
  trademark: ['trademark_missing', 'trademark_issue'],
  account: ['account_loggin', 'account_update', 'account_remove'],
  other: ['other_issue', 'other_download', 'other_display'],
} as const satisfies Record<string, readonly string[]>;
export type ContactIssue = keyof typeof CONTACT_TOPICS;
export const CONTACT_ISSUES = Object.keys(CONTACT_TOPICS) as [ContactIssue, ...ContactIssue[]];

export const LEDES_TYPES = ['patent', 'trademark', 'annuites'] as const;
export type LedesType = (typeof LEDES_TYPES)[number];

/** Extensions accepted for a LEDES upload; the format itself is recognised from the content. */
export const LEDES_EXTENSIONS = ['txt', 'ledes', 'lds', 'xml'] as const;
export const LEDES_MAX_FILES = 10;
/** The API's default per-file limit (UPLOAD_MAX_BYTES); a deployment may lower it, and its 413 then says so. */
export const LEDES_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Upper bound of the `wait` option, as the original client's 120 s timeout. */
export const LEDES_MAX_WAIT_SECONDS = 120;
/** The admin log's page sizes; the user history uses 500, per the spec's constants. */
export const LEDES_HISTORY_PAGE_SIZES = [10, 20, 30, 50, 100, 600] as const;
/** The multipart file fields of an upload: the original client's name and the usual variants. */
export const LEDES_FILE_FIELDS = ['file', 'files', 'file[]'] as const;

/** The first line a result page can start at: -2 is the file as a whole, -1 its header. */
export const FIRST_RESULT_LINE = -2;

export const RUN_STATES = ['in_progress', 'Done', 'Error'] as const;
export type RunState = (typeof RUN_STATES)[number];

export const MAX_PAGE_SIZE = 600;

/** Patent portfolio (issue 11). Status of a patent's instruction: none given, given by an agent, confirmed by staff. */
export const INSTRUCTION_STATUSES = ['unprocessed', 'processed', 'validated'] as const;
export type InstructionStatus = (typeof INSTRUCTION_STATUSES)[number];
/** Where an instruction change came from (the audit trail's `source`). */
export const INSTRUCTION_SOURCES = ['screen', 'bulk', 'sync', 'reset', 'validation', 'import', 'submission', 'edit'] as const;
export type InstructionSource = (typeof INSTRUCTION_SOURCES)[number];
/** The two tabs of /patent-annuities (spec §4 "Patent listing"). */
export const PATENT_TABS = ['unprocessed', 'unvalidated'] as const;
export type PatentTab = (typeof PATENT_TABS)[number];
/** Spec §9: the limit date of a patent is its due date minus 7 days. */
export const PATENT_LIMIT_DAYS = 7;
/** Sort keys of the patent listing: the wire names of the sortable columns. */
export const PATENT_SORTS = ['DateEcheance', 'ReferenceClient', 'noDepot', 'NoPublication', 'Pays', 'Origine', 'Quantieme', 'cost', 'id_instruction'] as const;
export type PatentSort = (typeof PATENT_SORTS)[number];
export const PATENT_PAGE_MAX = 100;
/** Rows of one atomic bulk instruction update (its route takes a JSON body of up to 512 kB, not the general 100 kB). */
export const PATENT_BULK_MAX_ROWS = 1000;
/** Why a patent's instruction cannot change: its limit date passed, a treatment date is set, or staff validated it. Each is an error code (409). */
export const PATENT_LOCK_CODES = [
  'patent_locked_limit_date',
  'patent_locked_acquitted',
  'patent_locked_office_paid',
  'patent_locked_mail_reply',
  'patent_locked_client_paid',
  'instruction_validated',
] as const;
export type PatentLockCode = (typeof PATENT_LOCK_CODES)[number];
/** Patents with missing information (spec "Patents with missing information"): its columns, 25 per page, default sort ReferenceClient. */
export const PATENT_MISSING_FIELDS = ['noDepot', 'NoPublication', 'ReferenceClient', 'Pays'] as const;
export type PatentMissingField = (typeof PATENT_MISSING_FIELDS)[number];
export const PATENT_MISSING_PAGE_SIZE = 25;
/** Patents to validate: 10 per page, default sort numero_depot (wire `noDepot`). */
export const PATENT_TO_VALIDATE_SORTS = ['noDepot', 'NoPublication', 'ReferenceClient', 'id_instruction', 'DonneurOrdre', 'DonneurOrdreAn', 'DateEcheance', 'Pays'] as const;
export type PatentToValidateSort = (typeof PATENT_TO_VALIDATE_SORTS)[number];
export const PATENT_TO_VALIDATE_PAGE_SIZE = 10;
/** Why the annuity schedule of a patent cannot be computed (GET /brevet_eptane/{id}/schedule answers an empty list with one of these). */
/**
 * The annuity engine's `DUE_SOON_DAYS` (a test in packages/jobs holds them equal): without payment data an
 * annuity due within this many days is red, "payment not known". The screens' legend quotes it.
 */
export const PAYMENT_UNKNOWN_DUE_SOON_DAYS = 37;

/** Where a patent's annuity stands today (patentDeadlineSchema), from the annuity engine. */
export const PATENT_DEADLINE_STATES = ['before_due', 'due', 'grace', 'past_grace'] as const;
export type PatentDeadlineState = (typeof PATENT_DEADLINE_STATES)[number];

export const PATENT_SCHEDULE_REASONS = [
  'unknown_office',
  'unknown_origin',
  'missing_filing_date',
  'invalid_date',
  'grant_before_filing',
  'invalid_last_paid',
  'origin_not_allowed',
  'unitary_not_available',
] as const;
export type PatentScheduleReason = (typeof PATENT_SCHEDULE_REASONS)[number];
/**
 * How a stored record disagrees with the computed schedule (`checkRecord` of `@portal/annuities`):
 * the due date differs from the engine's for that annuity, no annuity falls due on the record's date,
 * or the right has no annuity of the record's number.
 */
export const PATENT_SCHEDULE_MISMATCH_CODES = ['due_differs', 'no_annuity_due_then', 'number_out_of_range'] as const;
export type PatentScheduleMismatchCode = (typeof PATENT_SCHEDULE_MISMATCH_CODES)[number];
export const PATENT_SUBMISSION_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export type PatentSubmissionStatus = (typeof PATENT_SUBMISSION_STATUSES)[number];
/**
 * Longest text each patent field takes (issue 25 §3), the same for the add form, the
 * missing-information fill, the admin edit, the portfolio import and the sync. Numbers are
 * checked against the office's format besides (the annuity engine's `parseNumber`).
 */
export const PATENT_TEXT_MAX = {
  /** Application and publication numbers. */
  number: 50,
  /** Client and firm references. */
  reference: 200,
  origin: 50,
  title: 1000,
  /** DonneurOrdre, DonneurOrdreAn. */
  party: 300,
  idagenda: 100,
  idbrevet: 100,
  clientCode: 50,
  cabinet: 200,
  country: 10,
} as const;
/** Largest cost in euros (the database's numeric(12, 2)). */
export const PATENT_COST_MAX = 9_999_999_999;
/** A value an identifier field (number, reference, agenda id, client code) must not start with: spreadsheet formula triggers. */
export const FORMULA_PREFIXES = ['=', '+', '-', '@'] as const;
/** The new-case file (POST /file/send_email_for_new_case): one file, at most 10 MB. */
export const NEW_CASE_MAX_BYTES = 10 * 1024 * 1024;
/** The new-case file's accepted types (by extension; anything else is a 415 wrong_extension). */
export const NEW_CASE_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'csv', 'txt', 'jpg', 'jpeg', 'png'] as const;

/**
 * Stable error codes of the API envelope `{ success: false, message, code }`.
 * The message is rendered server-side in the caller's language from `errors.<code>` in @portal/i18n;
 * clients may re-render from the code.
 */
export const ERROR_CODES = {
  validation_failed: 400,
  invalid_json: 400,
  login_failed: 401,
  unauthorized: 401,
  forbidden: 403,
  csrf_rejected: 403,
  invalid_api_key: 403,
  not_found: 404,
  register_failed: 409,
  link_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  wrong_extension: 415,
  too_many_files: 400,
  analytics_bad_month: 400,
  analytics_bad_period: 400,
  too_many_attempts: 429,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  // Field-level codes named as in the spec's error catalogue.
  email_empty: 400,
  wrong_email: 400,
  password_empty: 400,
  password_too_short: 400,
  password_too_long: 400,
  not_same_password: 400,
  issue_empty: 400,
  topic_empty: 400,
  message_empty: 400,
  cabinet_required: 400,
  role_required: 400,
  meta_missing: 400,
  error_file: 400,
  missing_type: 400,
  missing_office: 400,
  missing_id_user: 400,
  // Annuity spreadsheet checks.
  wrong_type: 415,
  error_choose_file: 400,
  next_before_previous: 400,
  annuity_number_out_of_range: 400,
  export_pending: 409,
  // Patent portfolio and payment instructions.
  invalid_date_format: 400,
  unknown_instruction: 400,
  patent_locked_limit_date: 409,
  patent_locked_acquitted: 409,
  patent_locked_office_paid: 409,
  patent_locked_mail_reply: 409,
  patent_locked_client_paid: 409,
  instruction_validated: 409,
  stale_version: 409,
  instructions_refused: 409,
  missing_info_empty: 400,
  patent_field_filled: 409,
  instruction_not_processed: 409,
  instructions_not_validated: 409,
  // Receipts linked by hand (decision 192).
  receipt_already_linked: 409,
  receipt_year_required: 400,
  receipt_link_refused: 409,
  // Register discrepancies (decision 197).
  discrepancy_resolved: 409,
  // Renewal calls (issue 30 §3).
  renewal_call_nothing_to_send: 409,
  renewal_call_margin_outside_window: 400,
  // The renewal budget's rows are being rebuilt after a bulk change (decision 201): an export would mix old and new figures.
  forecast_updating: 409,
  submission_reviewed: 409,
  reason_required: 400,
  country_required: 400,
  client_code_required: 400,
  // Patent input (issue 25 §3): numbers in the office's format, costs, formula prefixes, lengths.
  invalid_application_number: 400,
  invalid_publication_number: 400,
  invalid_cost: 400,
  formula_not_allowed: 400,
  text_too_long: 400,
  // Portfolio imports (issue 11, back-office loop).
  wrong_import_type: 415,
  // Second factor (issue 13).
  mfa_challenge_expired: 401,
  mfa_code_invalid: 401,
  /** A right code already accepted (within its 30-second step): wait for the next one. */
  mfa_code_reused: 401,
  /** A wrong first code while turning the second factor on (no recovery code exists yet). */
  mfa_enrol_code_invalid: 401,
  mfa_code_empty: 400,
  mfa_required: 403,
  mfa_not_enabled: 409,
  mfa_already_enabled: 409,
  // Receipts (issue 13).
  wrong_receipt_type: 415,
  empty_file: 400,
  // Cost tables and ECB rate files (issue 30 §1, decision 199).
  wrong_rate_file_type: 415,
  ecb_file_empty: 400,
  ecb_file_too_large: 413,
  ecb_file_format: 400,
  ecb_file_bad_day: 400,
  ecb_file_bad_rate: 400,
  ecb_file_conflict: 400,
  ecb_file_too_many_days: 400,
  cost_row_exists: 409,
  // Client billing guidelines (issue 31 §1).
  guideline_date_taken: 409,
  guideline_rules_conflict: 400,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** A payment ledger year's states (decision 191; the same list as `@portal/db`'s LEDGER_STATES, checked by a type in `@portal/jobs`). */
export const PAYMENT_LEDGER_STATES = ['due', 'instructed', 'ordered', 'paid', 'confirmed', 'abandoned', 'lapsed'] as const;
export type PaymentLedgerState = (typeof PAYMENT_LEDGER_STATES)[number];
/** Who moved a ledger year (decision 191). */
export const PAYMENT_LEDGER_SOURCES = ['screen', 'bulk', 'sync', 'import', 'submission', 'edit', 'validation', 'receipt', 'staff', 'register'] as const;
