import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInlineQueue } from '../src/index.ts';
import { handlersFor, queueContract } from './contract.ts';

queueContract('inline', async (handlers) => {
  const queue = createInlineQueue(handlers);
  return { port: queue, drain: () => queue.drain(), close: () => queue.close() };
});

describe('inline queue specifics', () => {
  it('refuses a queue without a processor at enqueue', async () => {
    const queue = createInlineQueue({});
    await expect(queue.enqueue('mail', { mailId: randomUUID() })).rejects.toThrow('No processor registered for queue "mail"');
  });

  it('runs a job in its own asynchronous context, not in the enqueuer’s (a request’s database lane does not follow its jobs, decision 185)', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const handlers = handlersFor(
      {
        mail: async () => {
          seen.push(context.getStore());
          if (seen.length === 1) throw new Error('transient'); // its retry too
        },
      },
      { attempts: 2, backoffMs: 5 },
    );
    const queue = createInlineQueue(handlers);
    await context.run('request', () => queue.enqueue('mail', { mailId: randomUUID() }));
    await queue.drain();
    expect(seen).toEqual([undefined, undefined]);
  });

  it('honours per-queue concurrency', async () => {
    let running = 0;
    let peak = 0;
    const handlers = handlersFor(
      {
        annuities: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 30));
          running -= 1;
        },
      },
      { attempts: 3, backoffMs: 50 },
    );
    const queue = createInlineQueue({ annuities: { ...handlers.annuities!, concurrency: 2 } });
    for (let i = 0; i < 6; i += 1) await queue.enqueue('annuities', { fileId: randomUUID() });
    await queue.drain();
    expect(peak).toBe(2);
    expect(await queue.counts('annuities')).toMatchObject({ completed: 6 });
  });

  it('close waits for the running job and drops pending retries without reporting them failed', async () => {
    let finished = false;
    const failed: string[] = [];
    const queue = createInlineQueue(
      handlersFor(
        {
          ledes: async () => {
            await new Promise((resolve) => setTimeout(resolve, 100));
            finished = true;
          },
          mail: async () => {
            throw new Error('transient');
          },
        },
        { attempts: 3, backoffMs: 10_000, onFinalFailure: async (q) => void failed.push(q) },
      ),
    );
    await queue.enqueue('ledes', { runId: randomUUID() });
    await queue.enqueue('mail', { mailId: randomUUID() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await queue.close();
    expect(finished).toBe(true);
    expect(failed).toEqual([]);
    await expect(queue.enqueue('ledes', { runId: randomUUID() })).rejects.toThrow('closed');
  });

  it('close signals running jobs and hands them back without reporting them failed', async () => {
    const failed: string[] = [];
    let sawAbort = false;
    const queue = createInlineQueue(
      handlersFor(
        {
          ledes: (_payload, ctx) =>
            new Promise<void>((_resolve, reject) => {
              ctx.signal.addEventListener('abort', () => {
                sawAbort = true;
                reject(ctx.signal.reason as Error);
              });
            }),
        },
        { attempts: 1, backoffMs: 50, onFinalFailure: async (q) => void failed.push(q) },
      ),
    );
    const payload = { runId: randomUUID() };
    await queue.enqueue('ledes', payload);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = queue.waitUntilFinished('ledes', payload, 5000);
    await queue.close();
    expect(sawAbort).toBe(true);
    expect(await outcome).toBe('unknown');
    expect(failed).toEqual([]);
  });
});
