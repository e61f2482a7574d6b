import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesRuns, users, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { lineKey, type GuidelineProbes } from '@portal/ledes';
import { recheckGuidelineHistory, runHistoryLookup, storeGuidelineIndex } from '../src/ledes/guidelines.ts';

/**
 * Decision 221: the commit of a run asks the firms' history again (decision 220) only when something was added to it
 * since the run's check asked. A run's lookup notes the epoch it asked at; every accepted run moves the epoch under
 * its firms' locks before writing its entries.
 */
describe.each(testDatabaseKinds())('the guideline history epoch (%s)', (kind) => {
  let handle: DatabaseHandle;
  let ownerId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Firm', email: `epoch-${kind}@portal.test` }).returning();
    ownerId = owner!.id;
  });
  afterAll(async () => {
    await handle.close();
  });

  const newRun = async () => {
    const [run] = await handle.db
      .insert(ledesRuns)
      .values({ ownerId, name: `run_${randomUUID()}`, originalName: 'a.txt', originalKey: `ledes/original/${randomUUID()}/a.txt`, size: 1, sha256: 'x', office: 'PAR', type: 'patent', sendServer: false })
      .returning();
    return run!.id;
  };
  /** A run's probes for one fee line under a duplicate rule, not billed at its check. */
  const probesOf = (key: string): GuidelineProbes => ({ firms: [key.split('\u001f')[0]!], units: [], lines: [{ key, seen: false, line: 0, severity: 'error', ref: '§4' }] });
  const commit = (runId: string, key: string) => handle.db.transaction(async (tx) => {
    await recheckGuidelineHistory(tx, runId, probesOf(key));
    await storeGuidelineIndex(tx, runId, { units: [], lines: [key] });
  });

  it('a run that asked after the last commit keeps its answer; one that asked before it finds the line billed since', async () => {
    const key = lineKey(`FIRM-${randomUUID()}`, 'TK1', '20250115', '2', 'Research prior art');
    const [first, late, early] = [await newRun(), await newRun(), await newRun()];

    // `early` asks before `first` commits the line; `late` asks after.
    const earlyLookup = runHistoryLookup(handle.db, early);
    expect((await earlyLookup.lookup([], [key])).lines).toEqual([]);
    await commit(first, key);
    const lateLookup = runHistoryLookup(handle.db, late);
    expect((await lateLookup.lookup([], [key])).lines).toEqual([key]);
    expect(BigInt(lateLookup.epoch()!)).toBeGreaterThan(BigInt(earlyLookup.epoch()!));

    // At `early`'s commit the epoch has moved since it asked: the history is asked again and the duplicate found.
    const missed = await handle.db.transaction((tx) => recheckGuidelineHistory(tx, early, probesOf(key), earlyLookup.epoch()));
    expect(missed.map((f) => [f.code, f.line])).toEqual([['GDL-111', 0]]);
    // With the epoch it asked at unchanged, nothing was added since its check: its answer stands without a second
    // look (the probes here claim "not billed" against a history that holds the line, which only a skip ignores).
    const skipped = await handle.db.transaction((tx) => recheckGuidelineHistory(tx, late, probesOf(key), lateLookup.epoch()));
    expect(skipped).toEqual([]);
    // Without an epoch (a check that asked nothing), the history is asked again.
    const asked = await handle.db.transaction((tx) => recheckGuidelineHistory(tx, late, probesOf(key)));
    expect(asked.map((f) => f.code)).toEqual(['GDL-111']);
  });

  it('only a commit that adds entries moves the epoch', async () => {
    const key = lineKey(`FIRM-${randomUUID()}`, 'TK2', '20250116', '1', 'Call');
    const run = await newRun();
    const before = runHistoryLookup(handle.db, run);
    await before.lookup([], [key]);
    await handle.db.transaction((tx) => storeGuidelineIndex(tx, run, { units: [], lines: [] }));
    const after = runHistoryLookup(handle.db, run);
    await after.lookup([], [key]);
    expect(after.epoch()).toBe(before.epoch());
    await commit(run, key);
    const moved = runHistoryLookup(handle.db, run);
    await moved.lookup([], [key]);
    expect(BigInt(moved.epoch()!)).toBe(BigInt(before.epoch()!) + 1n);
  });
});
