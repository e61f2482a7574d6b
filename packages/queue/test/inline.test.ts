import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInlineQueue } from '../src/index.ts';
import { queueContract } from './contract.ts';

queueContract('inline', async (processors, opts) => {
  const queue = createInlineQueue(processors, opts);
  return { port: queue, drain: () => queue.drain(), close: () => queue.close() };
});

describe('inline queue specifics', () => {
  it('refuses a queue without a processor at enqueue', async () => {
    const queue = createInlineQueue({});
    await expect(queue.enqueue('mail', { mailId: randomUUID() })).rejects.toThrow('No processor registered for queue "mail"');
  });

  it('honours per-queue concurrency', async () => {
    let running = 0;
    let peak = 0;
    const queue = createInlineQueue(
      {
        annuities: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 30));
          running -= 1;
        },
      },
      { concurrency: { annuities: 2 } },
    );
    for (let i = 0; i < 6; i += 1) await queue.enqueue('annuities', { fileId: randomUUID() });
    await queue.drain();
    expect(peak).toBe(2);
    expect(await queue.counts('annuities')).toMatchObject({ completed: 6 });
  });

  it('re-runs a job enqueued again after it completed (dedup only while pending)', async () => {
    let runs = 0;
    const queue = createInlineQueue({ mail: async () => void (runs += 1) });
    const payload = { mailId: randomUUID() };
    await queue.enqueue('mail', payload);
    await queue.drain();
    await queue.enqueue('mail', payload);
    await queue.drain();
    expect(runs).toBe(2);
  });

  it('close waits for the running job and drops pending retries without reporting them failed', async () => {
    let finished = false;
    const failed: string[] = [];
    const queue = createInlineQueue(
      {
        ledes: async () => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          finished = true;
        },
        mail: async () => {
          throw new Error('transient');
        },
      },
      { backoffMs: 10_000, onFailed: (q) => failed.push(q) },
    );
    await queue.enqueue('ledes', { runId: randomUUID() });
    await queue.enqueue('mail', { mailId: randomUUID() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await queue.close();
    expect(finished).toBe(true);
    expect(failed).toEqual([]);
    await expect(queue.enqueue('ledes', { runId: randomUUID() })).rejects.toThrow('closed');
  });
});
