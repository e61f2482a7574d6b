import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Secrets never reach the logs (LOG-01): credentials, cookies and the API key are redacted by path,
 * and URLs carrying a reset token or an e-mail address are rewritten by `redactUrl` before logging.
 */
const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

export function createLogger(options: { level: string; name: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      // UTC ISO timestamps (LOG-06).
      timestamp: pino.stdTimeFunctions.isoTime,
      base: { service: options.name },
    },
    destination,
  );
}

const SECRET_PATH_SEGMENTS: Array<[RegExp, string]> = [
  [/(\/auth\/reset_password\/)[^/?]+/, '$1[redacted]'],
  [/(\/auth\/(?:request_reset_password|first_connection)\/)[^/?]+/, '$1[redacted]'],
];

export function redactUrl(url: string): string {
  let out = url;
  for (const [pattern, replacement] of SECRET_PATH_SEGMENTS) out = out.replace(pattern, replacement);
  return out.replace(/([?&](?:token|id|email)=)[^&]*/g, '$1[redacted]');
}

/** Properties of database errors that carry the values of a query (argon2 hashes, e-mails, names). */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail']);

/**
 * The `err` serializer of every logger (pino-http children too: pass it there). Database errors
 * carry the query's values: drizzle's DrizzleQueryError has `params` and repeats them in its message
 * ("Failed query: … params: a@b.c,$argon2id$…"), pg and PGlite errors have a `detail`
 * ("Key (email)=(a@b.c) already exists") and quote the bad value in some messages. All are
 * redacted along the whole `cause` chain before pino's standard serializer runs (LOG-01).
 */
export function serializeError(err: unknown): unknown {
  return pino.stdSerializers.err(redactError(err) as Error);
}

export function redactError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 8) return err;
  const source = err as Error & Record<string, unknown>;
  const message = redactMessage(source);
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error & Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    copy[key] = VALUE_FIELDS.has(key) ? '[redacted]' : key === 'cause' ? redactError(value, depth + 1) : value;
  }
  copy.message = message;
  copy.stack = source.stack?.replace(source.message, message);
  if (source.cause !== undefined) copy.cause = redactError(source.cause, depth + 1);
  if (Array.isArray(source.errors)) copy.errors = source.errors.map((inner: unknown) => redactError(inner, depth + 1));
  return copy;
}

function redactMessage(err: Error & Record<string, unknown>): string {
  let message = err.message;
  if ('params' in err) message = message.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
  // PostgreSQL quotes the refused value: invalid input syntax for type uuid: "a@b.c"
  return message.replace(/(invalid input (?:syntax|value) for [^:\n]+: )"[\s\S]*"/, '$1"[redacted]"');
}
