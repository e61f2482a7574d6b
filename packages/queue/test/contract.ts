import { randomUUID } from 'node:crypto';
import { jobIdFor, type QueueName } from '@portal/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  InvalidJobPayloadError,
  UnrecoverableJobError,
  type FinalFailureHook,
  type JobHandler,
  type JobHandlers,
  type ProcessorMap,
  type QueuePort,
} from '../src/index.ts';

interface Harness {
  port: QueuePort;
  /** Resolves when every queue is idle. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export type HarnessFactory = (handlers: JobHandlers) => Promise<Harness>;

type AnyHook = (queue: QueueName, ...args: Parameters<FinalFailureHook<QueueName>>) => Promise<void>;

/** Handlers for the processors, with a fast retry policy and one final-failure hook for all queues. */
export function handlersFor(processors: ProcessorMap, opts: { attempts: number; backoffMs: number; onFinalFailure?: AnyHook }): JobHandlers {
  const handlers: Record<string, JobHandler<QueueName>> = {};
  for (const [queue, process] of Object.entries(processors) as Array<[QueueName, JobHandler<QueueName>['process']]>) {
    handlers[queue] = {
      queue,
      process,
      retry: { attempts: opts.attempts, backoffMs: opts.backoffMs, infrastructureBackoffMs: opts.backoffMs, hookAttempts: 3 },
      concurrency: 1,
      ...(opts.onFinalFailure && { onFinalFailure: (payload, failure) => opts.onFinalFailure!(queue, payload, failure) }),
    };
  }
  return handlers;
}

interface Failure { queue: QueueName; payload: unknown; error: Error; attemptsMade: number }

/** BullMQ emits `failed` just after the state change that makes the queue look idle. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Deferred promise, to hold a job "running" while the test acts. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** The same semantics, whichever driver: the inline one must behave like BullMQ. */
export function queueContract(name: string, createHarness: HarnessFactory): void {
  describe(`${name} queue contract`, () => {
    let harness: Harness | undefined;
    let failures: Failure[];

    /** What the final-failure hook does before recording the failure (default: nothing). */
    let beforeRecord: (queue: QueueName) => Promise<void>;
    const start = async (processors: ProcessorMap, attempts = 3) => {
      failures = [];
      beforeRecord = async () => {};
      const onFinalFailure: AnyHook = async (queue, payload, failure) => {
        await beforeRecord(queue);
        failures.push({ queue, payload, error: failure.error, attemptsMade: failure.attemptsMade });
      };
      harness = await createHarness(handlersFor(processors, { attempts, backoffMs: 50, onFinalFailure }));
      return harness;
    };

    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    it('runs an enqueued job once, asynchronously, with the validated payload and context', async () => {
      const runId = randomUUID();
      const seen: Array<{ payload: unknown; jobId: string; attempt: number }> = [];
      const { port, drain } = await start({
        ledes: async (payload, ctx) => {
          await ctx.updateProgress(50);
          ctx.log('checking');
          seen.push({ payload, jobId: ctx.jobId, attempt: ctx.attempt });
        },
      });
      await port.enqueue('ledes', { runId });
      expect(seen).toHaveLength(0); // never inside the caller's stack
      await drain();
      expect(seen).toEqual([{ payload: { runId }, jobId: jobIdFor('ledes', { runId }), attempt: 1 }]);
      expect(await port.counts('ledes')).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 1 });
    });

    it('treats a duplicate enqueue of a pending job as a no-op', async () => {
      const mailId = randomUUID();
      const hold = gate();
      let runs = 0;
      const { port, drain } = await start({
        mail: async () => {
          runs += 1;
          await hold.opened;
        },
      });
      await port.enqueue('mail', { mailId });
      await port.enqueue('mail', { mailId });
      await new Promise((resolve) => setTimeout(resolve, 200)); // let it become active
      await port.enqueue('mail', { mailId });
      hold.open();
      await drain();
      expect(runs).toBe(1);
    });

    it('retries a job that threw, then succeeds', async () => {
      const attempts: number[] = [];
      const { port, drain } = await start({
        annuities: async (_payload, ctx) => {
          attempts.push(ctx.attempt);
          if (ctx.attempt === 1) throw new Error('S3 503');
        },
      });
      await port.enqueue('annuities', { fileId: randomUUID() });
      await drain();
      expect(attempts).toEqual([1, 2]);
      expect(failures).toEqual([]);
      expect(await port.counts('annuities')).toMatchObject({ completed: 1, failed: 0 });
    });

    it('Q-08: UnrecoverableJobError fails after exactly 1 attempt', async () => {
      let runs = 0;
      const runId = randomUUID();
      const { port, drain } = await start({
        ledes: async () => {
          runs += 1;
          throw new UnrecoverableJobError('malformed LEDES header');
        },
      });
      await port.enqueue('ledes', { runId });
      await drain();
      await eventually(() => failures.length > 0, 'the failure report');
      expect(runs).toBe(1);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ queue: 'ledes', payload: { runId }, attemptsMade: 1 });
      expect(failures[0]!.error.message).toContain('malformed LEDES header');
      expect(await port.counts('ledes')).toMatchObject({ failed: 1, completed: 0 });
    });

    it('gives up after the configured attempts and reports the failure once', async () => {
      let runs = 0;
      const { port, drain } = await start({
        mail: async () => {
          runs += 1;
          throw new Error('SMTP down');
        },
      }, 3);
      await port.enqueue('mail', { mailId: randomUUID() });
      await drain();
      await eventually(() => failures.length > 0, 'the failure report');
      await new Promise((resolve) => setTimeout(resolve, 100)); // a second report would show up here
      expect(runs).toBe(3);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ attemptsMade: 3 });
    });

    it('waitUntilFinished reports completed (after a retry), failed, timeout and unknown', async () => {
      const slow = gate();
      const { port, drain } = await start({
        ledes: async (_payload, ctx) => {
          if (ctx.attempt === 1) throw new Error('transient');
        },
        annuities: async () => {
          throw new UnrecoverableJobError('corrupt workbook');
        },
        mail: async () => {
          await slow.opened;
        },
      });
      const ledes = { runId: randomUUID() };
      await port.enqueue('ledes', ledes);
      expect(await port.waitUntilFinished('ledes', ledes, 10_000)).toBe('completed');

      const annuities = { fileId: randomUUID() };
      await port.enqueue('annuities', annuities);
      expect(await port.waitUntilFinished('annuities', annuities, 10_000)).toBe('failed');

      const mail = { mailId: randomUUID() };
      await port.enqueue('mail', mail);
      expect(await port.waitUntilFinished('mail', mail, 200)).toBe('timeout');
      slow.open();
      expect(await port.waitUntilFinished('mail', mail, 10_000)).toMatch(/completed|unknown/);

      expect(await port.waitUntilFinished('ledes', { runId: randomUUID() }, 100)).toBe('unknown');
      await drain();
    });

    it('final failure is awaited: the job counts as failed only once the hook has finished', async () => {
      const runId = randomUUID();
      const { port, drain } = await start({
        ledes: async () => {
          throw new UnrecoverableJobError('bad file');
        },
      });
      beforeRecord = () => new Promise((resolve) => setTimeout(resolve, 300));
      await port.enqueue('ledes', { runId });
      expect(await port.waitUntilFinished('ledes', { runId }, 10_000)).toBe('failed');
      expect(failures).toHaveLength(1); // recorded before the job was reported failed, not after
      await drain();
    });

    it('final-failure hook that throws is retried, not lost', async () => {
      let runs = 0;
      let hookCalls = 0;
      const { port, drain } = await start({
        mail: async () => {
          runs += 1;
          throw new Error('SMTP down');
        },
      }, 2);
      beforeRecord = async () => {
        hookCalls += 1;
        if (hookCalls === 1) throw new Error('database down while recording the failure');
      };
      const mail = { mailId: randomUUID() };
      await port.enqueue('mail', mail);
      expect(await port.waitUntilFinished('mail', mail, 10_000)).toBe('failed');
      await drain();
      expect(runs).toBe(2); // the processor is not run again for the hook's sake
      expect(hookCalls).toBe(2);
      expect(failures).toHaveLength(1);
    });

    it('re-enqueue after a failed job runs the job again (the stale failed job does not swallow it)', async () => {
      let runs = 0;
      const { port, drain } = await start({
        mail: async () => {
          runs += 1;
          if (runs === 1) throw new UnrecoverableJobError('SMTP refused');
        },
      });
      const mail = { mailId: randomUUID() };
      await port.enqueue('mail', mail);
      expect(await port.waitUntilFinished('mail', mail, 10_000)).toBe('failed');
      await port.enqueue('mail', mail); // the sweep, once SMTP is back
      await drain();
      expect(runs).toBe(2);
    });

    it('re-enqueue after a completed job runs it again (dedup only while pending)', async () => {
      let runs = 0;
      const { port, drain } = await start({ mail: async () => void (runs += 1) });
      const payload = { mailId: randomUUID() };
      await port.enqueue('mail', payload);
      expect(await port.waitUntilFinished('mail', payload, 10_000)).toMatch(/completed|unknown/);
      await drain();
      await port.enqueue('mail', payload);
      await drain();
      expect(runs).toBe(2);
    });

    it('isQueued: true while the job waits its turn, false once it runs and after it finished', async () => {
      const hold = gate();
      const { port, drain } = await start({
        ledes: async () => {
          await hold.opened;
        },
      });
      const first = { runId: randomUUID() };
      const second = { runId: randomUUID() };
      await port.enqueue('ledes', first);
      await new Promise((resolve) => setTimeout(resolve, 200)); // let it become active
      await port.enqueue('ledes', second); // concurrency 1: waits behind the first
      expect(await port.isQueued('ledes', first)).toBe(false);
      expect(await port.isQueued('ledes', second)).toBe(true);
      hold.open();
      await drain();
      expect(await port.isQueued('ledes', second)).toBe(false);
    });

    it('rejects an invalid payload at enqueue', async () => {
      let runs = 0;
      const { port, drain } = await start({ ledes: async () => void (runs += 1) });
      const bad: unknown[] = [{ runId: 'not-a-uuid' }, { runId: randomUUID(), extra: 'pii' }, {}, null];
      for (const payload of bad) {
        await expect(port.enqueue('ledes', payload as { runId: string })).rejects.toBeInstanceOf(InvalidJobPayloadError);
      }
      await drain();
      expect(runs).toBe(0);
      expect(await port.counts('ledes')).toMatchObject({ waiting: 0, completed: 0 });
    });
  });
}
