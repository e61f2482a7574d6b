/**
 * The environment of a bench's production-mode API or worker: local-disk storage in `dataDir`,
 * PostgreSQL and Redis when given (the embedded database otherwise), mail to a closed port.
 * The admin signs in with the password alone (MFA not required, as in the production-topology tests,
 * decision 137), so a bench can drive the admin screens' API without an authenticator.
 */
import { PRODUCTION_MFA_KEY } from '../apps/api/test/support/processes.ts';

export const BENCH_API_KEY = 'bench-api-key-bench-api-key';
export const BENCH_ADMIN = { email: 'bench@portal.example.com', password: 'bench-admin-password' };

export function benchProductionEnv(options: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  logLevel?: 'info' | 'warn';
}): Record<string, string> {
  const url = `http://127.0.0.1:${options.port}`;
  return {
    NODE_ENV: 'production', LOG_LEVEL: options.logLevel ?? 'info', PORT: String(options.port), HOST: '127.0.0.1', PUBLIC_URL: url,
    API_KEY: BENCH_API_KEY, MFA_ENCRYPTION_KEY: PRODUCTION_MFA_KEY, MFA_REQUIRED_FOR_ADMINS: 'false',
    SERVE_WEB: 'false', DATA_DIR: options.dataDir, COOKIE_SECURE: 'false', SMTP_URL: 'smtp://127.0.0.1:9',
    ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, UPLOAD_RATE_LIMIT: '10000',
    // What the start scripts and the images set (decision 230): the benches measure the processes as they run.
    MALLOC_ARENA_MAX: '2',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
  };
}

/**
 * Waits until the API's renewal forecast is whole (decision 235: after start, the API rebuilds it in the background,
 * a few seconds to a minute at 100,000 patents): a bench measures the portal as its users meet it all day, not the
 * minute of that rebuild. `get` is a signed-in admin's.
 */
export async function forecastWarm(get: (path: string) => Promise<{ status: number; body: unknown }>, timeoutMs = 600_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await get('/api/forecast');
    if (res.status !== 200) throw new Error(`GET /api/forecast: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    if (!(res.body as { updating: boolean }).updating) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error('the forecast is still updating');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
