import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledesRuns, mails } from '@portal/db';
import {
  bindJob,
  createInlineQueue,
  type JobDefinition,
  type JobHandlers,
  type QueuePort,
  type RetryPolicy,
} from '@portal/queue';
import { createBullmqQueue, startBullmqWorker } from '@portal/queue/redis';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { LEDES_ERROR_CODES, ledesJob, mailJob, sweepJobs, type JobPorts } from '../src/index.ts';
import { createWorld, waitFor, type World } from './world.ts';

/** The production policies, with delays short enough for a test. */
const FAST: RetryPolicy = { attempts: 2, backoffMs: 20, infrastructureBackoffMs: 20, hookAttempts: 3 };

interface Consumers {
  queue: QueuePort;
  /** The consumer is gone for good (BullMQ: its worker stops without finishing its job). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

interface Mode {
  name: 'inline' | 'bullmq';
  start(handlers: JobHandlers, redisUrl?: string): Promise<Consumers>;
}

const inline: Mode = {
  name: 'inline',
  async start(handlers) {
    const queue = createInlineQueue(handlers, { report: () => {} });
    return { queue, kill: async () => {}, stop: () => queue.close() };
  },
};

let redis: TestRedis;
const bullmq: Mode = {
  name: 'bullmq',
  async start(handlers, redisUrl = redis.url) {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const queue = createBullmqQueue({ redisUrl, prefix, retry: { ledes: FAST, mail: FAST }, onError: () => {} });
    const workers = Object.values(handlers).map((handler) => startBullmqWorker(handler as never, { redisUrl, prefix, onError: () => {}, report: () => {} }));
    await Promise.all(workers.map(({ worker }) => worker.waitUntilReady()));
    return {
      queue,
      kill: async () => void (await Promise.all(workers.map((w) => w.close(true)))),
      stop: async () => {
        await Promise.all(workers.map((w) => w.close(true)));
        await queue.close();
      },
    };
  },
};

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => redis?.stop());

describe.each([inline, bullmq])('job lifecycle ($name)', (mode) => {
  let world: World;
  let consumers: Consumers | undefined;
  beforeAll(async () => {
    world = await createWorld();
  });
  afterAll(async () => world?.close());
  afterEach(async () => {
    world.storage.release();
    world.storage.failGets = 0;
    world.transport.down = false;
    await consumers?.stop();
    consumers = undefined;
    // No test may leave a run in progress.
    expect(await world.inProgress()).toEqual([]);
  });

  const ports = (): JobPorts => ({ db: world.database.db, storage: world.storage, transport: world.transport, realtime: world.realtime, logger: world.logger });
  const handlers = (ledes: JobDefinition<'ledes', JobPorts> = ledesJob): JobHandlers => ({
    ledes: bindJob({ ...ledes, retry: FAST }, ports()),
    mail: bindJob({ ...mailJob, retry: FAST }, ports()),
  });
  const sweep = (queue: QueuePort, aheadMs = 0) =>
    sweepJobs({ db: world.database.db, queue, realtime: world.realtime, logger: world.logger, clock: { now: () => new Date(Date.now() + aheadMs) } });
  const start = async (h = handlers()) => (consumers = await mode.start(h));
  const errorEvent = (runId: string) => world.events.find((e) => e._id === runId && e.state === 'Error');

  it('a processor that throws on every attempt ends the run in Error and publishes it', async () => {
    const { queue } = await start();
    const runId = await world.createRun();
    world.storage.failGets = FAST.attempts;
    await queue.enqueue('ledes', { runId });
    await waitFor(async () => (await world.state(runId)).state !== 'in_progress', 'the run to leave in_progress');
    expect(await world.state(runId)).toMatchObject({ state: 'Error', errorCode: LEDES_ERROR_CODES.failed, attempts: FAST.attempts });
    expect(errorEvent(runId)).toMatchObject({ error_code: 'processing_failed' });
  });

  it('a final-failure hook that throws once still ends the run in Error', async () => {
    let thrown = false;
    const flaky: JobDefinition<'ledes', JobPorts> = {
      ...ledesJob,
      onFinalFailure: (p) => {
        const real = ledesJob.onFinalFailure!(p);
        return async (payload, failure) => {
          if (!thrown) {
            thrown = true;
            throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
          }
          await real(payload, failure);
        };
      },
    };
    const { queue } = await start(handlers(flaky));
    const runId = await world.createRun();
    world.storage.failGets = FAST.attempts;
    await queue.enqueue('ledes', { runId });
    await waitFor(async () => (await world.state(runId)).state !== 'in_progress', 'the run to leave in_progress');
    expect(thrown).toBe(true);
    expect(await world.state(runId)).toMatchObject({ state: 'Error', errorCode: LEDES_ERROR_CODES.failed });
    expect(errorEvent(runId)).toBeDefined();
  });

  it('a worker killed for good: the timeout sweep moves its run to Error (interrupted)', async () => {
    const { queue, kill } = await start();
    const runId = await world.createRun();
    world.storage.hangGets = true;
    await queue.enqueue('ledes', { runId });
    await waitFor(() => world.storage.hung === 1, 'the worker to start the run');
    await kill();
    // Within the silence limit nothing happens; past it, the run is closed.
    expect((await sweep(queue)).interrupted).toBe(0);
    expect((await sweep(queue, ledesJob.timeoutMs + 60_000)).interrupted).toBe(1);
    expect(await world.state(runId)).toMatchObject({ state: 'Error', errorCode: LEDES_ERROR_CODES.interrupted });
    expect(errorEvent(runId)).toMatchObject({ error_code: 'interrupted' });
  });

  it('the timeout sweep leaves a run whose job waits its turn', async () => {
    const { queue } = await start({ ...handlers(), ledes: { ...handlers().ledes!, concurrency: 1 } });
    world.storage.hangGets = true;
    const first = await world.createRun();
    const second = await world.createRun();
    await queue.enqueue('ledes', { runId: first });
    await waitFor(() => world.storage.hung === 1, 'the first run to start');
    // The second run was started once before (a redelivery), then queued behind the first one.
    await queue.enqueue('ledes', { runId: second });
    await world.database.db.update(ledesRuns).set({ startedAt: new Date(Date.now() - 3_600_000), updatedAt: new Date(Date.now() - 3_600_000) }).where(eq(ledesRuns.id, second));
    expect(await queue.isQueued('ledes', { runId: second })).toBe(true);
    await sweep(queue, ledesJob.timeoutMs + 60_000);
    expect((await world.state(second)).state).toBe('in_progress');
    world.storage.resume();
    await waitFor(async () => (await world.state(second)).state === 'Done', 'the queued run to be checked');
  });

  it('a reset mail attempted while SMTP was down is sent once SMTP is back (the sweep replaces the failed job)', async () => {
    const { queue } = await start();
    const mailId = await world.createMail();
    world.transport.down = true;
    await queue.enqueue('mail', { mailId });
    expect(await queue.waitUntilFinished('mail', { mailId }, 20_000)).toBe('failed');
    world.transport.down = false;
    await sweep(queue, 5 * 60_000);
    await waitFor(async () => {
      const [mail] = await world.database.db.select().from(mails).where(eq(mails.id, mailId));
      return mail?.sentAt !== null;
    }, 'the mail to be sent');
    expect(world.transport.sent).toBe(1);
  });

  it.runIf(mode.name === 'bullmq')('Redis restarted during the final attempt: the run ends Done or Error, never in_progress', async () => {
    const own = await startRedisServer();
    let reconnected = false;
    consumers = await mode.start(handlers(), own.url);
    const { queue } = consumers;
    let restarted: TestRedis | undefined;
    try {
      const runId = await world.createRun();
      world.storage.hangGets = true;
      await queue.enqueue('ledes', { runId });
      await waitFor(() => world.storage.hung === 1, 'the worker to start the run');
      await own.stop();
      world.storage.resume(); // the attempt finishes while Redis is down
      await waitFor(async () => (await world.state(runId)).state !== 'in_progress', 'the run to end', 30_000);
      restarted = await startRedisServer({ port: own.port });
      reconnected = true;
      await sweep(queue);
      expect(['Done', 'Error']).toContain((await world.state(runId)).state);
    } finally {
      await consumers?.stop();
      consumers = undefined;
      await restarted?.stop();
      if (!reconnected) await own.stop();
    }
  });
});
