import type { IncomingMessage } from 'node:http';

/** `https://Portal.Example.com:443/` → `https://portal.example.com`; throws on a non-URL. */
export function normalizeOrigin(origin: string): string {
  return new URL(origin).origin;
}

/**
 * WS-02 (cross-site WebSocket hijacking): CORS does not apply to WebSocket upgrades, so the Origin
 * is checked on every engine.io request, upgrades included.
 * - Origin present: must be exactly one of the allowed origins (`null` never is).
 * - Origin absent: allowed unless `allowMissingOrigin` is false. Browsers always send Origin on
 *   WebSocket upgrades and cross-origin requests, so a missing one means a same-origin polling GET
 *   or a non-browser client — which could forge any Origin anyway; the session cookie still decides.
 */
export function originGuard(allowedOrigins: readonly string[], allowMissingOrigin: boolean) {
  const allowed = new Set(allowedOrigins.map(normalizeOrigin));
  return (req: IncomingMessage, callback: (err: string | null | undefined, success: boolean) => void): void => {
    const origin = req.headers.origin;
    if (origin === undefined) {
      callback(allowMissingOrigin ? null : 'origin required', allowMissingOrigin);
      return;
    }
    let ok: boolean;
    try {
      ok = allowed.has(normalizeOrigin(origin));
    } catch {
      ok = false; // "null" or garbage
    }
    callback(ok ? null : 'origin not allowed', ok);
  };
}
