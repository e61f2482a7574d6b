import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/client.ts';
import { afterBulkWrite, createMaintenance, readTableCounters, registerMaintenance, stepFor, type StepResult, type TableCounters } from '../src/maintenance.ts';
import { openTestDatabase, planNodes, testDatabaseKinds, type PlanNode } from '../src/testing.ts';

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

const counters = (over: Partial<TableCounters>): TableCounters => ({
  table: 't',
  reltuples: 10_000,
  liveTuples: 10_000,
  deadTuples: 0,
  modifiedSinceAnalyze: 0,
  insertedSinceVacuum: 0,
  lastAnalyze: null,
  lastVacuum: null,
  pages: 100,
  relpages: 100,
  relallvisible: 100,
  ...over,
});

describe('stepFor: autovacuum thresholds', () => {
  it('analyses past 50 + 10 % of the rows, vacuums past 50 + 20 % dead or 1,000 + 20 % inserted', () => {
    expect(stepFor(counters({ modifiedSinceAnalyze: 1050 }))).toMatchObject({ analyze: false, vacuum: 'none' });
    expect(stepFor(counters({ modifiedSinceAnalyze: 1051 }))).toMatchObject({ analyze: true, vacuum: 'none' });
    expect(stepFor(counters({ deadTuples: 2051 }))).toMatchObject({ vacuum: 'cleanup' });
    expect(stepFor(counters({ deadTuples: 2050, insertedSinceVacuum: 3000 }))).toMatchObject({ vacuum: 'none' });
    expect(stepFor(counters({ insertedSinceVacuum: 3001 }))).toMatchObject({ vacuum: 'visibility' });
    // Never analysed (reltuples -1): the base threshold alone.
    expect(stepFor(counters({ reltuples: -1, modifiedSinceAnalyze: 51, insertedSinceVacuum: 51 }))).toMatchObject({ analyze: true, vacuum: 'none' });
    // After a restart PGlite's counters are 0: the catalog tells a table never analysed, grown, or not vacuumed since it grew.
    expect(stepFor(counters({ reltuples: -1, relpages: 0, relallvisible: 0, pages: 1 }))).toMatchObject({ analyze: true, vacuum: 'none' });
    expect(stepFor(counters({ pages: 118 }))).toMatchObject({ analyze: false, vacuum: 'none' });
    expect(stepFor(counters({ pages: 119 }))).toMatchObject({ analyze: true, vacuum: 'none' });
    expect(stepFor(counters({ pages: 100, relallvisible: 72 }))).toMatchObject({ analyze: false, vacuum: 'none' });
    expect(stepFor(counters({ pages: 100, relallvisible: 71 }))).toMatchObject({ analyze: false, vacuum: 'visibility' });
    // Forced (the seed's last step): anything written.
    expect(stepFor(counters({ modifiedSinceAnalyze: 1, insertedSinceVacuum: 1 }), undefined, true)).toMatchObject({ analyze: true, vacuum: 'visibility' });
  });
});

describe.each(testDatabaseKinds())('database maintenance (%s)', (kind) => {
  let handle: DatabaseHandle;
  const exec = (query: ReturnType<typeof sql>) => handle.db.execute(query);
  const probe = async () => (await readTableCounters(handle.db, ['maint_probe']))[0]!;
  /** The count of one tab, run: its plan nodes (EXPLAIN ANALYZE). */
  const countPlan = async (): Promise<PlanNode[]> => {
    const [row] = rowsOf<Record<string, unknown>>(await exec(sql`explain (analyze, format json) select count(*) from maint_probe where tab = false`));
    const cell = Object.values(row!)[0];
    const plan = ((typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode }>)[0]!.Plan;
    return planNodes(plan);
  };

  beforeEach(async () => {
    handle = await openTestDatabase(kind);
    // PostgreSQL's own autovacuum would race the policy on this table: the test is the only maintainer.
    await exec(sql`create table maint_probe (id integer primary key, tab boolean not null, v text not null) with (autovacuum_enabled = false)`);
    await exec(sql`create index maint_probe_tab_idx on maint_probe (tab, id)`);
    await exec(sql`insert into maint_probe select g, g % 3 = 0, repeat('x', 80) from generate_series(1, 20000) g`);
  });
  afterEach(() => handle?.close());

  it('after a bulk insert, a pass vacuums and analyses the table, and the count of a tab reads the index only (no heap fetch)', async () => {
    const before = await probe();
    expect(before.modifiedSinceAnalyze).toBe(20000);
    expect(before.lastAnalyze).toBeNull();
    const unvisited = (await countPlan()).find((n) => n['Node Type'] === 'Index Only Scan');
    // Without the visibility map the count reads the heap (a sequential scan, or heap fetches for every row).
    expect(unvisited === undefined || Number(unvisited['Heap Fetches']) > 0).toBe(true);

    const steps: StepResult[] = [];
    const maintenance = createMaintenance({ db: handle.db, onStep: (s) => steps.push(s) });
    const results = await maintenance.pass();
    expect(results).toEqual(steps);
    expect(results.filter((r) => r.table === 'maint_probe').map((r) => r.action)).toEqual(['vacuum', 'analyze']);

    const after = await probe();
    expect(after.modifiedSinceAnalyze).toBe(0);
    expect(after.insertedSinceVacuum).toBe(0);
    expect(after.lastAnalyze).not.toBeNull();
    expect(after.lastVacuum).not.toBeNull();
    const scan = (await countPlan()).find((n) => n['Node Type'] === 'Index Only Scan');
    expect(scan?.['Relation Name']).toBe('maint_probe');
    expect(scan?.['Heap Fetches']).toBe(0);
  });

  it('skips a table under its thresholds; analyses past 10 %, cleans up past 20 % dead rows', async () => {
    const maintenance = createMaintenance({ db: handle.db });
    const only = { tables: ['maint_probe'] };
    await maintenance.pass(only);
    await exec(sql`update maint_probe set v = 'y' where id <= 100`);
    expect(await maintenance.pass(only)).toEqual([]);
    expect((await probe()).modifiedSinceAnalyze).toBe(100);

    await exec(sql`update maint_probe set v = 'y' where id > 100 and id <= 3000`);
    expect((await maintenance.pass(only)).map((r) => r.action)).toEqual(['analyze']);
    await exec(sql`update maint_probe set v = 'z' where id <= 5000`);
    expect((await maintenance.pass(only)).map((r) => r.action)).toEqual(['vacuum_cleanup', 'analyze']);
    expect((await probe()).deadTuples).toBe(0);
  });

  it('never runs two passes at once: callers during a pass share the one after it', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let waits = 0;
    const order: string[] = [];
    // The second pass's work: another table, written and its counts flushed before the first pass starts. (Rows written
    // into the first pass's table while it waited were that pass's own whenever their counts reached the statistics
    // before its ANALYZE — the database flushes them at most once a second — and the second pass then had none: a
    // loaded CI machine failed so.)
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`create table maint_probe_next (id integer primary key, v text not null) with (autovacuum_enabled = false)`);
      await tx.execute(sql`insert into maint_probe_next select g, 'n' from generate_series(1, 10000) g`);
      await tx.execute(sql`select pg_stat_force_next_flush()`);
    });
    const maintenance = createMaintenance({
      db: handle.db,
      idle: async () => {
        waits++;
        await gate;
      },
      onStep: (s) => order.push(`${s.table}:${s.action}`),
    });
    const first = maintenance.pass({ tables: ['maint_probe'] }).then((r) => (order.push('first done'), r));
    // Let the first pass read its counters and reach its first statement.
    await expect.poll(() => waits).toBe(1);
    expect(maintenance.running).toBe(true);
    // A second later, past the database's flush interval, as on a slow machine.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = maintenance.pass({ tables: ['maint_probe_next'] });
    const third = maintenance.pass({ tables: ['maint_probe_next'] });
    expect(third).toBe(second);
    expect(waits).toBe(1);
    open();
    expect((await first).map((r) => r.action)).toEqual(['vacuum', 'analyze']);
    expect((await second).map((r) => r.action)).toEqual(['vacuum', 'analyze']);
    expect(order).toEqual(['maint_probe:vacuum', 'maint_probe:analyze', 'first done', 'maint_probe_next:vacuum', 'maint_probe_next:analyze']);
    expect(maintenance.running).toBe(false);
  });

  it('gives the event loop a task before each statement (PGlite answers on the API thread: HTTP is served between statements)', async () => {
    const order: string[] = [];
    const maintenance = createMaintenance({
      db: handle.db,
      onStep: (s) => {
        order.push(s.action);
        if (order.length === 1) setImmediate(() => order.push('other task'));
      },
    });
    await maintenance.pass({ tables: ['maint_probe'] });
    expect(order).toEqual(['vacuum', 'other task', 'analyze']);
  });

  it('afterBulkWrite: a registered maintenance is asked for a pass; else PostgreSQL analyses a table grown past its threshold, PGlite does nothing', async () => {
    if (kind === 'postgres') {
      await exec(sql`analyze maint_probe`);
      const analysed = (await probe()).lastAnalyze;
      await exec(sql`insert into maint_probe select g, false, 'n' from generate_series(20001, 21000) g`);
      // 1,000 rows written: under 50 + 10 % of 20,000.
      await afterBulkWrite(handle.db, { maint_probe: 1000 });
      expect((await probe()).lastAnalyze).toEqual(analysed);
      await exec(sql`insert into maint_probe select g, false, 'n' from generate_series(21001, 25000) g`);
      await afterBulkWrite(handle.db, { maint_probe: 4000 });
      expect((await probe()).lastAnalyze).not.toEqual(analysed);
    } else {
      await afterBulkWrite(handle.db, { maint_probe: 20000 });
      expect((await probe()).lastAnalyze).toBeNull();
    }

    const steps: StepResult[] = [];
    const maintenance = createMaintenance({ db: handle.db, onStep: (s) => steps.push(s) });
    registerMaintenance(handle.db, maintenance);
    try {
      await exec(sql`insert into maint_probe select g, false, 'n' from generate_series(100001, 130000) g`);
      await afterBulkWrite(handle.db, { maint_probe: 30000 });
      expect(maintenance.running).toBe(true);
      // The pass after the requested one starts once that one ended.
      await maintenance.pass({ tables: ['maint_probe'] });
      expect(steps.filter((s) => s.table === 'maint_probe').map((s) => s.action)).toEqual(['vacuum', 'analyze']);
    } finally {
      registerMaintenance(handle.db, undefined);
    }
  });
});

describe('database maintenance after a restart (PGlite on disk)', () => {
  it('PGlite forgets its counters when it closes: the catalog still tells the table written and never vacuumed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-maintenance-restart-'));
    try {
      const first = openDatabase({ driver: 'pglite', dataDir });
      await first.db.execute(sql`create table maint_probe (id integer primary key, v text not null)`);
      await first.db.execute(sql`insert into maint_probe select g, repeat('x', 80) from generate_series(1, 20000) g`);
      await first.close();

      const second = openDatabase({ driver: 'pglite', dataDir });
      try {
        const [counters] = await readTableCounters(second.db, ['maint_probe']);
        expect(counters).toMatchObject({ modifiedSinceAnalyze: 0, insertedSinceVacuum: 0, reltuples: -1 });
        const results = await createMaintenance({ db: second.db }).pass({ tables: ['maint_probe'] });
        expect(results.map((r) => r.action)).toEqual(['vacuum', 'analyze']);
        const [after] = await readTableCounters(second.db, ['maint_probe']);
        expect(after!.relallvisible).toBe(after!.pages);
        expect(after!.reltuples).toBeGreaterThan(0);
        expect(await createMaintenance({ db: second.db }).pass({ tables: ['maint_probe'] })).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
