import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { executeKeepingPlan, keepPreparedPlan } from '../src/plan-cache.ts';
import type { DatabaseHandle } from '../src/client.ts';

const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

describe.each(testDatabaseKinds())('executeKeepingPlan (%s)', (kind) => {
  let handle: DatabaseHandle;
  const kept = async () =>
    rowsOf(await handle.db.execute(sql`select name from pg_prepared_statements where name like 'portal_kept_%' order by name`)).map((r) => (r as { name: string }).name);
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await handle.db.execute(sql`create table kept_probe (id integer primary key, label text, day date, at timestamptz, amount numeric(12, 2), flag boolean)`);
    await handle.db.execute(sql`insert into kept_probe values (1, 'O''Brien \\ "x" $1', '2026-02-03', '2026-02-03T04:05:06.789Z', 12.40, true), (2, null, null, null, null, false)`);
  });
  afterAll(() => handle?.close());

  /** Values of every kind the lists pass: strings with quotes, backslashes and placeholders, numbers, booleans, dates. */
  const probe = (label: string): SQL =>
    sql`select id, label, day, at, amount, flag, ${label}::text as echoed from kept_probe
      where (label = ${"O'Brien \\ \"x\" $1"} or label is null) and flag in (${true}, ${false}) and id <= ${2} and coalesce(day, ${'2026-02-03'}) >= ${'2026-01-01'} order by id`;

  it('answers what db.execute answers, on the first run, the second (prepared) and after', async () => {
    const expected = rowsOf(await handle.db.execute(probe("it's")));
    expect(expected).toHaveLength(2);
    for (let i = 0; i < 4; i++) expect(rowsOf(await executeKeepingPlan(handle.db, probe("it's")))).toEqual(expected);
    expect(rowsOf(await executeKeepingPlan(handle.db, probe('another')))).toEqual(expected.map((r) => ({ ...(r as object), echoed: 'another' })));
  });

  it('keeps a plan on the embedded database only, from the second run of a statement, and at most 32', async () => {
    const before = await kept();
    await executeKeepingPlan(handle.db, sql`select ${'once'}::text as v`);
    expect(await kept()).toEqual(before);
    await executeKeepingPlan(handle.db, sql`select ${'twice'}::text as v`);
    await executeKeepingPlan(handle.db, sql`select ${'twice'}::text as v`);
    const after = await kept();
    expect(after.length).toBe(kind === 'pglite' ? before.length + 1 : 0);
    for (let i = 0; i < 40; i++) for (let j = 0; j < 2; j++) await executeKeepingPlan(handle.db, sql`select ${i}::integer as v`);
    expect((await kept()).length).toBe(kind === 'pglite' ? 32 : 0);
  });

  it('runs the statement as it is when its plan was deallocated behind its back', async () => {
    const statement = () => sql`select ${'lost'}::text as v, count(*)::integer as n from kept_probe`;
    await executeKeepingPlan(handle.db, statement());
    await executeKeepingPlan(handle.db, statement());
    await handle.db.execute(sql`deallocate all`);
    expect(rowsOf(await executeKeepingPlan(handle.db, statement()))).toEqual([{ v: 'lost', n: 2 }]);
    expect(rowsOf(await executeKeepingPlan(handle.db, statement()))).toEqual([{ v: 'lost', n: 2 }]);
  });

  it('runs a Drizzle prepared query as a statement prepared on the embedded database, mapped as before, whatever the values', async () => {
    const query = () =>
      handle.db
        .select({ id: sql<number>`id`, label: sql<string | null>`label`, at: sql<string | null>`at::text` })
        .from(sql`kept_probe`)
        .where(sql`coalesce(label, '') <> ${sql.placeholder('not')} and id >= ${sql.placeholder('from')} and flag in (${sql.placeholder('flag')}, true)`)
        .orderBy(sql`id`)
        .prepare('kept_probe_lookup');
    const plain = query();
    const kept = keepPreparedPlan(handle.db, query(), 'kept_probe_lookup');
    const runs: Array<{ not: string; from: number; flag: boolean }> = [
      ...Array.from({ length: 8 }, (_, i) => ({ not: `x${i}`, from: i % 3, flag: i % 2 === 0 })),
      { not: "O'Brien \\ \"x\" $1", from: 1, flag: false },
      { not: "'; drop table kept_probe; --", from: 0, flag: true },
    ];
    for (const values of runs) expect(await kept.execute(values)).toEqual(await plain.execute(values));
    // (node-postgres prepares it too, under Drizzle's name, on whichever pooled connection ran it.)
    if (kind === 'pglite') expect(rowsOf(await handle.db.execute(sql`select name from pg_prepared_statements where name = 'kept_probe_lookup'`))).toHaveLength(1);
    if (kind === 'pglite') {
      // (On node-postgres the pooled client would still believe its named statement prepared: not this helper's.)
      await handle.db.execute(sql`deallocate all`);
      expect(await kept.execute(runs[0])).toEqual(await plain.execute(runs[0]));
      expect(await kept.execute(runs[0])).toEqual(await plain.execute(runs[0]));
    }
    // A second handle's statement of the same name on the same session: the prepared one serves.
    const again = keepPreparedPlan(handle.db, query(), 'kept_probe_lookup');
    expect(await again.execute(runs[1])).toEqual(await plain.execute(runs[1]));
  });
});
