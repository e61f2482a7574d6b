import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((u) => protocols.includes(new URL(u).protocol), { message: `must use ${protocols.join(' or ')}` })
    .optional();
const positiveInt = z.coerce.number().int().positive();

/**
 * Every environment variable the product reads, in one schema. Nothing else in the code base reads
 * process.env directly; docs/architecture.md and .env.example list the same names.
 * No variable set at all gives the embedded mode.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Default: 127.0.0.1 while API_KEY is unset (the public development key), 0.0.0.0 otherwise. */
  HOST: z.string().min(1).optional(),
  PORT: port.default(3000),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Default: `data` at the repository root, whatever workspace starts the process. */
  DATA_DIR: z.string().min(1).optional(),
  SERVE_WEB: bool.optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),

  API_KEY: z.string().min(16).optional(),
  /** The back office integration's key for PUT /api/brevet_eptane/sync (Authorization: Bearer); unset: the route answers 404. */
  PATENT_SYNC_API_KEY: z.string().min(32).max(512).optional(),
  CORS_ORIGINS: z.string().optional(),
  COOKIE_SAMESITE: z.enum(['lax', 'strict', 'none']).default('lax'),
  COOKIE_SECURE: bool.optional(),

  /**
   * AES-256-GCM key of the TOTP secrets at rest: 64 hex characters (`openssl rand -hex 32`). Required
   * for the API in production; elsewhere generated once into DATA_DIR/mfa-encryption.key when unset.
   */
  MFA_ENCRYPTION_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes: openssl rand -hex 32)').optional(),
  /** Admins must enrol a second factor at their first login (default). false only for test set-ups not about MFA. */
  MFA_REQUIRED_FOR_ADMINS: bool.default(true),

  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(12).max(128).optional(),

  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),

  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name').optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),

  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).default('IP Portal <no-reply@localhost>'),
  SUPPORT_EMAIL: z.string().email().default('support@localhost.localdomain'),

  /** Per file. 64 MiB holds a 200,000-line LEDES file (30–45 MB), a normal customer file. */
  UPLOAD_MAX_BYTES: positiveInt.default(64 * 1024 * 1024),
  /** Findings one page of a LEDES result holds at most (a page ends on a whole line). */
  LEDES_RESULT_PAGE_FINDINGS: z.coerce.number().int().min(10).max(1_000_000).default(50_000),
  /**
   * How often the API checks whether the renewal forecast needs its rebuild (a new day, patents changed) and starts it
   * in the background, so the first reader of the day finds it whole (decision 235); 0: only when a request finds it
   * needed. The first check runs a few seconds after start.
   */
  FORECAST_WARMUP_EVERY_MS: z.coerce.number().int().min(0).max(24 * 3_600_000).default(60_000),
  /** Upload requests per user per 10 minutes; past it, 429. */
  UPLOAD_RATE_LIMIT: positiveInt.default(120),
  /** Admin sessions end after this long without a request (SESS-05)... */
  ADMIN_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  /** ...and this long after the login, active or not. */
  ADMIN_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(30 * 24).default(12),
  WORKER_CONCURRENCY_MAIL: positiveInt.default(4),
  WORKER_CONCURRENCY_LEDES: positiveInt.default(2),
  WORKER_CONCURRENCY_ANNUITIES: positiveInt.default(1),
  /** BullMQ lock of a running job; a killed worker's job is taken over this long after its last lock renewal, plus at most one stalled interval. */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * How often the queue looks for jobs whose lock expired (a killed worker's jobs); at most half the
   * lock. Unset: a sixth of the lock (5 s for 30 s), so a killed worker's job waits the lock and little more.
   */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(300_000).optional(),
  /** A worker's own HTTP port (/healthz, /readyz, /metrics); unset: no HTTP server (decision 128). */
  WORKER_HTTP_PORT: port.optional(),
  /** Where that server listens; default 0.0.0.0 (the port is never published to the host). */
  WORKER_HTTP_HOST: z.string().min(1).default('0.0.0.0'),
  /** Bearer token of `GET /metrics` on the API and the workers; unset: /metrics answers 404 (decision 127). */
  METRICS_TOKEN: z.string().min(16).max(512).optional(),

  /** EPO Open Patent Services consumer key (developers.epo.org app); with the secret, turns the register reads on (decision 193). */
  OPS_CONSUMER_KEY: z.string().min(8).max(256).optional(),
  /** EPO Open Patent Services consumer secret; both or neither. */
  OPS_CONSUMER_SECRET: z.string().min(8).max(256).optional(),
  /** Where OPS answers; the tests point it at a local server. */
  OPS_BASE_URL: z
    .string()
    .url()
    .refine((u) => ['http:', 'https:'].includes(new URL(u).protocol), { message: 'must use http: or https:' })
    .default('https://ops.epo.org'),
});
export type Env = z.infer<typeof envSchema>;
export const ENV_VARIABLES = Object.keys(envSchema.shape) as Array<keyof Env>;
