import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
