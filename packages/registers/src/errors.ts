/**
 * The ways a register read fails. An unknown number is not among them: it is a result (`found: false`).
 * None of these is retried by the driver (apart from one token refresh): the caller decides, after
 * `retryAfterMs` for the back-off errors.
 */
export type RegisterErrorCode = 'throttled' | 'quota_exhausted' | 'unauthorised' | 'bad_request' | 'malformed_answer' | 'unavailable';

export abstract class RegisterError extends Error {
  abstract readonly code: RegisterErrorCode;
}

/** The service asks us to slow down (429, or 403 with a throttling reason, or a black light). */
export class RegisterThrottledError extends RegisterError {
  override readonly name = 'RegisterThrottledError';
  readonly code = 'throttled';
  constructor(
    message: string,
    readonly retryAfterMs: number,
    readonly reason: string | null,
  ) {
    super(message);
  }
}

/** The hourly or weekly volume of the account is used up (403 with `X-Rejection-Reason`). */
export class RegisterQuotaExhaustedError extends RegisterError {
  override readonly name = 'RegisterQuotaExhaustedError';
  readonly code = 'quota_exhausted';
  constructor(
    message: string,
    readonly retryAfterMs: number,
    readonly quota: 'hourly' | 'weekly',
    readonly reason: string | null,
  ) {
    super(message);
  }
}

/** The credentials are refused, or a fresh token is refused at once. */
export class RegisterUnauthorisedError extends RegisterError {
  override readonly name = 'RegisterUnauthorisedError';
  readonly code = 'unauthorised';
}

/** OPS refused the request itself (a 400 other than an expired token): our input, not the service, is at fault. */
export class RegisterBadRequestError extends RegisterError {
  override readonly name = 'RegisterBadRequestError';
  readonly code = 'bad_request';
}

/** The answer is not what the service documents: unreadable XML, over the size limit, missing parts. */
export class RegisterMalformedAnswerError extends RegisterError {
  override readonly name = 'RegisterMalformedAnswerError';
  readonly code = 'malformed_answer';
}

/** Network failure, timeout, or a 5xx: nothing learnt, try another day. */
export class RegisterUnavailableError extends RegisterError {
  override readonly name = 'RegisterUnavailableError';
  readonly code = 'unavailable';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}
