import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './embedded-lock.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** The one database type the rest of the code base sees, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run a query: the database itself or an open transaction. */
export type Executor = Database | Transaction;

export type DatabaseConfig = { driver: 'pglite'; dataDir: string } | { driver: 'postgres'; url: string; poolSize?: number };

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseConfig['driver'];
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../migrations');
/** Key of the session-level advisory lock that serialises migrations: "portal" in ASCII. */
const MIGRATION_LOCK_ID = 0x706f7274616c;

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.driver === 'pglite') {
    // 'memory://' keeps tests fast and isolated; a path gives the embedded mode's persistent database.
    const inMemory = config.dataDir.startsWith('memory://');
    if (!inMemory) mkdirSync(config.dataDir, { recursive: true });
    // PGlite allows one process per directory and does not enforce it: a second one loses writes.
    const unlock = inMemory ? () => {} : lockDataDir(config.dataDir);
    const client = new PGlite(inMemory ? undefined : config.dataDir);
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
