import { Writable } from 'node:stream';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ledesFindings, ledesProfiles, ledesRuns, referencedStorageKeys } from '@portal/db';
import type { LedesProfile } from '@portal/ledes';
import type { JobContext } from '@portal/queue';
import { createCheckLedesProcessor, createThreadEngine, EMBEDDED_FINDINGS_PER_STATEMENT, ledesJob, ledesRunKind, runEngineInThread, withHeartbeat, type LedesEngine } from '../src/index.ts';
import { acceptedInvoiceLookup } from '../src/ledes/invoices.ts';
import { acceptedFile, createWorld, waitFor, type World } from './world.ts';

async function streamBytes(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

const ctx = (attempt = 1, signal = new AbortController().signal): JobContext => ({
  jobId: 'ledes-test',
  attempt,
  signal,
  updateProgress: async () => {},
  log: () => {},
});

/** Whatever a test leaves unobserved fails it here, not in a later test. */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

describe('check-ledes lifecycle points', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(async () => world?.close());
  beforeEach(() => {
    unhandled.length = 0;
    world.storage.copies.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // let a late rejection surface
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
    expect(await world.inProgress()).toEqual([]);
  });

  const processor = () => ledesJob.processor({ db: world.database.db, storage: world.storage, realtime: world.realtime, logger: world.logger });

  it('side effects once: running the processor twice on the same run delivers once', async () => {
    const runId = await world.createRun();
    const run = processor();
    // Two executions at once (the lock lost during a Redis outage), then a late redelivery.
    await Promise.all([run({ runId }, ctx(1)), run({ runId }, ctx(2))]);
    await run({ runId }, ctx(3));
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
    // One transition to Done, then one event for its treated workbook (decision 182).
    expect(world.events.filter((e) => e._id === runId && e.state === 'Done' && !e.treated)).toHaveLength(1);
    expect(world.events.filter((e) => e._id === runId && e.state === 'Done' && e.treated)).toHaveLength(1);
  });

  it('side effects once: two executions of a Done run not yet delivered deliver once (the row is locked for the copy)', async () => {
    const runId = await world.createRun();
    const run = processor();
    world.storage.failCopies = 1;
    await expect(run({ runId }, ctx(1))).rejects.toThrow('during the delivery');
    // Both find no copy in storage before either has made it (failed before the row lock: two copies).
    world.storage.slowCopiesMs = 100;
    try {
      await Promise.all([run({ runId }, ctx(2)), run({ runId }, ctx(3))]);
    } finally {
      world.storage.slowCopiesMs = 0;
    }
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
  });

  it('embedded: the delivery copies the file outside any transaction, so a request is answered during the copy (decision 211)', async () => {
    const runId = await world.createRun();
    const run = processor();
    // A transaction holds PGlite's one connection: a statement from elsewhere during the copy waited for its end.
    let answered = false;
    world.storage.duringCopy = async () => {
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a statement waited for the copy')), 3000));
      await Promise.race([world.database.db.execute(sql`select 1`), timeout]);
      answered = true;
    };
    try {
      await run({ runId }, ctx(1));
    } finally {
      world.storage.duringCopy = null;
    }
    expect(answered).toBe(true);
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
  });

  it('side effects once: a failure at the delivery, then the retry, delivers once', async () => {
    const runId = await world.createRun();
    const run = processor();
    world.storage.failCopies = 1;
    await expect(run({ runId }, ctx(1))).rejects.toThrow('during the delivery');
    // Done is committed before the delivery, and the user already sees it.
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: null });
    await run({ runId }, ctx(2));
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
    const last = world.events.filter((e) => e._id === runId).at(-1);
    expect(last).toMatchObject({ state: 'Done', delivered: true });
  });

  it('side effects once: a copy made whose answer was lost (or a crash before delivered_at was written) is not copied again by the retry', async () => {
    const runId = await world.createRun();
    const run = processor();
    world.storage.loseCopyAnswers = 1;
    await expect(run({ runId }, ctx(1))).rejects.toThrow('after the copy was made');
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: null });
    await run({ runId }, ctx(2));
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
  });

  it('side effects once: a failure before the commit delivers nothing', async () => {
    const runId = await world.createRun();
    world.storage.failGets = 1;
    await expect(processor()({ runId }, ctx(1))).rejects.toThrow('storage unreachable');
    expect(world.storage.copies).toEqual([]);
    expect(await world.state(runId)).toMatchObject({ state: 'in_progress', deliveredAt: null });
    await world.database.db.update(ledesRuns).set({ state: 'Error' }).where(eq(ledesRuns.id, runId)); // leave nothing in progress
  });

  it('no unhandled rejection when the findings writes fail mid-run (run row deleted under the worker)', async () => {
    const lines = ['LEDES1998B[]', 'INVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]'];
    // Every line has findings (totals off, bad dates), so findings batches are written while it streams.
    for (let i = 1; i <= 20_000; i++) lines.push(`2024022|1000|C-1|0528|1.00|20240101|20240131|x|${i}|F|2.00|0|700|2024011|L510||A102|22547|x|24-6437381|350|A, B|PT|423-987[]`);
    const runId = await world.createRun(Buffer.from(lines.join('\n') + '\n'));
    const run = processor()({ runId }, ctx(1));
    // Delete the run once the worker has started it: every later findings insert violates the foreign key.
    for (;;) {
      const [row] = await world.database.db.select({ startedAt: ledesRuns.startedAt }).from(ledesRuns).where(eq(ledesRuns.id, runId));
      if (row?.startedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await world.database.db.delete(ledesRuns).where(eq(ledesRuns.id, runId));
    await expect(run).rejects.toThrow();
    expect(world.files().filter((name) => name.endsWith('.part'))).toEqual([]); // the treated upload was stopped, not left half-written
  });

  it('#28 findingsPerStatement: the embedded portal writes findings in statements of at most 250 rows (PGlite blocks the API while one runs), storing the same findings', async () => {
    const lines = ['LEDES1998B[]', 'INVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]'];
    for (let i = 1; i <= 3000; i++) lines.push(`2024022|1000|C-1|0528|1.00|20240101|20240131|x|${i}|F|2.00|0|700|2024011|L510||A102|22547|x|24-6437381|350|A, B|PT|423-987[]`);
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const db = world.database.db;
    // The rows of each findings insert, read from the statement's first array parameter.
    const sizes: number[] = [];
    const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect;
    const recording = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver) as unknown;
        return (query: SQL) => {
          const built = dialect.sqlToQuery(query);
          if (built.sql.includes('insert into ledes_findings')) sizes.push((built.params[0] as unknown[]).length);
          return target.execute(query);
        };
      },
    });
    const stored = async (findingsPerStatement?: number) => {
      sizes.length = 0;
      const runId = await world.createRun(bytes);
      await ledesJob.processor({ db: recording, storage: world.storage, realtime: world.realtime, logger: world.logger, findingsPerStatement })({ runId }, ctx(1));
      const rows = await db.select({ line: ledesFindings.line, code: ledesFindings.code, champ: ledesFindings.champ }).from(ledesFindings).where(eq(ledesFindings.runId, runId)).orderBy(ledesFindings.line, ledesFindings.code, ledesFindings.champ);
      return { rows, sizes: [...sizes] };
    };
    const byDefault = await stored();
    const embedded = await stored(EMBEDDED_FINDINGS_PER_STATEMENT);
    expect(byDefault.rows.length).toBeGreaterThan(3000);
    expect(Math.max(...byDefault.sizes)).toBe(1000);
    expect(embedded.sizes.length).toBeGreaterThan(byDefault.sizes.length);
    expect(Math.max(...embedded.sizes)).toBeLessThanOrEqual(250);
    expect(embedded.rows).toEqual(byDefault.rows);
  });

  it('#28 decision 182: the run is Done, and published, before its treated workbook is written; the workbook follows and the run is published again', async () => {
    const runId = await world.createRun();
    world.storage.holdTreatedPuts = true;
    const running = processor()({ runId }, ctx(1));
    try {
      // Done and delivered while the workbook's upload waits: the owner has the verdict and the findings.
      await waitFor(async () => (await world.state(runId)).state === 'Done', 'the run to be Done before its workbook', 5_000);
      await waitFor(() => world.storage.heldTreated === 1, 'the workbook to be under way', 5_000);
      expect(await world.state(runId)).toMatchObject({ deliveredAt: expect.any(Date) });
      expect((await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId)))[0]!.treatedKey).toBeNull();
      expect(world.events.filter((e) => e._id === runId && e.state !== 'in_progress')).toEqual([expect.objectContaining({ state: 'Done', delivered: true, treated: false })]);
    } finally {
      world.storage.writeTreated();
    }
    await running;
    const [row] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId));
    expect(row!.treatedKey).toMatch(/^ledes\/treated\/.+\.xlsx$/);
    expect((await streamBytes(await world.storage.get(row!.treatedKey!))).subarray(0, 2).toString()).toBe('PK');
    // One transition to Done, then the same run with its workbook.
    expect(world.events.filter((e) => e._id === runId && e.state !== 'in_progress').map((e) => e.treated)).toEqual([false, true]);
  });

  it('#28 decision 182: a workbook that fails after Done leaves the run Done; the sweep enqueues it again and its job writes the workbook, nothing else twice', async () => {
    const runId = await world.createRun();
    const run = processor();
    world.storage.failTreatedPuts = 1;
    await expect(run({ runId }, ctx(1))).rejects.toThrow('while storing the treated workbook');
    expect(await world.state(runId)).toMatchObject({ state: 'Done', deliveredAt: expect.any(Date) });
    expect((await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId)))[0]!.treatedKey).toBeNull();
    // Past its attempts (or its process gone): the sweep finds the Done run without its workbook.
    const later = new Date(Date.now() + 3_600_000);
    expect(await ledesRunKind.toEnqueue(world.database.db, later, later, later, 500)).toContain(runId);
    await run({ runId }, ctx(2));
    const [row] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId));
    expect(row!.treatedKey).toMatch(/\.xlsx$/);
    expect((await streamBytes(await world.storage.get(row!.treatedKey!))).subarray(0, 2).toString()).toBe('PK');
    expect(await ledesRunKind.toEnqueue(world.database.db, later, later, later, 500)).not.toContain(runId);
    expect(world.storage.copies.filter((key) => key.startsWith('outbound/step2/'))).toHaveLength(1);
    // A late redelivery changes nothing.
    await run({ runId }, ctx(3));
    expect(world.events.filter((e) => e._id === runId && e.state !== 'in_progress').map((e) => e.treated)).toEqual([false, true]);
  });

  it('#28 decision 182: a workbook stored whose key was not recorded (the database down right after the upload) is recorded by the retry, not written again', async () => {
    const runId = await world.createRun();
    const run = processor();
    const putsBefore = world.storage.treatedPuts.length;
    const puts = () => world.storage.treatedPuts.slice(putsBefore);
    await run({ runId }, ctx(1));
    const [done] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId));
    expect(puts()).toEqual([done!.treatedKey]);
    // As if the update that records the key had failed after the upload: the object is there, the row does not say so.
    await world.database.db.update(ledesRuns).set({ treatedKey: null }).where(eq(ledesRuns.id, runId));
    await run({ runId }, ctx(2));
    const [row] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId));
    expect(row!.treatedKey).toBe(done!.treatedKey);
    expect(puts(), 'the workbook written once').toHaveLength(1);
  });

  const rowOf = async (runId: string) => (await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, runId)))[0]!;

  it('decision 212: a worker stopped between the workbook\'s store and its record leaves no object that no run names; the next execution records it, written once (the fault suite saw an orphan workbook once)', async () => {
    const runId = await world.createRun();
    const run = processor();
    const putsBefore = world.storage.treatedPuts.length;
    let namedAtStore: boolean | undefined;
    world.storage.afterTreatedPut = async (key) => {
      world.storage.afterTreatedPut = undefined;
      // The storage clean-up's (and the fault suite's) question at this instant: does some row name the object?
      namedAtStore = (await referencedStorageKeys(world.database.db, [key])).has(key);
      throw Object.assign(new Error('worker stopped between the store and the record'), { code: 'ECONNRESET' });
    };
    await expect(run({ runId }, ctx(1))).rejects.toThrow('worker stopped between the store and the record');
    const [key] = world.storage.treatedPuts.slice(putsBefore);
    expect(key).toMatch(/^ledes\/treated\/.+\.xlsx$/);
    expect(namedAtStore, 'the stored workbook was named by no row when it was stored').toBe(true);
    expect(await world.storage.stat(key!)).not.toBeNull();
    expect(await referencedStorageKeys(world.database.db, [key!])).toEqual(new Set([key]));
    expect(await rowOf(runId)).toMatchObject({ state: 'Done', treatedKey: null });
    // The next execution (a retry, the sweep's job) finds the object under the name and records it, not written again.
    await run({ runId }, ctx(2));
    expect(await rowOf(runId)).toMatchObject({ treatedKey: key, treatedPendingKey: null, leaseHolder: null });
    expect(world.storage.treatedPuts.slice(putsBefore), 'the workbook written once').toEqual([key]);
  });


  it('#28 decision 182: the workbook phase is leased; a sweep while a live holder writes it leaves the run, and a second execution ends without writing it (the fault suite saw it written twice; failed before the claim)', async () => {
    const runId = await world.createRun();
    const putsBefore = world.storage.treatedPuts.length;
    world.storage.holdTreatedPuts = true;
    const first = processor()({ runId }, ctx(1));
    let second: Promise<string> | undefined;
    try {
      await waitFor(() => world.storage.heldTreated === 1, 'the workbook to be under way', 10_000);
      const held = await rowOf(runId);
      expect(held).toMatchObject({ state: 'Done', treatedKey: null, leaseHolder: expect.any(String) });
      // Renewed as during the check.
      await waitFor(async () => (await rowOf(runId)).leaseExpiresAt!.getTime() > held.leaseExpiresAt!.getTime(), 'the lease to be renewed', 5_000);
      // The sweep (Redis restarted empty: `everything`, every cutoff now) leaves it to its holder.
      const now = new Date();
      expect(await ledesRunKind.toEnqueue(world.database.db, new Date(now.getTime() + 3_600_000), now, now, 500)).not.toContain(runId);
      // A second execution (the sweep's job of another worker) waits the lease out, sees it renewed, and ends.
      second = processor()({ runId }, ctx(2)).then(() => 'ended');
      const outcome = await Promise.race([second, waitFor(() => world.storage.heldTreated >= 2, 'a second write', 15_000).then(() => 'written twice')]);
      expect(outcome).toBe('ended');
      expect((await rowOf(runId)).leaseHolder).toBe(held.leaseHolder);
    } finally {
      world.storage.writeTreated();
    }
    await first;
    await second;
    const row = await rowOf(runId);
    expect(row).toMatchObject({ treatedKey: expect.stringMatching(/\.xlsx$/), leaseHolder: null, leaseExpiresAt: null });
    expect(world.storage.treatedPuts.slice(putsBefore), 'the workbook written once').toEqual([row.treatedKey]);
    expect(world.events.filter((e) => e._id === runId && e.state !== 'in_progress').map((e) => e.treated)).toEqual([false, true]);
  });

  it('#28 decision 182: a holder that died in the workbook phase: its lease expires unrenewed, then the sweep enqueues the run and one takeover writes the workbook once (failed before the claim: enqueued while leased)', async () => {
    const runId = await world.createRun();
    const run = processor();
    const putsBefore = world.storage.treatedPuts.length;
    world.storage.failTreatedPuts = 1;
    await expect(run({ runId }, ctx(1))).rejects.toThrow('while storing the treated workbook');
    // As if its process had died writing the workbook: the lease stays, unrenewed, for another second.
    const expires = new Date(Date.now() + 1_500);
    await world.database.db.update(ledesRuns).set({ leaseHolder: 'dead-worker', leaseExpiresAt: expires }).where(eq(ledesRuns.id, runId));
    const later = new Date(Date.now() + 3_600_000);
    expect(await ledesRunKind.toEnqueue(world.database.db, later, new Date(), new Date(), 500)).not.toContain(runId);
    expect(await ledesRunKind.toEnqueue(world.database.db, later, later, later, 500)).toContain(runId);
    // Two jobs of the run (the sweep's and a retry) after the expiry: one takes over, the other finds it leased or written.
    await Promise.all([run({ runId }, ctx(2)), run({ runId }, ctx(3))]);
    const row = await rowOf(runId);
    expect(row).toMatchObject({ state: 'Done', treatedKey: expect.stringMatching(/\.xlsx$/), leaseHolder: null });
    expect(Date.now()).toBeGreaterThanOrEqual(expires.getTime());
    expect(world.storage.treatedPuts.slice(putsBefore), 'the workbook written once').toEqual([row.treatedKey]);
    expect(await ledesRunKind.toEnqueue(world.database.db, later, later, later, 500)).not.toContain(runId);
  });

  it('#28 decision 182: the workbook written after Done is the one the check would have written, duplicate invoices (CON-007) and verdict included, in both engines', async () => {
    const file = acceptedFile();
    const first = await world.createRun(file);
    await processor()({ runId: first }, ctx(1));
    const [accepted] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, first));
    expect(accepted!.accepted).toBe(true);
    const engines: Array<{ engine: LedesEngine; close?: () => Promise<void> }> = [{ engine: runEngineInThread }];
    const threaded = createThreadEngine();
    engines.push({ engine: threaded, close: () => threaded.close() });
    for (const { engine, close } of engines) {
      // The same invoices for the same client: refused as duplicates of the first run's.
      const again = await world.createRun(file);
      await world.database.db.update(ledesRuns).set({ idClient: accepted!.idClient }).where(eq(ledesRuns.id, again));
      const ports = { db: world.database.db, storage: world.storage, realtime: world.realtime, logger: world.logger, engine };
      try {
        await ledesJob.processor(ports)({ runId: again }, ctx(1));
      } finally {
        await close?.();
      }
      const [row] = await world.database.db.select().from(ledesRuns).where(eq(ledesRuns.id, again));
      expect(row!.accepted).toBe(false);
      const duplicates = await world.database.db.select().from(ledesFindings).where(eq(ledesFindings.runId, again));
      expect(duplicates.some((f) => f.code === 'CON-007')).toBe(true);
      // One pass with the workbook, as the check ran: its instant, its duplicate lookup.
      const [profile] = await world.database.db.select().from(ledesProfiles).where(and(eq(ledesProfiles.office, 'PAR'), eq(ledesProfiles.type, 'patent')));
      const chunks: Buffer[] = [];
      const out = new Writable({ write: (chunk: Buffer, _e, cb) => (chunks.push(chunk), cb()) });
      await runEngineInThread((async function* () { yield file; })(), {
        filename: row!.originalName,
        profile: profile!.profile as unknown as LedesProfile,
        now: row!.startedAt!,
        workbook: { out, lang: 'en' },
        onFindings: () => {},
        acceptedInvoices: acceptedInvoiceLookup(world.database.db, row!),
      });
      expect((await streamBytes(await world.storage.get(row!.treatedKey!))).equals(Buffer.concat(chunks))).toBe(true);
    }
  });

  it('the lines checked so far are kept on the run while it is in progress: a screen opened mid-run reads them, not 0 (the e2e saw no progress on a slow host)', async () => {
    const runId = await world.createRun();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The real engine, after a first report of progress and a pause (the engine still reading the file).
    const engine: LedesEngine = async (source, options) => {
      options.onProgress?.(1234);
      await gate;
      return runEngineInThread(source, options);
    };
    const linesOnRow = async () => (await world.database.db.select({ lines: ledesRuns.linesChecked, state: ledesRuns.state }).from(ledesRuns).where(eq(ledesRuns.id, runId)))[0]!;
    const running = createCheckLedesProcessor({ db: world.database.db, storage: world.storage, realtime: world.realtime, logger: world.logger, engine })({ runId }, ctx(1));
    try {
      await waitFor(async () => (await linesOnRow()).lines === 1234, 'the count on the row');
      expect((await linesOnRow()).state).toBe('in_progress');
    } finally {
      release();
      await running;
    }
    // The run's end writes the engine's own count.
    const done = await linesOnRow();
    expect(done.state).toBe('Done');
    expect(done.lines).not.toBe(1234);
    expect(done.lines).toBeGreaterThan(0);
  });

  it('a shutdown signal stops the run at the next chunk (the job is handed back)', async () => {
    const runId = await world.createRun();
    const controller = new AbortController();
    controller.abort(new Error('worker shutting down'));
    await expect(processor()({ runId }, ctx(1, controller.signal))).rejects.toThrow('worker shutting down');
    expect(world.storage.copies).toEqual([]);
    expect(world.files().filter((name) => name.endsWith('.part'))).toEqual([]);
    await world.database.db.update(ledesRuns).set({ state: 'Error' }).where(eq(ledesRuns.id, runId));
  });

  it('a running job beats a heartbeat: its run does not look silent to the timeout sweep', async () => {
    const runId = await world.createRun();
    const ports = { db: world.database.db, storage: world.storage, realtime: world.realtime, logger: world.logger };
    world.storage.hangGets = true;
    const running = withHeartbeat(ports, createCheckLedesProcessor(ports), 20)({ runId }, ctx(1));
    await waitFor(() => world.storage.hung === 1, 'the run to start');
    const before = (await world.database.db.select({ at: ledesRuns.updatedAt }).from(ledesRuns).where(eq(ledesRuns.id, runId)))[0]!.at;
    await waitFor(async () => {
      const [row] = await world.database.db.select({ at: ledesRuns.updatedAt }).from(ledesRuns).where(eq(ledesRuns.id, runId));
      return row!.at.getTime() > before.getTime();
    }, 'a heartbeat');
    world.storage.resume();
    await running;
    expect((await world.state(runId)).state).toBe('Done');
  });
});
