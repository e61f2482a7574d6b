import type { ErrorRequestHandler, Request } from 'express';
import { ERROR_CODES, type ErrorCode, type ErrorEnvelope } from '@portal/contracts';
import { localeFromAcceptLanguage, serverT, type Locale } from '@portal/i18n';

/** An expected failure: it becomes the spec's envelope with a translated message and never a stack trace. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: { status?: number; fields?: Record<string, string>; detail?: string } = {},
  ) {
    super(options.detail ?? code);
    this.status = options.status ?? ERROR_CODES[code];
    this.fields = options.fields;
  }
  readonly fields: Record<string, string> | undefined;
}

export function requestLocale(req: Request): Locale {
  return localeFromAcceptLanguage(req.get('accept-language'));
}

export function errorMessage(code: ErrorCode, locale: Locale): string {
  return serverT(locale)(`errors:${code}`);
}

export function envelope(code: ErrorCode, locale: Locale, fields?: Record<string, string>): ErrorEnvelope {
  return { success: false, message: errorMessage(code, locale), code, ...(fields ? { fields } : {}) };
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

/** The one error middleware: expected errors keep their code, anything else is logged and hidden. */
export const errorMiddleware: ErrorRequestHandler = (err, req, res, _next) => {
  const known = err instanceof AppError ? err : fromLibraryError((err ?? {}) as { status?: number; type?: string });
  const locale = requestLocale(req);
  if (known) {
    if (known.status >= 500) req.log?.error({ err }, 'request failed');
    res.status(known.status).json(envelope(known.code, locale, known.fields));
    return;
  }
  req.log?.error({ err }, 'unexpected error');
  res.status(500).json(envelope('internal_error', locale));
};
