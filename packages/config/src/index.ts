import path from 'node:path';
import { envSchema, ENV_VARIABLES, type Env } from './schema.ts';

export { envSchema, ENV_VARIABLES, type Env };

/** The embedded default key: fine on a laptop, refused in production. */
export const DEV_API_KEY = 'local-dev-api-key';

/** The stalled check's interval when none is set: a sixth of the lock, at least 500 ms (see WORKER_STALLED_INTERVAL_MS). */
export function defaultStalledInterval(lockDurationMs: number): number {
  return Math.max(500, Math.round(lockDurationMs / 6));
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  logLevel: Env['LOG_LEVEL'];
  http: { host: string; port: number; publicUrl: string; trustProxy: number; serveWeb: boolean; webDistDir: string };
  security: {
    apiKey: string;
    allowedOrigins: string[];
    cookie: { sameSite: 'lax' | 'strict' | 'none'; secure: boolean; name: string };
    /** Admin sessions: idle and absolute timeouts (SESS-05); other sessions last SESSION_DAYS. */
    adminSession: { idleMs: number; maxMs: number };
  };
  admin: { email: string; password: string | undefined };
  /**
   * The second factor (TOTP). `encryptionKey` (hex) encrypts the secrets at rest; when unset outside
   * production the API generates one into `keyFile` at first start (decision 134).
   */
  mfa: { encryptionKey: string | undefined; keyFile: string; requiredForAdmins: boolean };
  /**
   * Handed to `openDatabase` as it is. `template` is never read from the environment: the tests set it
   * to start their in-memory databases from a migrated dump (`DatabaseConfig` in @portal/db, decision 143);
   * nor is `thread` (a data directory's PGlite runs on a thread of its own by default, decision 180).
   */
  database: { driver: 'pglite'; dataDir: string; template?: string; thread?: boolean } | { driver: 'postgres'; url: string };
  redisUrl: string | undefined;
  storage:
    | { driver: 'local'; root: string }
    | { driver: 's3'; endPoint: string; port: number; useSSL: boolean; accessKey: string; secretKey: string; bucket: string; region: string };
  mail: { smtpUrl: string | undefined; outboxDir: string; from: string; supportAddress: string };
  uploads: { maxBytes: number; perUserPer10Minutes: number };
  /** The back office integration's sync key (decision 107); undefined: no integration, the route is a 404. */
  patentSync: { apiKey: string | undefined };
  ledes: { resultPageFindings: number };
  /** The API's forecast warm-up (decision 235): every this many ms, 0 off. */
  forecast: { warmupEveryMs: number };
  workers: { concurrency: { mail: number; ledes: number; annuities: number }; lockDurationMs: number; stalledIntervalMs: number; http: { port: number; host: string } | undefined };
  /** The bearer token of GET /metrics (decision 127); undefined: /metrics answers 404. */
  metrics: { token: string | undefined };
  /** The patent registers read by the sync (decision 193); `ops` undefined: no OPS credentials, no register reads. */
  registers: { ops: { consumerKey: string; consumerSecret: string; baseUrl: string } | undefined };
  dataDir: string;
}

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Parses the environment once at start-up; every problem is reported with the variable's name. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as docker-compose and shells often pass them.
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  const isProduction = env.NODE_ENV === 'production';

  const s3Vars = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;
  const s3Set = s3Vars.filter((k) => env[k] !== undefined);
  if (s3Set.length > 0 && s3Set.length < s3Vars.length) {
    problems.push(...s3Vars.filter((k) => env[k] === undefined).map((k) => `${k}: required when ${s3Set.join(', ')} is set`));
  }
  if ((env.OPS_CONSUMER_KEY === undefined) !== (env.OPS_CONSUMER_SECRET === undefined)) {
    const missing = env.OPS_CONSUMER_KEY === undefined ? 'OPS_CONSUMER_KEY' : 'OPS_CONSUMER_SECRET';
    problems.push(`${missing}: required when ${missing === 'OPS_CONSUMER_KEY' ? 'OPS_CONSUMER_SECRET' : 'OPS_CONSUMER_KEY'} is set (both or neither)`);
  }
  if (env.REDIS_URL && !env.DATABASE_URL) {
    problems.push('DATABASE_URL: required when REDIS_URL is set (the embedded PGlite database allows a single process)');
  }
  if (isProduction && !env.API_KEY) problems.push('API_KEY: required when NODE_ENV=production');
  if (isProduction && !env.PUBLIC_URL) problems.push('PUBLIC_URL: required when NODE_ENV=production');
  if (env.COOKIE_SAMESITE === 'none' && env.COOKIE_SECURE === false) {
    problems.push('COOKIE_SECURE: must be true when COOKIE_SAMESITE=none (browsers refuse insecure SameSite=None cookies)');
  }
  // BullMQ marks a job at one stalled check and moves it back to waiting at a later check once its
  // lock is gone: with an interval as long as the lock, a killed worker's job waited up to twice the lock.
  if (env.WORKER_STALLED_INTERVAL_MS !== undefined && env.WORKER_STALLED_INTERVAL_MS * 2 > env.WORKER_LOCK_DURATION_MS) {
    problems.push('WORKER_STALLED_INTERVAL_MS: must be at most half of WORKER_LOCK_DURATION_MS (a killed worker\'s job waits the lock plus up to this interval)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  // Without API_KEY the process answers to a key published in this repository, so it listens on
  // loopback only unless HOST says otherwise; production always has its own key and all interfaces.
  const host = env.HOST ?? (env.API_KEY ? '0.0.0.0' : '127.0.0.1');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  // The default is anchored at the repository root: `npm run … -w @portal/api` runs with cwd apps/api.
  const dataDir = env.DATA_DIR ? path.resolve(env.DATA_DIR) : path.join(REPO_ROOT, 'data');
  const secure = env.COOKIE_SECURE ?? (isProduction || env.COOKIE_SAMESITE === 'none');
  const allowedOrigins = (env.CORS_ORIGINS ?? new URL(publicUrl).origin)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);

  let storage: Config['storage'] = { driver: 'local', root: path.join(dataDir, 'files') };
  if (env.S3_ENDPOINT) {
    const endpoint = new URL(env.S3_ENDPOINT);
    const useSSL = endpoint.protocol === 'https:';
    storage = {
      driver: 's3',
      endPoint: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: env.S3_ACCESS_KEY!,
      secretKey: env.S3_SECRET_KEY!,
      bucket: env.S3_BUCKET!,
      region: env.S3_REGION,
    };
  }

  return {
    env: env.NODE_ENV,
    isProduction,
    logLevel: env.LOG_LEVEL,
    http: {
      host,
      port: env.PORT,
      publicUrl,
      trustProxy: env.TRUST_PROXY,
      serveWeb: env.SERVE_WEB ?? true,
      webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(REPO_ROOT, 'apps/web/dist')),
    },
    security: {
      apiKey: env.API_KEY ?? DEV_API_KEY,
      allowedOrigins,
      // The __Host- prefix pins the cookie to our host and path (SESS-12); browsers only accept it when Secure.
      cookie: { sameSite: env.COOKIE_SAMESITE, secure, name: secure ? '__Host-portal_sid' : 'portal_sid' },
      adminSession: { idleMs: env.ADMIN_SESSION_IDLE_MINUTES * 60_000, maxMs: env.ADMIN_SESSION_MAX_HOURS * 3_600_000 },
    },
    admin: { email: env.ADMIN_EMAIL ?? 'admin@portal.local', password: env.ADMIN_PASSWORD },
    mfa: { encryptionKey: env.MFA_ENCRYPTION_KEY?.toLowerCase(), keyFile: path.join(dataDir, 'mfa-encryption.key'), requiredForAdmins: env.MFA_REQUIRED_FOR_ADMINS },
    database: env.DATABASE_URL ? { driver: 'postgres', url: env.DATABASE_URL } : { driver: 'pglite', dataDir: path.join(dataDir, 'db') },
    redisUrl: env.REDIS_URL,
    storage,
    mail: { smtpUrl: env.SMTP_URL, outboxDir: path.join(dataDir, 'outbox'), from: env.MAIL_FROM, supportAddress: env.SUPPORT_EMAIL },
    uploads: { maxBytes: env.UPLOAD_MAX_BYTES, perUserPer10Minutes: env.UPLOAD_RATE_LIMIT },
    patentSync: { apiKey: env.PATENT_SYNC_API_KEY },
    ledes: { resultPageFindings: env.LEDES_RESULT_PAGE_FINDINGS },
    forecast: { warmupEveryMs: env.FORECAST_WARMUP_EVERY_MS },
    workers: {
      concurrency: { mail: env.WORKER_CONCURRENCY_MAIL, ledes: env.WORKER_CONCURRENCY_LEDES, annuities: env.WORKER_CONCURRENCY_ANNUITIES },
      lockDurationMs: env.WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS ?? defaultStalledInterval(env.WORKER_LOCK_DURATION_MS),
      http: env.WORKER_HTTP_PORT === undefined ? undefined : { port: env.WORKER_HTTP_PORT, host: env.WORKER_HTTP_HOST },
    },
    metrics: { token: env.METRICS_TOKEN },
    registers: {
      ops:
        env.OPS_CONSUMER_KEY && env.OPS_CONSUMER_SECRET
          ? { consumerKey: env.OPS_CONSUMER_KEY, consumerSecret: env.OPS_CONSUMER_SECRET, baseUrl: env.OPS_BASE_URL.replace(/\/+$/, '') }
          : undefined,
    },
    dataDir,
  };
}
