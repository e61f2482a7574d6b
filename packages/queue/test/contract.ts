import { randomUUID } from 'node:crypto';
import { jobIdFor, type QueueName } from '@portal/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidJobPayloadError, UnrecoverableJobError, type OnFailed, type ProcessorMap, type QueuePort } from '../src/index.ts';

interface Harness {
  port: QueuePort;
  /** Resolves when every queue is idle. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export type HarnessFactory = (processors: ProcessorMap, opts: { attempts: number; backoffMs: number; onFailed: OnFailed }) => Promise<Harness>;

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

    const start = async (processors: ProcessorMap, attempts = 3) => {
      failures = [];
      const onFailed: OnFailed = (queue, payload, error, info) => failures.push({ queue, payload, error, attemptsMade: info.attemptsMade });
      harness = await createHarness(processors, { attempts, backoffMs: 50, onFailed });
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
