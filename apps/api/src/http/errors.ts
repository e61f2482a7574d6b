import type { ErrorRequestHandler, Request } from 'express';
import {
  LEDES_MAX_FILES,
  LOGIN_LOCKOUT_MINUTES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type ErrorCode,
  type ErrorEnvelope,
} from '@portal/contracts';
import { LAST_ANNUITY } from '@portal/annuities/core';
import { localeFromAcceptLanguage, serverT, type Locale } from '@portal/i18n';
import { AppError, type MessageParams, type RefusedRow } from '../domain/errors.ts';

export { AppError, type MessageParams, type RefusedRow } from '../domain/errors.ts';

export function requestLocale(req: Request): Locale {
  return localeFromAcceptLanguage(req.get('accept-language'));
}

/**
 * Values some messages quote (`errors.password_too_short`: "at least {{count}} characters"), taken from
 * the constants the rules themselves apply, so a message never states another limit than the rule. A
 * number before a counted word is i18next's `count`, so the message has its plural forms (decision 153).
 */
export const ERROR_MESSAGE_PARAMS: Partial<Record<ErrorCode, Readonly<Record<string, number>>>> = {
  password_too_short: { count: PASSWORD_MIN_LENGTH },
  password_too_long: { count: PASSWORD_MAX_LENGTH },
  too_many_attempts: { count: LOGIN_LOCKOUT_MINUTES },
  too_many_files: { count: LEDES_MAX_FILES },
  // The widest range (no office known, or a value that is no number); a refusal on a row gives its office's.
  annuity_number_out_of_range: { min: 1, max: LAST_ANNUITY },
};

/** Messages that name the field in error (issue 25 §3: "“Client reference” is too long: at most 200 characters"). */
export const FIELD_MESSAGE_PARAMS: Partial<Record<ErrorCode, ReadonlyArray<'field' | 'count'>>> = {
  formula_not_allowed: ['field'],
  // The length's limit (`max` of the refusal) is the message's plural count.
  text_too_long: ['field', 'count'],
};

function errorMessage(code: ErrorCode, locale: Locale, params?: MessageParams): string {
  const t = serverT(locale);
  if (!FIELD_MESSAGE_PARAMS[code]) return t(`errors:${code}`, { ...ERROR_MESSAGE_PARAMS[code], ...params });
  const last = params?.field?.split('.').pop() ?? '_';
  const field = t(`api:fields.${last}`, { defaultValue: t('api:fields._') });
  return t(`errors:${code}`, { ...ERROR_MESSAGE_PARAMS[code], ...params, field, ...(params?.max === undefined ? {} : { count: params.max }) });
}

export function envelope(code: ErrorCode, locale: Locale, fields?: Record<string, string>, notUpdated?: RefusedRow[], params?: MessageParams): ErrorEnvelope {
  return {
    success: false,
    message: errorMessage(code, locale, params),
    code,
    ...(fields ? { fields } : {}),
    ...(notUpdated ? { not_updated: notUpdated.map((row) => ({ ...row, reason: errorMessage(row.code, locale) })) } : {}),
  };
}

/** Maps body-parser and other library errors that carry an HTTP status to our codes. */
function fromLibraryError(err: { status?: number; type?: string }): AppError | null {
  if (err.type === 'entity.too.large' || err.status === 413) return new AppError('payload_too_large');
  if (err.type === 'entity.parse.failed') return new AppError('invalid_json');
  if (err.type === 'charset.unsupported' || err.type === 'encoding.unsupported' || err.status === 415) {
    return new AppError('unsupported_media_type');
  }
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) return new AppError('validation_failed', { status: err.status });
  return null;
}

/** Seconds a client should wait before retrying while a dependency is down. */
export const RETRY_AFTER_SECONDS = 10;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs that mean "cannot talk to the database now": connection exceptions, shutdown, too many connections, database gone. */
const POSTGRES_DOWN = /^(08...|57P0[1-3]|53300|3D000)$/;
const DOWN_MESSAGES = [
  // pg
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  // ioredis with enableOfflineQueue: false, and after its retries
  "Stream isn't writeable",
  'Connection is closed',
  'Reached the max retries per request limit',
  // PGlite
  'PGlite is closed',
];

/**
 * True when an error says a dependency (PostgreSQL through pg or PGlite, Redis through ioredis) cannot
 * be reached, rather than that the request or the code is wrong. Drizzle wraps driver errors in a
 * DrizzleQueryError and pg may throw an AggregateError (one per address), so the whole chain is read.
 */
export function isDependencyDown(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 8) return false;
  const e = error as Error & { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || POSTGRES_DOWN.test(e.code))) return true;
  if (e.name === 'MaxRetriesPerRequestError' || DOWN_MESSAGES.some((m) => e.message.includes(m))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDependencyDown(inner, depth + 1))) return true;
  return isDependencyDown(e.cause, depth + 1);
}

/** The one error middleware: expected errors keep their code, anything else is logged and hidden. */
export const errorMiddleware: ErrorRequestHandler = (err, req, res, _next) => {
  const down = !(err instanceof AppError) && isDependencyDown(err);
  const known = err instanceof AppError ? err : down ? new AppError('service_unavailable') : fromLibraryError((err ?? {}) as { status?: number; type?: string });
  const locale = requestLocale(req);
  if (known) {
    if (down) req.log?.warn({ err }, 'dependency unavailable');
    else if (known.status >= 500) req.log?.error({ err }, 'request failed');
    if (known.status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
    // A 429 says when to come back (RFC 6585): the limiter's remaining window, else a minute.
    if (known.status === 429) res.set('Retry-After', String(Math.max(1, Math.ceil(known.retryAfterSeconds ?? 60))));
    res.status(known.status).json(envelope(known.code, locale, known.fields, known.notUpdated, known.params));
    return;
  }
  req.log?.error({ err }, 'unexpected error');
  res.status(500).json(envelope('internal_error', locale));
};
