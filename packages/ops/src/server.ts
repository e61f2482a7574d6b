import http from 'node:http';
import { hasMetricsToken, type PortalMetrics } from './metrics.ts';
import { checkReadiness, type Readiness } from './readiness.ts';

/** Seconds a client should wait before asking a not-ready process again. */
const RETRY_AFTER_SECONDS = 5;

export interface OpsServerOptions {
  port: number;
  host: string;
  readiness: Readiness;
  metrics: PortalMetrics;
  /** The bearer token of /metrics; undefined: /metrics answers 404 (decision 127). */
  metricsToken: string | undefined;
  /** Set once the process stops taking work: /readyz answers 503 from then on. */
  stopping?: () => boolean;
  onError?: (error: unknown) => void;
}

export interface OpsServer {
  /** The port it listens on (the configured one, or the one the system gave for 0). */
  port: number;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A worker's own small HTTP server (decision 128): `/healthz` (the process answers), `/readyz`
 * (database, Redis, storage reachable, and not shutting down), `/metrics` (Prometheus, bearer token).
 * The `/health/live` and `/health/ready` names of the API answer too. GET and HEAD only.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, { success: false, message: 'Method not allowed', code: 'method_not_allowed' }, { allow: 'GET, HEAD' });
      return;
    }
    const answer = async () => {
      switch (path) {
        case '/healthz':
        case '/health/live':
          send(res, 200, { status: 'ok' });
          return;
        case '/readyz':
        case '/health/ready': {
          const { ok, checks } = await checkReadiness(options.readiness);
          const stopping = options.stopping?.() ?? false;
          if (ok && !stopping) send(res, 200, { status: 'ok', checks });
          else send(res, 503, { status: stopping ? 'stopping' : 'unavailable', checks }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
          return;
        }
        case '/metrics': {
          const token = options.metricsToken;
          if (!token) {
            send(res, 404, { success: false, message: 'Not found', code: 'not_found' });
            return;
          }
          if (!hasMetricsToken(req.headers.authorization, token)) {
            send(res, 401, { success: false, message: 'Authentication required', code: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
            return;
          }
          const text = await options.metrics.render();
          res.writeHead(200, { 'content-type': options.metrics.contentType, 'cache-control': 'no-store' });
          res.end(text);
          return;
        }
        default:
          send(res, 404, { success: false, message: 'Not found', code: 'not_found' });
      }
    };
    answer().catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) send(res, 500, { success: false, message: 'Internal error', code: 'internal' });
      else res.destroy();
    });
  });
  // A probe holds no connection open: nothing delays the shutdown.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
