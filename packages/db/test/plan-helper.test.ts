import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainPlan, fullSorts, openTestDatabase, planNodes, sortsOver, testDatabaseKinds } from '../src/testing.ts';
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

  it('sortsOver: a sort of the table’s rows counts; a sort of a few values its init plan computed from the table does not', async () => {
    const sorted = await explainPlan(handle.db, sql`select * from plan_probe order by v limit 25`);
    expect(sortsOver(sorted, 'plan_probe')).toHaveLength(1);
    expect(sortsOver(sorted, 'other_table')).toEqual([]);
    // Three values found by a recursive skip scan (the CTE is an init plan of the sort's input), sorted.
    const values = await explainPlan(
      handle.db,
      sql`with recursive o(id) as (select min(id) from plan_probe union all select (select min(id) from plan_probe where id > o.id) from o where o.id < 3)
          select id from o order by id desc`,
    );
    expect(fullSorts(values)).toHaveLength(1);
    // The table is below the sort, in the init plan only: a check of the whole subtree would count it.
    expect(planNodes(fullSorts(values)[0]!).some((n) => n['Relation Name'] === 'plan_probe')).toBe(true);
    expect(sortsOver(values, 'plan_probe')).toEqual([]);
  });
});
