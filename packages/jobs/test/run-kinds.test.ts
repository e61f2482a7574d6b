import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annuityFiles, ledesRuns, patentImports, receiptUploads, registerSyncRuns, users, type Database, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import { createMetrics } from '@portal/ops';
import { BUS_EVENT, createInProcessPublisher, type BusMessage } from '@portal/realtime';
import { RUN_KINDS, RUN_TABLES, sweepJobs, type RunKind } from '../src/index.ts';
import { createFixtureTable, fixtureRunKind, seedFixtureRun } from './fixture-kind.ts';
import { runKindContract, type ContractWorld } from './run-kind-contract.ts';

/** One in-progress row of each registered kind (the columns its table requires). */
const SEEDS: Record<string, (db: Database, ownerId: string) => Promise<string>> = {
  ledes: async (db, ownerId) => {
    const key = randomUUID();
    // With its treated key: the contract's processors commit Done without a kind's own work, and a Done
    // LEDES run without its workbook is one the sweep enqueues again (decision 182).
    const [row] = await db
      .insert(ledesRuns)
      .values({ ownerId, name: `run_${key}`, originalName: 'f.txt', originalKey: `ledes/original/${key}/f.txt`, treatedKey: `ledes/treated/${key}/f.xlsx`, size: 1, sha256: 'x', office: 'PAR', type: 'patent' })
      .returning();
    return row!.id;
  },
  annuities: async (db, ownerId) => {
    const key = randomUUID();
    const [row] = await db.insert(annuityFiles).values({ ownerId, importName: 'a.xlsx', exportName: 'a_export.xlsx', importKey: `annuities/import/${key}.xlsx`, size: 1, sha256: 'x' }).returning();
    return row!.id;
  },
  'patent-import': async (db, ownerId) => {
    const [row] = await db.insert(patentImports).values({ uploadedBy: ownerId, originalName: 'p.csv', storageKey: `patents/import/${randomUUID()}.csv`, size: 1, sha256: 'x' }).returning();
    return row!.id;
  },
  receipts: async (db, ownerId) => {
    const [row] = await db.insert(receiptUploads).values({ ownerId, originalName: 'r.pdf', storageKey: `receipts/upload/${randomUUID()}.pdf`, size: 1, sha256: 'x' }).returning();
    return row!.id;
  },
  'register-sync': async (db, ownerId) => {
    const [row] = await db.insert(registerSyncRuns).values({ trigger: 'admin', requestedBy: ownerId, day: '2026-11-28' }).returning();
    return row!.id;
  },
};

describe.each(testDatabaseKinds())('run kinds on %s', (dbKind) => {
  let database: DatabaseHandle;
  let world: ContractWorld;
  const realtime = createInProcessPublisher();
  const logger = createLogger({ level: 'silent', name: 'run-kinds-test' });

  beforeAll(async () => {
    database = await openTestDatabase(dbKind);
    await createFixtureTable(database.db);
    const [owner] = await database.db.insert(users).values({ companyAgent: 'Agent', email: `agent-${randomUUID()}@example.com`, passwordHash: 'x', langue: 'en' }).returning();
    world = { db: database.db, realtime, logger, ownerId: owner!.id, extraPorts: { storage: { delete: async () => {} } } };
  });
  afterAll(async () => {
    await realtime.close();
    await database?.close();
  });

  it('every registered kind has a seed here (the contract runs on each)', () => {
    expect(RUN_KINDS.map((kind) => kind.kind).sort()).toEqual(Object.keys(SEEDS).sort());
  });

  for (const kind of [...RUN_KINDS, fixtureRunKind as unknown as RunKind]) {
    describe(`${kind.kind} (${kind.tableName})`, () => {
      runKindContract(
        () => world,
        () => ({ kind, seed: () => (kind === (fixtureRunKind as unknown as RunKind) ? seedFixtureRun(world.db, world.ownerId) : SEEDS[kind.kind]!(world.db, world.ownerId)) }),
      );
    });
  }

  describe('the fixture kind, from its one file', () => {
    it('its own processor: progress events to the owner, Done with its result, published to the admins', async () => {
      const id = await seedFixtureRun(world.db, world.ownerId);
      const seen: Array<{ room: string; state: string; steps_done: number }> = [];
      realtime.bus.on(BUS_EVENT, (message: BusMessage) => {
        const dto = message.args[0] as { _id: string; state: string; steps_done: number };
        if ((message.event as string) === 'fixture:run' && dto._id === id) seen.push({ room: message.room.split(':')[0]!, state: dto.state, steps_done: dto.steps_done });
      });
      const ctx = { jobId: 'fixture-1', attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} };
      await fixtureRunKind.process(world)({ fixtureId: id } as never, ctx);
      expect(await fixtureRunKind.load(world.db, id)).toMatchObject({ state: 'Done', stepsDone: 3, result: '3 steps', leaseHolder: null });
      expect(seen.filter((e) => e.state === 'in_progress').map((e) => e.steps_done)).toEqual([1, 2, 3]);
      expect(seen.filter((e) => e.state === 'Done').map((e) => e.room).sort()).toEqual(['role', 'user']);
    });

    it('the sweep enqueues it again when it was never started (its enqueue was lost)', async () => {
      const id = await seedFixtureRun(world.db, world.ownerId);
      const enqueued: Array<{ queue: string; payload: unknown }> = [];
      const queue = { enqueue: async (q: string, payload: unknown) => void enqueued.push({ queue: q, payload }), isQueued: async () => true };
      // A second on: created_at is the database's clock in microseconds, and a sweep within the same
      // millisecond would not see the row as older than its `now` (the test failed so, now and then).
      const swept = await sweepJobs({ db: world.db, realtime, logger, queue: queue as never, clock: { now: () => new Date(Date.now() + 1_000) } }, { everything: true, kinds: [fixtureRunKind as unknown as RunKind] });
      expect(enqueued).toContainEqual({ queue: 'fixture', payload: { fixtureId: id } });
      expect(swept.runs.fixture).toBeGreaterThan(0);
    });

    it('the metrics count its runs per state, and its leased runs, from the table its definition names', async () => {
      const id = await seedFixtureRun(world.db, world.ownerId);
      await fixtureRunKind.claim(world.db, id, 'metrics-holder', new Date());
      const metrics = createMetrics({ service: 'test', runsFrom: world.db, runTables: { ...RUN_TABLES, [fixtureRunKind.kind]: fixtureRunKind.tableName } });
      const text = await metrics.render();
      expect(text).toMatch(/portal_runs\{[^}]*kind="fixture"[^}]*state="in_progress"[^}]*\} [1-9]/);
      expect(text).toMatch(/portal_runs_leased\{[^}]*kind="fixture"[^}]*\} [1-9]/);
    });
  });
});
