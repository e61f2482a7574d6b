import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { annuityFiles, annuityPatents, users, type DatabaseHandle } from '../src/index.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

const kinds = testDatabaseKinds();
/** Both drivers answer `execute` with `{ rows }`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The annuity patents' trigram index (decision 176): PostgreSQL keeps it; the embedded database drops it
 * (its upkeep ran on the API's thread and slowed a big file's inserts ~4×), and a search there filters
 * the file's rows. The substring search gives the same rows either way.
 */
describe.each(kinds)('annuity patents search index (%s)', (kind) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it(kind === 'pglite' ? 'has no trigram index on the embedded database' : 'keeps the trigram index on PostgreSQL', async () => {
    const result: unknown = await handle.db.execute(sql`select indexname from pg_indexes where tablename = 'annuity_patents' and indexdef ilike '%gin_trgm_ops%'`);
    const names = rowsOf<{ indexname: string }>(result).map((r) => r.indexname);
    expect(names).toEqual(kind === 'pglite' ? [] : ['annuity_patents_search_trgm_idx']);
  });

  it('finds a substring of the search text inside one file', async () => {
    const { db } = handle;
    const [owner] = await db.insert(users).values({ companyAgent: 'Firm', email: `search-${kind}@portal.test` }).returning();
    const [file] = await db.insert(annuityFiles).values({ ownerId: owner!.id, importName: 'a.xlsx', exportName: 'a.xlsx', importKey: `k/${crypto.randomUUID()}`, size: 1, sha256: 'x' }).returning();
    await db.insert(annuityPatents).values(
      Array.from({ length: 50 }, (_, i) => ({ fileId: file!.id, rowIndex: i, sheet: 'S', rowNumber: i + 2, colour: 'ok' as const, searchText: `ep${1000 + i}\u0001ref-${i}\u0001brevet ${i}` })),
    );
    const found: unknown = await db.execute(sql`select row_index from annuity_patents where file_id = ${file!.id} and search_text like ${'%ref-4%'} order by row_index`);
    expect(rowsOf<{ row_index: number }>(found).map((r) => r.row_index)).toEqual([4, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });
});
