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
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorEnvelope {
  success: false;
  message: string;
  code: ErrorCode;
  /** Per-field codes when a body fails validation: an `ErrorCode`, or the validator's own code. */
  fields?: Record<string, string>;
}
