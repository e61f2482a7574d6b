import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runOneShotThread } from '../src/one-shot-thread.ts';

/** A thread from source text: it posts what `body` posts, with `parentPort` and `workerData` in scope. */
const threadOf = (body: string) =>
  new URL(`data:text/javascript,${encodeURIComponent(`import { parentPort, workerData } from 'node:worker_threads';\n${body}`)}`);

/** Runs `body` and answers the run's outcome with the thread it ran in (to see it was ended). */
async function run(body: string, options: { onMessage?: (m: unknown, w: Worker) => unknown; signal?: AbortSignal } = {}) {
  let thread: Worker | null = null;
  const outcome = await runOneShotThread<unknown, unknown>({
    url: threadOf(body),
    workerData: { n: 3 },
    name: 'test thread',
    signal: options.signal,
    onMessage: (message, worker) => {
      thread = worker;
      return options.onMessage ? options.onMessage(message, worker) : message;
    },
  }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error as Error }),
  );
  return { outcome, thread: thread as Worker | null };
}

const ended = (thread: Worker | null) => thread === null || thread.threadId === -1;

describe('runOneShotThread', () => {
  it('answers the result onMessage gives, after the messages before it, in order, and ends the thread', async () => {
    const seen: unknown[] = [];
    const { outcome, thread } = await run(`for (let i = 0; i < workerData.n; i++) parentPort.postMessage(i); parentPort.postMessage('done');`, {
      onMessage: async (m) => {
        await new Promise((r) => setTimeout(r, 5 * (3 - seen.length)));
        seen.push(m);
        return m === 'done' ? 'finished' : undefined;
      },
    });
    expect(outcome).toEqual({ result: 'finished' });
    expect(seen).toEqual([0, 1, 2, 'done']);
    await expect.poll(() => ended(thread)).toBe(true);
  });

  it('rejects with the error of onMessage, and ends the thread that would go on', async () => {
    const { outcome, thread } = await run(`setInterval(() => parentPort.postMessage('tick'), 5);`, {
      onMessage: () => {
        throw new Error('the database refused');
      },
    });
    expect(outcome).toEqual({ error: new Error('the database refused') });
    await expect.poll(() => ended(thread)).toBe(true);
  });

  it('names the thread when it crashes or exits without a result', async () => {
    expect((await run(`throw new Error('bad bytes');`)).outcome).toMatchObject({ error: { message: 'test thread crashed: bad bytes' } });
    expect((await run(`process.exit(3);`)).outcome).toMatchObject({ error: { message: 'test thread exited with code 3' } });
    expect((await run(``)).outcome).toMatchObject({ error: { message: 'test thread exited with code 0' } });
  });

  it('rejects with the reason of an abort and ends the thread', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    const { outcome } = await run(`setInterval(() => {}, 1000);`, { signal: controller.signal });
    expect(outcome).toEqual({ error: new Error('job cancelled') });
  });
});
