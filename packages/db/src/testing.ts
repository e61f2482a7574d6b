import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from './client.ts';

/**
 * Creates a fresh PostgreSQL database for one test run and returns its URL and a drop function.
 * `baseUrl` points at a server where the role may CREATE DATABASE (CI: postgres@127.0.0.1, trust auth).
 */
export async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The PostgreSQL server tests use: TEST_DATABASE_URL, or null when unset (PGlite-only run). */
export function testDatabaseBaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL || null;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/** The databases a test runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return testDatabaseBaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A migrated database of `kind` for one test file: an in-memory PGlite, or a fresh PostgreSQL database
 * (`createScratchDatabase`) that `close()` also drops.
 */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<DatabaseHandle> {
  const scratch = kind === 'postgres' ? await createScratchDatabase(testDatabaseBaseUrl()!) : null;
  const handle = openDatabase(scratch ? { driver: 'postgres', url: scratch.url } : { driver: 'pglite', dataDir: 'memory://' });
  try {
    await handle.migrate();
  } catch (error) {
    await handle.close();
    await scratch?.drop();
    throw error;
  }
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch?.drop();
    },
  };
}
