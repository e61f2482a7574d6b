import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { builtEntry, builtServer } from './built-server.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Node's warning that an emitter got more listeners than its limit: a leak (a listener per chunk, per
 * request, per run). A process started for a test that prints it fails the test (issue 28), as the
 * test files' own processes do (scripts/vitest/no-max-listeners.ts).
 */
const LISTENER_LEAK = /MaxListenersExceededWarning[^\n]*/;

/**
 * Starts one of our entrypoints as its own Node process, the way production runs it: the API and the workers
 * from the built server (plain JavaScript, no TypeScript loader), other scripts from their source through tsx.
 * `waitFor` and `stop` reject once its output shows a MaxListenersExceededWarning.
 */
export function startProcess(entry: string, env: Record<string, string>): RunningProcess {
  const bundle = builtEntry(entry);
  // BENCH_NODE_ARGS: Node options the benches give the portal's processes (e.g. `--cpu-prof --cpu-prof-dir=<dir>`, which
  // profiles every thread that inherits them; NODE_OPTIONS refuses `--cpu-prof`).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const args = [...nodeArgs, ...(bundle ? [path.join(builtServer(), bundle)] : ['--import', 'tsx', path.join(REPO_ROOT, entry)])];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const leak = () => {
    const warning = LISTENER_LEAK.exec(output)?.[0];
    return warning ? new Error(`${entry} printed a listener leak warning: ${warning}`) : null;
  };
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const timer = setInterval(() => {
          const leaked = leak();
          if (leaked) {
            clearInterval(timer);
            reject(leaked);
          } else if (pattern.test(output)) {
            clearInterval(timer);
            resolve();
          } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(timer);
            reject(new Error(`${entry} did not print ${pattern} (exit ${child.exitCode}):\n${output.slice(-3000)}`));
          }
        }, 50);
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
      const leaked = leak();
      if (leaked) throw leaked;
    },
  };
}

/** The API key and first admin of every production-mode process the tests start. */
export const PRODUCTION_API_KEY = 'production-mode-test-api-key';
export const PRODUCTION_MFA_KEY = '5a'.repeat(32);
export const PRODUCTION_ADMIN = { email: 'ops@portal.example.com', password: 'production-admin-password' };
export const PRODUCTION_BUCKET = 'portal-prod-test';

/** The environment of a production-mode process (API or worker) wired to services on loopback. */
export function productionEnv(services: { port: number; databaseUrl: string; redisUrl: string; s3Endpoint: string; smtpUrl?: string }): Record<string, string> {
  const url = `http://127.0.0.1:${services.port}`;
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(services.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: 'https://portal.example.com',
    CORS_ORIGINS: url,
    API_KEY: PRODUCTION_API_KEY,
    MFA_ENCRYPTION_KEY: PRODUCTION_MFA_KEY,
    // Decision 137: the production-topology tests sign the admin in with the password alone.
    MFA_REQUIRED_FOR_ADMINS: 'false',
    SERVE_WEB: 'false',
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    S3_ENDPOINT: services.s3Endpoint,
    S3_BUCKET: PRODUCTION_BUCKET,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
    SMTP_URL: services.smtpUrl ?? 'smtp://127.0.0.1:9',
    ADMIN_EMAIL: PRODUCTION_ADMIN.email,
    ADMIN_PASSWORD: PRODUCTION_ADMIN.password,
  };
}

export interface ProductionServices {
  /** Environment of a production-mode process wired to these services. */
  env: Record<string, string>;
  url: string;
  apiKey: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The production topology's services on loopback: a fresh PostgreSQL database, a private
 * redis-server and an S3 server, plus the environment an API or worker process needs to use them.
 */
export async function startProductionServices(baseDatabaseUrl: string, extraEnv: Record<string, string> = {}): Promise<ProductionServices> {
  const stops: Array<() => Promise<void> | void> = [];
  const database = await createScratchDatabase(baseDatabaseUrl);
  stops.push(() => database.drop());
  const redis = await startRedisServer();
  stops.push(() => redis.stop());
  const s3Dir = mkdtempSync(path.join(tmpdir(), 'portal-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true });
  const { port: s3Port } = await s3.run();
  stops.push(async () => {
    await s3.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...productionEnv({ port, databaseUrl: database.url, redisUrl: redis.url, s3Endpoint: `http://127.0.0.1:${s3Port}` }), ...extraEnv };
  const apiKey = extraEnv.API_KEY ?? PRODUCTION_API_KEY;
  return {
    env,
    url,
    apiKey,
    databaseUrl: database.url,
    async stop() {
      for (const stop of stops.reverse()) await stop();
    },
  };
}

export interface ProductionPortal extends ProductionServices {
  /** The API process, started and ready. */
  api: RunningProcess;
  /** A connection to the portal's database, to read the truth the screens read. */
  db: pg.Client;
}

/** The production services, an API process ready on them and a database connection; `stop()` undoes all of it. */
export async function startProductionPortal(baseDatabaseUrl: string, extraEnv: Record<string, string> = {}): Promise<ProductionPortal> {
  const services = await startProductionServices(baseDatabaseUrl, extraEnv);
  const api = startProcess('apps/api/src/main.ts', services.env);
  const db = new pg.Client({ connectionString: services.databaseUrl });
  try {
    await api.waitFor(/Portal ready on/);
    await db.connect();
  } catch (error) {
    await api.stop();
    await services.stop();
    throw error;
  }
  return {
    ...services,
    api,
    db,
    async stop() {
      await db.end().catch(() => undefined);
      await api.stop();
      await services.stop();
    },
  };
}

/** Polls `select state, … from <table> where id = $1` until the row reaches `state`. */
export async function waitForRowState<Row extends { state: string }>(db: pg.Client, query: string, id: string, state: string, timeoutMs: number): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query(query, [id]);
    if (rows[0]?.state === state) return rows[0] as Row;
    if (Date.now() > deadline) throw new Error(`${id} still ${String(rows[0]?.state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
