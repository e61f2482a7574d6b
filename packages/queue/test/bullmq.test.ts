import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jobIdFor, type QueueName } from '@portal/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, QueueUnavailableError, type QueuePort } from '../src/index.ts';
import { checkRedisForQueues, createBullmqQueue, startBullmqWorker, startSandboxedBullmqWorker, type RunningWorker } from '../src/redis.ts';
import { startRedisServer, type TestRedis } from '../test-support/redis-server.ts';
import { handlersFor, queueContract } from './contract.ts';

/** A handler with the production retry policy, for the BullMQ specifics. */
const handler = <Q extends QueueName>(queue: Q, process: (payload: never) => Promise<void>, onFinalFailure?: Parameters<typeof handlersFor>[1]['onFinalFailure']) =>
  handlersFor({ [queue]: process }, { attempts: 3, backoffMs: 2000, onFinalFailure })[queue]!;

const here = path.dirname(fileURLToPath(import.meta.url));

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function idle(port: QueuePort, queues: QueueName[]): Promise<void> {
  await waitFor(async () => {
    for (const queue of queues) {
      const c = await port.counts(queue);
      if (c.waiting + c.active + c.delayed > 0) return false;
    }
    return true;
  }, 20_000, 'queues to be idle');
}

queueContract('bullmq', async (handlers) => {
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const queues = Object.keys(handlers) as QueueName[];
  const retry = Object.fromEntries(queues.map((queue) => [queue, handlers[queue]!.retry]));
  const port = createBullmqQueue({ redisUrl: redis.url, prefix, retry });
  const workers: RunningWorker[] = queues.map((queue) => startBullmqWorker(handlers[queue]!, { redisUrl: redis.url, prefix }));
  await Promise.all(workers.map(({ worker }) => worker.waitUntilReady()));
  return {
    port,
    drain: () => idle(port, queues.length > 0 ? queues : ['ledes']),
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await port.close();
    },
  };
});

describe('bullmq specifics', () => {
  it('applies the production job options (the retry policy\'s attempts, its own backoff, bounded retention, deterministic id)', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const port = createBullmqQueue({ redisUrl: redis.url, prefix });
    const runId = randomUUID();
    await port.enqueue('ledes', { runId });
    const inspector = new Queue('ledes', { connection: { url: redis.url }, prefix });
    const job = await inspector.getJob(jobIdFor('ledes', { runId }));
    expect(job?.data).toEqual({ runId });
    expect(job?.opts).toMatchObject({
      attempts: DEFAULT_RETRY.attempts,
      backoff: { type: 'portal' },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    });
    expect(await port.counts('ledes')).toMatchObject({ waiting: 1, active: 0 });
    await inspector.close();
    await port.close();
  });

  it('re-validates the payload at processing: a forged job fails at once, unprocessed', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    let runs = 0;
    const failures: Error[] = [];
    const running = startBullmqWorker(handler('mail', async () => void (runs += 1)), { redisUrl: redis.url, prefix });
    running.worker.on('failed', (_job, error) => failures.push(error));
    const forger = new Queue('mail', { connection: { url: redis.url }, prefix });
    await forger.add('mail', { mailId: 'x', email: 'victim@example.com' }, { jobId: 'mail-forged', attempts: 3 });
    await waitFor(() => failures.length === 1, 10_000, 'the forged job to fail');
    expect(runs).toBe(0);
    expect(failures[0]!.message).toContain('InvalidJobPayloadError');
    const job = await forger.getJob('mail-forged');
    expect(job?.attemptsMade).toBe(1);
    await forger.close();
    await running.close();
  });

  it('fails fast with QueueUnavailableError when Redis is down (→ 503)', async () => {
    const ephemeral = await startRedisServer();
    const port = createBullmqQueue({ redisUrl: ephemeral.url, prefix: 'fast', onError: () => {} });
    await port.enqueue('mail', { mailId: randomUUID() });
    await ephemeral.stop();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let ioredis notice the closed socket
    const started = Date.now();
    await expect(port.enqueue('mail', { mailId: randomUUID() })).rejects.toBeInstanceOf(QueueUnavailableError);
    await expect(port.counts('mail')).rejects.toThrow();
    // Fail fast rather than hang until a timeout: a wide bound so a loaded CI machine cannot flake it.
    expect(Date.now() - started).toBeLessThan(3000);
    await port.close();
  });

  it('Q-01: a worker SIGKILLed mid-job loses the lock; a fresh worker finishes the job', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const port = createBullmqQueue({ redisUrl: redis.url, prefix });
    const runId = randomUUID();

    // node --import tsx (not the tsx CLI, which forks a grandchild): the pid we kill is the worker itself.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/stuck-worker.ts'), redis.url, prefix], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let childOutput = '';
    child.stdout.on('data', (chunk: Buffer) => (childOutput += chunk.toString()));
    await waitFor(() => childOutput.includes('ready'), 20_000, 'the child worker to start');
    await port.enqueue('ledes', { runId });
    await waitFor(() => childOutput.includes(`started ${runId}`), 10_000, 'the child to take the job');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(await port.counts('ledes')).toMatchObject({ active: 1 }); // still locked by the dead worker

    const completed: string[] = [];
    const stalled: string[] = [];
    const fresh = startBullmqWorker(handler('ledes', async (payload: { runId: string }) => void completed.push(payload.runId)), {
      redisUrl: redis.url, prefix, lockDuration: 1000, stalledInterval: 500,
    });
    fresh.worker.on('stalled', (jobId) => stalled.push(jobId));
    // The processor returns before BullMQ moves the job to completed: the worker's 'completed' event follows the move.
    const moved: string[] = [];
    fresh.worker.on('completed', (job) => moved.push(String(job.id)));
    try {
      await waitFor(() => completed.length === 1, 15_000, 'the fresh worker to finish the job');
      await waitFor(() => moved.length === 1, 5_000, 'the job moved to completed');
      // The 'stalled' event may be emitted just after the job is re-fetched and run: wait for it too.
      await waitFor(() => stalled.length > 0, 5_000, 'the stalled event');
      expect(completed).toEqual([runId]);
      expect(stalled).toEqual([jobIdFor('ledes', { runId })]);
      expect(await port.counts('ledes')).toMatchObject({ active: 0, completed: 1, failed: 0 });
    } finally {
      await fresh.close();
      await port.close();
    }
  });
});

it('fails fast when Redis is unreachable from the start (bounded by connectTimeoutMs)', async () => {
  const gone = await startRedisServer();
  await gone.stop();
  const port = createBullmqQueue({ redisUrl: gone.url, connectTimeoutMs: 300, onError: () => {} });
  const started = Date.now();
  await expect(port.enqueue('ledes', { runId: randomUUID() })).rejects.toBeInstanceOf(QueueUnavailableError);
  expect(Date.now() - started).toBeLessThan(5000);
  await port.close();
});

it('runs a sandboxed processor file in a child process, unrecoverable errors included', async () => {
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const port = createBullmqQueue({ redisUrl: redis.url, prefix });
  const failures: Array<{ message: string; attemptsMade: number }> = [];
  const running = startSandboxedBullmqWorker(handler('annuities', async () => {}), path.join(here, 'fixtures/sandboxed-annuities.ts'), {
    redisUrl: redis.url,
    prefix,
    execArgv: ['--import', 'tsx'],
  });
  running.worker.on('failed', (job, error) => failures.push({ message: error.message, attemptsMade: job?.attemptsMade ?? 0 }));
  try {
    await port.enqueue('annuities', { fileId: randomUUID() });
    await port.enqueue('annuities', { fileId: '00000000-0000-4000-8000-000000000000' });
    await waitFor(async () => {
      const c = await port.counts('annuities');
      return c.completed === 1 && c.failed === 1;
    }, 20_000, 'the sandboxed jobs');
    await waitFor(() => failures.length > 0, 5_000, 'the failed event'); // emitted just after the state change
    expect(failures).toEqual([{ message: expect.stringContaining('corrupt workbook'), attemptsMade: 1 }]);
  } finally {
    await running.close();
    await port.close();
  }
});

describe('Q-00 checkRedisForQueues', () => {
  it('accepts noeviction and warns about appendonly no', async () => {
    const result = await checkRedisForQueues(redis.url);
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.warnings.join(' ')).toContain('appendonly');
  });

  it('reports a problem when maxmemory-policy is allkeys-lru', async () => {
    const lru = await startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    try {
      const result = await checkRedisForQueues(lru.url);
      expect(result.ok).toBe(false);
      expect(result.problems.join(' ')).toContain('allkeys-lru');
    } finally {
      await lru.stop();
    }
  });

  it('reports an unreachable Redis', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const result = await checkRedisForQueues(gone.url);
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toContain('unreachable');
  });
});

describe('lifecycle under faults (bullmq)', () => {
  it('re-enqueue as soon as Redis is back: the producer reports the reconnection', async () => {
    const ephemeral = await startRedisServer();
    let reconnects = 0;
    const port = createBullmqQueue({ redisUrl: ephemeral.url, prefix: 'back', onError: () => {}, onReconnect: () => (reconnects += 1) });
    await port.enqueue('mail', { mailId: randomUUID() });
    expect(reconnects).toBe(0);
    await ephemeral.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const restarted = await startRedisServer({ port: ephemeral.port });
    try {
      await waitFor(() => reconnects === 1, 20_000, 'the reconnection to be reported');
      await port.enqueue('mail', { mailId: randomUUID() }); // and the producer works again
    } finally {
      await port.close();
      await restarted.stop();
    }
  });

  it('SIGTERM on a long job hands it back to waiting without spending an attempt (no ShutdownTimeoutError)', async () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    const port = createBullmqQueue({ redisUrl: redis.url, prefix });
    const runId = randomUUID();
    let started = false;
    const long = startBullmqWorker(
      handler('ledes', (_payload: unknown, ...rest: unknown[]) => {
        const ctx = rest[0] as { signal: AbortSignal };
        started = true;
        return new Promise<void>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      }),
      { redisUrl: redis.url, prefix },
    );
    await port.enqueue('ledes', { runId });
    await waitFor(() => started, 10_000, 'the long job to start');
    await long.close(false, 100);

    const inspector = new Queue('ledes', { connection: { url: redis.url }, prefix });
    const job = await inspector.getJob(jobIdFor('ledes', { runId }));
    expect(await job?.getState()).toBe('waiting');
    expect(job?.attemptsMade).toBe(0);

    const attempts: number[] = [];
    const fresh = startBullmqWorker(handler('ledes', async (...args: unknown[]) => void attempts.push((args[1] as { attempt: number }).attempt)), { redisUrl: redis.url, prefix });
    try {
      await waitFor(() => attempts.length === 1, 10_000, 'a fresh worker to take the handed-back job');
      expect(attempts).toEqual([1]);
    } finally {
      await fresh.close();
      await inspector.close();
      await port.close();
    }
  });
});

describe('a producer started while Redis is down', () => {
  it('reports the first connection as a reconnection, so what was refused meanwhile is enqueued at once', async () => {
    // A port nothing listens on yet (a server started and stopped), where Redis comes up later.
    const later = await startRedisServer();
    const portNumber = later.port;
    await later.stop();
    let reconnections = 0;
    const producer = createBullmqQueue({ redisUrl: `redis://127.0.0.1:${portNumber}`, queues: ['mail'], connectTimeoutMs: 300, onError: () => {}, onReconnect: () => void reconnections++ });
    let revived: TestRedis | undefined;
    try {
      await expect(producer.enqueue('mail', { mailId: randomUUID() })).rejects.toBeInstanceOf(QueueUnavailableError);
      revived = await startRedisServer({ port: portNumber });
      // Before the fix the first 'ready' was taken for a first connection and nothing was re-enqueued.
      await waitFor(() => reconnections > 0, 15_000, 'onReconnect after Redis came up');
      expect(reconnections).toBe(1);
    } finally {
      await producer.close();
      await revived?.stop();
    }
  });
});
