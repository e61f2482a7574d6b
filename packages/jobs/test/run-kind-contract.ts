import { eq, sql } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import type { Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { JobContext, QueuePort } from '@portal/queue';
import { BUS_EVENT, type BusMessage, type RealtimePublisher } from '@portal/realtime';
import { RUN_LEASE_MS, RUN_LEASE_RENEW_MS, leaseOf, sweepJobs, type RunKind, type RunPorts } from '../src/index.ts';

/**
 * The in-process part of the fault contract every run kind keeps (decisions 159, 160), written once
 * against `RunKind` and applied to each registered kind and to the fixture kind: the lease (two
 * claimers, expiry and takeover once, renewal, release), the sweep leaving a leased run alone, a late
 * job of a finished run, final failure, the silent close, and the events to the owner and the admins.
 * The processor is the contract's own (controllable); the kind's own processor has its own tests.
 */
export interface ContractSubject {
  kind: RunKind;
  /** Commits one in-progress run of the kind; returns its id. */
  seed(): Promise<string>;
}

export interface ContractWorld {
  db: Database;
  realtime: RealtimePublisher & { bus: { on(event: string, listener: (message: BusMessage) => void): unknown; off(event: string, listener: (message: BusMessage) => void): unknown } };
  logger: Logger;
  ownerId: string;
  /** Whatever else the kinds' ports need (storage for the receipts' clean-up…). */
  extraPorts?: Record<string, unknown>;
}

const ctx = (jobId: string): JobContext => ({ jobId, attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });

export function runKindContract(world: () => ContractWorld, subject: () => ContractSubject): void {
  // Each test listens to the shared bus; its listener goes with it (one per test piled up: MaxListenersExceededWarning).
  const listening: Array<(message: BusMessage) => void> = [];
  afterEach(() => {
    for (const listener of listening.splice(0)) world().realtime.bus.off(BUS_EVENT, listener);
  });
  const setup = () => {
    const w = world();
    const { kind, seed } = subject();
    const ports = { db: w.db, realtime: w.realtime, logger: w.logger, ...w.extraPorts } as RunPorts;
    const t = kind.table;
    const row = async (id: string) => (await kind.load(w.db, id))!;
    const set = async (id: string, values: Record<string, unknown>) => {
      await w.db.update(t as never).set(values).where(eq(t.id, id));
    };
    const events: Array<{ room: string; dto: { _id: string } }> = [];
    const listener = (message: BusMessage) => {
      if (message.event === kind.event) events.push({ room: message.room, dto: message.args[0] as { _id: string } });
    };
    w.realtime.bus.on(BUS_EVENT, listener);
    listening.push(listener);
    /** A processor that counts its calls, waits for `release`, then commits Done under its lease. */
    const gated = () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const calls: string[] = [];
      const processor = async (payload: unknown, jobCtx: JobContext) => {
        const id = kind.idOf(payload as never);
        calls.push(leaseOf(jobCtx)?.holder ?? 'none');
        await gate;
        const done = await kind.done(w.db, id, leaseOf(jobCtx)?.holder ?? null, new Date(), {});
        if (done) kind.publish(w.realtime, done, { transition: true });
      };
      return { processor, calls, release: () => release() };
    };
    return { w, kind, seed, ports, row, set, events, gated };
  };

  it('lifecycle: a job claims the run, ends it Done, publishes to the owner and the admins, and releases the lease', async () => {
    const { kind, seed, ports, row, events, gated } = setup();
    const id = await seed();
    const g = gated();
    g.release();
    await kind.process(ports, g.processor)(kind.payloadOf(id) as never, ctx('a'));
    expect(g.calls).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: 'Done', leaseHolder: null, leaseExpiresAt: null });
    const rooms = events.filter((e) => e.dto._id === id).map((e) => e.room.split(':')[0]);
    expect(rooms).toEqual(expect.arrayContaining(['user', 'role']));
  });

  it('lease: a second job for a run a live worker holds ends quietly (completed) without touching it; the holder ends it once', async () => {
    const { kind, seed, ports, row, gated } = setup();
    const id = await seed();
    const first = gated();
    const running = kind.process(ports, first.processor)(kind.payloadOf(id) as never, ctx('a'));
    await expect.poll(() => first.calls.length).toBe(1);
    const held = await row(id);
    expect(held.leaseHolder).toBe(first.calls[0]);
    const second = gated();
    second.release();
    // The holder renews while the second job waits out the lease it saw: the second job gives up.
    await kind.process(ports, second.processor)(kind.payloadOf(id) as never, ctx('b'));
    expect(second.calls).toHaveLength(0);
    expect(await row(id)).toMatchObject({ state: 'in_progress', leaseHolder: first.calls[0] });
    first.release();
    await running;
    expect(await row(id)).toMatchObject({ state: 'Done', leaseHolder: null });
  }, 20_000);

  it('lease: the holder renews it while it works (expiry moves forward)', async () => {
    const { kind, seed, ports, row, gated } = setup();
    const id = await seed();
    const g = gated();
    const running = kind.process(ports, g.processor)(kind.payloadOf(id) as never, ctx('a'));
    await expect.poll(() => g.calls.length).toBe(1);
    const before = (await row(id)).leaseExpiresAt!.getTime();
    await new Promise((resolve) => setTimeout(resolve, RUN_LEASE_RENEW_MS * 2.5));
    expect((await row(id)).leaseExpiresAt!.getTime()).toBeGreaterThan(before);
    g.release();
    await running;
  }, 20_000);

  it('worker dies: its lease expires unrenewed and another job takes the run over, once', async () => {
    const { kind, seed, ports, row, set, gated } = setup();
    const id = await seed();
    // A dead worker's claim: its lease runs out shortly and nobody renews it.
    const dead = await kind.claim(ports.db, id, 'dead-worker', new Date());
    expect(dead?.leaseHolder).toBe('dead-worker');
    expect(await kind.claim(ports.db, id, 'another', new Date())).toBeUndefined();
    await set(id, { leaseExpiresAt: new Date(Date.now() + 300) });
    const g = gated();
    g.release();
    const begun = Date.now();
    await kind.process(ports, g.processor)(kind.payloadOf(id) as never, ctx('b'));
    expect(Date.now() - begun).toBeLessThan(RUN_LEASE_MS);
    expect(g.calls).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: 'Done', leaseHolder: null });
    // A late job of the finished run is a no-op (the kinds with work for finished runs are given it).
    const late = gated();
    late.release();
    await kind.process(ports, late.processor)(kind.payloadOf(id) as never, ctx('c'));
    expect(late.calls).toHaveLength(kind.handlesFinished ? 1 : 0);
    expect(await row(id)).toMatchObject({ state: 'Done' });
  }, 20_000);

  it('a holder whose run was taken over stops, and its job completes without failing the run', async () => {
    const { kind, seed, ports, row, set, gated } = setup();
    const id = await seed();
    const g = gated();
    const running = kind.process(ports, g.processor)(kind.payloadOf(id) as never, ctx('a'));
    await expect.poll(() => g.calls.length).toBe(1);
    // Another execution took it over (this one's lease expired while it hung).
    await set(id, { leaseHolder: 'other', leaseExpiresAt: new Date(Date.now() + 60_000) });
    g.release();
    await running;
    // Its Done commit was refused: the run belongs to the other holder.
    expect(await row(id)).toMatchObject({ state: 'in_progress', leaseHolder: 'other' });
  }, 20_000);

  it('the sweep neither enqueues nor closes a run under an unexpired lease, and does both once it expired', async () => {
    const { kind, seed, ports, set } = setup();
    const id = await seed();
    const long = new Date(Date.now() - kind.timeoutMs - 60_000);
    await set(id, { startedAt: long, updatedAt: long, createdAt: long, leaseHolder: 'live-worker', leaseExpiresAt: new Date(Date.now() + 60_000) });
    const enqueued: unknown[] = [];
    const queue = { enqueue: async (_q: string, payload: unknown) => void enqueued.push(payload), isQueued: async () => false } as unknown as QueuePort;
    const sweepPorts = { db: ports.db, realtime: ports.realtime, logger: ports.logger, queue, clock: { now: () => new Date() } };
    let swept = await sweepJobs(sweepPorts, { everything: true, kinds: [kind] });
    expect(enqueued).toEqual([]);
    expect(swept.interrupted).toBe(0);
    expect((await kind.load(ports.db, id))!.state).toBe('in_progress');
    await set(id, { leaseExpiresAt: new Date(Date.now() - 1) });
    swept = await sweepJobs(sweepPorts, { everything: true, kinds: [kind] });
    expect(enqueued).toEqual([kind.payloadOf(id)]);
    expect(swept.interrupted).toBe(1);
    expect(await kind.load(ports.db, id)).toMatchObject({ state: 'Error', errorCode: kind.errorCodes.interrupted, leaseHolder: null });
  });

  it('final failure ends an in-progress run in Error (published to the admins), and leaves a Done run Done', async () => {
    const { kind, seed, ports, row, set, events } = setup();
    const id = await seed();
    await kind.onFinalFailure(ports)(kind.payloadOf(id), { error: new Error('boom'), attemptsMade: 5 });
    expect(await row(id)).toMatchObject({ state: 'Error', errorCode: kind.errorCodes.failed, leaseHolder: null });
    expect(events.some((e) => e.dto._id === id && e.room.startsWith('role:'))).toBe(true);
    const done = await seed();
    await set(done, { state: 'Done', finishedAt: new Date() });
    await kind.onFinalFailure(ports)(kind.payloadOf(done), { error: new Error('late'), attemptsMade: 5 });
    expect(await row(done)).toMatchObject({ state: 'Done', errorCode: null });
  });

  it('the silent close moves a started run silent past the timeout to Error (interrupted), unless its job waits its turn', async () => {
    const { kind, seed, ports, row, set } = setup();
    const waiting = await seed();
    const silent = await seed();
    const long = new Date(Date.now() - kind.timeoutMs - 60_000);
    for (const id of [waiting, silent]) await set(id, { startedAt: long, updatedAt: long });
    const closed = await kind.closeSilent(ports, async (id) => id === waiting, new Date());
    expect(closed).toBe(1);
    expect(await row(silent)).toMatchObject({ state: 'Error', errorCode: kind.errorCodes.interrupted });
    expect((await row(waiting)).state).toBe('in_progress');
  });

  it('counts: the runs of the kind per state are readable from its table (the metrics gauge)', async () => {
    const { kind, seed, w } = setup();
    await seed();
    const result = await w.db.execute(sql`select state, count(*)::int as n from ${sql.identifier(kind.tableName)} group by state`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ state: string; n: number }>;
    expect(rows.find((r) => r.state === 'in_progress')?.n).toBeGreaterThan(0);
  });
}
