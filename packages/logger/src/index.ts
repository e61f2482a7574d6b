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
const VALUE_FIELDS = ['params', 'parameters', 'detail'];
/** PostgreSQL quotes the refused value in some messages: invalid input syntax for type uuid: "a@b.c" */
const QUOTED_VALUE = /(invalid input (?:syntax|value) for [^:\n]+: )"[^\n]*"/g;

/**
 * The `err` serializer of every logger (pass it to pino-http too, which otherwise puts pino's plain
 * one back). Database errors carry the query's values: drizzle's DrizzleQueryError has `params` and
 * repeats them in its message and stack ("Failed query: … params: a@b.c,$argon2id$…"), pg and PGlite
 * errors have a `detail` ("Key (email)=(a@b.c) already exists") and quote some refused values. All
 * are redacted, along the whole `cause` chain (LOG-01). pino-http hands this serializer an error
 * already serialized by pino's, so both shapes are handled.
 */
export function serializeError(err: unknown): unknown {
  if (err instanceof Error) return pino.stdSerializers.err(redactError(err) as Error);
  if (err === null || typeof err !== 'object') return err;
  const serialized = { ...(err as Record<string, unknown>) };
  const leaked = leakedParams(serialized);
  redactFields(serialized, leaked);
  return serialized;
}

/** A copy of the error (and its causes) with the query values removed; the original is untouched. */
export function redactError(err: unknown): unknown {
  const leaked: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    leaked.push(...leakedParams(e as unknown as Record<string, unknown>));
  }
  return redactChain(err, leaked, 0);
}

function redactChain(err: unknown, leaked: string[], depth: number): unknown {
  if (!(err instanceof Error) || depth > 8) return err;
  const source = err as Error & Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error & Record<string, unknown>;
  Object.assign(copy, source);
  copy.message = source.message;
  copy.stack = source.stack;
  redactFields(copy, leaked);
  if (source.cause !== undefined) copy.cause = redactChain(source.cause, leaked, depth + 1);
  if (Array.isArray(source.errors)) copy.errors = source.errors.map((inner: unknown) => redactChain(inner, leaked, depth + 1));
  return copy;
}

/** Drizzle writes `Failed query: ${query}\nparams: ${params}`: the exact text to remove, from the `params` it also keeps. */
function leakedParams(holder: Record<string, unknown>): string[] {
  return Array.isArray(holder.params) ? [`\nparams: ${String(holder.params)}`] : [];
}

function redactFields(target: Record<string, unknown>, leaked: string[]): void {
  for (const field of VALUE_FIELDS) if (field in target) target[field] = '[redacted]';
  for (const field of ['message', 'stack']) {
    const original = target[field];
    if (typeof original !== 'string') continue;
    let text = original;
    for (const value of leaked) text = text.replaceAll(value, '\nparams: [redacted]');
    target[field] = text.replace(QUOTED_VALUE, '$1"[redacted]"');
  }
}
