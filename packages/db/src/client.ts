import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './embedded-lock.ts';
import { PgliteThreadClient } from './pglite-thread.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** The one database type the rest of the code base sees, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run a query: the database itself or an open transaction. */
export type Executor = Database | Transaction;

export type DatabaseConfig =
  | {
      driver: 'pglite';
      dataDir: string;
      /**
       * In-memory databases only: a dump (PGlite's `dumpDataDir`, uncompressed tar) of an initialised,
       * migrated directory to start from instead of running initdb (~1 s instead of ~4 s; the tests'
       * template, `pgliteTestTemplate` in `@portal/db/testing`).
       */
      template?: string;
      /**
       * PGlite on a worker thread of this process (decision 180), so its statements do not hold the caller's
       * event loop. Default: on for a directory (the embedded portal), off for 'memory://' (tests).
       */
      thread?: boolean;
    }
  | { driver: 'postgres'; url: string; poolSize?: number };

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseConfig['driver'];
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../migrations');
/** Key of the session-level advisory lock that serialises migrations: "portal" in ASCII. */
const MIGRATION_LOCK_ID = 0x706f7274616c;

/**
 * PGlite's defaults are sized for a server (shared_buffers 128 MB); the embedded portal is one user's
 * machine. These bring an idle embedded API from ~350 to ~230 MB of PGlite (docs/benchmarks.md).
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['shared_buffers=16MB', 'wal_buffers=1MB', 'temp_buffers=4MB', 'work_mem=4MB', 'maintenance_work_mem=16MB'].flatMap((p) => ['-c', p]),
];

/**
 * A new data directory is initialised (initdb) by a short child process: PGlite keeps most of what
 * its first start allocates (~600 MB) for the life of the process that did it. Blocking is fine here:
 * it happens once per directory, before anything is served.
 */
function initialisePgliteDir(dataDir: string): void {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  execFileSync(process.execPath, [path.join(import.meta.dirname, 'pglite-init.mjs'), dataDir, JSON.stringify(PGLITE_START_PARAMS)], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Which driver a `Database` runs on, from its own client (node-postgres has a pool, PGlite not): what code given only the `Database` asks. */
/**
 * A port of the embedded database's thread for another thread of this process (decision 232; `DatabasePort` in
 * `@portal/db/thread-port` speaks on it), or null when the database does not run on a thread of its own (PostgreSQL,
 * an in-memory PGlite of the tests).
 */
export function openDatabasePort(db: Database): MessagePort | null {
  const client = (db as unknown as { $client: unknown }).$client;
  return client instanceof PgliteThreadClient ? client.openPort() : null;
}

export function driverOf(db: Database): DatabaseConfig['driver'] {
  return (db as unknown as { $client: unknown }).$client instanceof pg.Pool ? 'postgres' : 'pglite';
}

export interface OpenOptions {
  /**
   * The embedded database's thread stopped unasked (decision 180): its statements have failed with `error` and
   * every later one fails. The API logs it and exits non-zero (its supervisor restarts it). Default: the error
   * is written to stderr and the process exits with code 1.
   */
  onThreadCrash?: (error: Error) => void;
}

function exitOnThreadCrash(error: Error): void {
  console.error(error);
  process.exit(1);
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): DatabaseHandle {
  if (config.driver === 'pglite') {
    if (config.template && !config.dataDir.startsWith('memory://')) throw new Error('A PGlite template is for in-memory databases only');
    // 'memory://' keeps tests fast and isolated; a path gives the embedded mode's persistent database.
    const inMemory = config.dataDir.startsWith('memory://');
    if (!inMemory) mkdirSync(config.dataDir, { recursive: true });
    // PGlite allows one process per directory and does not enforce it: a second one loses writes.
    const unlock = inMemory ? () => {} : lockDataDir(config.dataDir);
    if (!inMemory) {
      try {
        initialisePgliteDir(config.dataDir);
      } catch (error) {
        unlock();
        throw error;
      }
      // PGlite's WebAssembly compiled on V8's background threads leaves each thread's malloc arena
      // holding tens of MB for good; compiled on this thread, start-up is a little slower and idle
      // RSS ~50 MB lower (docs/benchmarks.md). The embedded API is the only process that opens it.
      v8.setFlagsFromString('--wasm-num-compilation-tasks=0');
    }
    // pg_trgm: the annuity patents' search index (migration 0005).
    // (`new PGlite(undefined, options)` ignores its options: an in-memory database is named 'memory://'.)
    const dataDir = inMemory ? 'memory://' : config.dataDir;
    // Drizzle's pglite driver calls query, exec, transaction, waitReady and close: the thread's client forwards them.
    const client =
      (config.thread ?? !inMemory)
        ? (new PgliteThreadClient({ dataDir, startParams: PGLITE_START_PARAMS, template: config.template, onCrash: options.onThreadCrash ?? exitOnThreadCrash }) as unknown as PGlite)
        : new PGlite(dataDir, {
            startParams: PGLITE_START_PARAMS,
            extensions: { pg_trgm },
            ...(config.template ? { loadDataDir: new Blob([readFileSync(config.template)]) } : {}),
          });
    const db = drizzlePglite({ client, schema });
    return {
      db,
      driver: 'pglite',
      migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      ping: async () => void (await client.query('select 1')),
      close: async () => {
        try {
          await client.close();
        } finally {
          unlock();
        }
      },
    };
  }
  const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize ?? 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // A checked-out client (a transaction under way) losing its connection emits 'error' on the client
  // itself; without a listener that kills the process. Its query fails and is handled by the caller.
  pool.on('connect', (client) => void client.on('error', () => {}));
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    driver: 'postgres',
    migrate: () => migratePostgres(config.url),
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}

/**
 * Migrates under a PostgreSQL advisory lock, so API replicas starting together take turns: the
 * first applies the migrations, the others then find nothing left to do. Drizzle's migrator alone
 * races (both create its bookkeeping schema and both apply the same migration). The lock is held by
 * a dedicated connection's session, which ends, releasing it, even when a migration fails.
 */
async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
}

/** Postgres error code for unique_violation, raised the same way by PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
