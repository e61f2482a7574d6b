import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainPlan, fullSorts, openTestDatabase, planNodes, testDatabaseKinds } from '../src/testing.ts';
import type { DatabaseHandle } from '../src/client.ts';

describe.each(testDatabaseKinds())('explainPlan (%s)', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await handle.db.execute(sql`create table plan_probe (id integer primary key, v integer)`);
    await handle.db.execute(sql`insert into plan_probe select g, g % 97 from generate_series(1, 20000) g`);
    await handle.db.execute(sql`analyze plan_probe`);
  });
  afterAll(() => handle?.close());

  it('finds the full sort of an unindexed order, and none where an index gives the order', async () => {
    const sorted = await explainPlan(handle.db, sql`select * from plan_probe order by v limit 25`);
    expect(fullSorts(sorted).map((n) => n['Node Type'])).toEqual(['Sort']);
    const indexed = await explainPlan(handle.db, sql`select * from plan_probe order by id desc limit 25`);
    expect(fullSorts(indexed)).toEqual([]);
    expect(planNodes(indexed).some((n) => n['Index Name'] === 'plan_probe_pkey')).toBe(true);
  });
});
