import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { ledesRuns, users, type DatabaseHandle } from '../src/index.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

const kinds = testDatabaseKinds();

/**
 * `ledes_run_counts` gives a history page its total without counting the user's runs: it must equal
 * the count of the runs themselves after every kind of write, or the pages would be wrong.
 */
describe.each(kinds)('per-user run counts kept by triggers (%s)', (kind) => {
  let handle: DatabaseHandle;
  let seq = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const run = (ownerId: string, sendHistory = true) => {
    seq++;
    return { ownerId, sendHistory, name: `r${seq}`, originalName: `r${seq}.txt`, originalKey: `k/${kind}/${seq}`, size: 1, sha256: 'x', office: 'PAR', type: 'patent' as const };
  };

  async function expectCountsTrue() {
    const actual: unknown = await handle.db.execute(sql`
      select owner_id::text, count(*)::integer as runs, (count(*) filter (where send_history))::integer as shared_runs
      from ledes_runs group by owner_id order by owner_id`);
    const kept: unknown = await handle.db.execute(sql`
      select owner_id::text, runs, shared_runs from ledes_run_counts where runs <> 0 or shared_runs <> 0 order by owner_id`);
    expect((kept as { rows: unknown[] }).rows).toEqual((actual as { rows: unknown[] }).rows);
  }

  it('matches count(*) after bulk inserts, sharing and owner changes, state updates, deletes, a user deleted and a truncate', async () => {
    const [a, b, c] = await handle.db
      .insert(users)
      .values(['a', 'b', 'c'].map((n) => ({ companyAgent: n, email: `${n}-${kind}@counts.example.com` })))
      .returning({ id: users.id });
    // One statement for several owners, shared or not.
    await handle.db.insert(ledesRuns).values([run(a!.id), run(a!.id), run(a!.id, false), run(b!.id), run(b!.id), run(b!.id, false), run(c!.id)]);
    await expectCountsTrue();
    await handle.db.insert(ledesRuns).values(run(a!.id));
    await expectCountsTrue();

    const aRuns = await handle.db.select({ id: ledesRuns.id }).from(ledesRuns).where(eq(ledesRuns.ownerId, a!.id));
    await handle.db.update(ledesRuns).set({ sendHistory: false }).where(eq(ledesRuns.id, aRuns[0]!.id));
    await expectCountsTrue();
    await handle.db.update(ledesRuns).set({ ownerId: b!.id }).where(eq(ledesRuns.id, aRuns[1]!.id));
    await expectCountsTrue();
    await handle.db.update(ledesRuns).set({ ownerId: c!.id, sendHistory: false }).where(eq(ledesRuns.id, aRuns[3]!.id));
    await expectCountsTrue();
    // The worker's updates (state, counts) leave the totals alone, setting the same sharing included.
    await handle.db.update(ledesRuns).set({ state: 'Done', linesChecked: 10, sendHistory: sql`send_history` });
    await expectCountsTrue();

    await handle.db.delete(ledesRuns).where(inArray(ledesRuns.id, [aRuns[0]!.id, aRuns[2]!.id]));
    await expectCountsTrue();
    await handle.db.delete(users).where(eq(users.id, b!.id));
    await expectCountsTrue();
    await handle.db.execute(sql`truncate ledes_runs cascade`);
    await expectCountsTrue();
    await handle.db.insert(ledesRuns).values([run(a!.id), run(c!.id, false)]);
    await expectCountsTrue();
  });

  it('concurrent inserts of one owner all count', async () => {
    const [d] = await handle.db.insert(users).values({ companyAgent: 'd', email: `d-${kind}@counts.example.com` }).returning({ id: users.id });
    await Promise.all(Array.from({ length: 20 }, (_, i) => handle.db.insert(ledesRuns).values(run(d!.id, i % 2 === 0))));
    await expectCountsTrue();
  });
});
