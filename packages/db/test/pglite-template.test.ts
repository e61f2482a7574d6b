import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER } from '../src/client.ts';
import { openDatabase, users, type DatabaseHandle } from '../src/index.ts';
import { pgliteTestTemplate, testPgliteConfig } from '../src/testing.ts';

/** The tests' in-memory databases start from a migrated template instead of initdb; each must still be a database of its own. */
describe('PGlite test template', () => {
  const opened: DatabaseHandle[] = [];
  const open = () => {
    const handle = openDatabase(testPgliteConfig());
    opened.push(handle);
    return handle;
  };
  afterAll(async () => {
    await Promise.all(opened.map((h) => h.close()));
  });

  it('is made once and named by what it holds', () => {
    const file = pgliteTestTemplate();
    expect(pgliteTestTemplate()).toBe(file);
    expect(path.basename(file)).toMatch(/^[0-9a-f]{16}\.tar$/);
  });

  it('starts a database with every migration applied and the trigram extension', async () => {
    const handle = open();
    const applied: unknown = await handle.db.execute(sql`select count(*)::integer as n from drizzle.__drizzle_migrations`);
    expect((applied as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(readdirSync(MIGRATIONS_FOLDER).filter((n) => n.endsWith('.sql')).length);
    await handle.migrate();
    const trigrams: unknown = await handle.db.execute(sql`select similarity('annuity', 'annuities') > 0.3 as close`);
    expect((trigrams as { rows: Array<{ close: boolean }> }).rows[0]!.close).toBe(true);
  });

  it('gives every test a database of its own', async () => {
    const first = open();
    const second = open();
    await first.db.insert(users).values({ companyAgent: 'Firm', email: 'only-in-first@firm.test' });
    expect(await first.db.$count(users)).toBe(1);
    expect(await second.db.$count(users)).toBe(0);
  });

  it('is refused for a database on disk', () => {
    expect(() => openDatabase({ driver: 'pglite', dataDir: path.join('/tmp', 'never-created'), template: pgliteTestTemplate() })).toThrow(/in-memory/);
  });
});
