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
