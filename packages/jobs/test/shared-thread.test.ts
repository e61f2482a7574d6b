import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createSharedThread } from '../src/shared-thread.ts';

const URL_OF_A_THREAD = new URL('../src/ledes/ledes-engine-worker.mjs', import.meta.url);

describe('a shared thread with idleMs (issue 28)', () => {
  it('stops once no run has used it for idleMs, so its memory goes back; the next run gets a new thread', async () => {
    const shared = createSharedThread(URL_OF_A_THREAD, 'test', { idleMs: 200 });
    try {
      const first = shared.thread();
      const run = () => {};
      shared.active.add(run);
      shared.active.delete(run);
      const [code] = (await once(first, 'exit')) as [number];
      expect(code).toBe(1); // terminated
      const second = shared.thread();
      expect(second).not.toBe(first);
    } finally {
      await shared.close();
    }
  });

  it('is not stopped while a run uses it, nor when a run starts within idleMs of the last one', async () => {
    const shared = createSharedThread(URL_OF_A_THREAD, 'test', { idleMs: 200 });
    try {
      const thread = shared.thread();
      let exited = false;
      thread.once('exit', () => (exited = true));
      const a = () => {};
      const b = () => {};
      shared.active.add(a);
      await new Promise((r) => setTimeout(r, 400));
      shared.active.delete(a);
      await new Promise((r) => setTimeout(r, 100));
      shared.active.add(b); // within idleMs: the stop is called off
      await new Promise((r) => setTimeout(r, 400));
      expect(exited).toBe(false);
      expect(shared.thread()).toBe(thread);
      shared.active.delete(b);
    } finally {
      await shared.close();
    }
  });

  it('warm() starts the thread ahead of a run: the run gets that thread; with no run it stops after idleMs (decision 211)', async () => {
    const shared = createSharedThread(URL_OF_A_THREAD, 'test', { idleMs: 200 });
    try {
      shared.warm();
      const warmed = shared.thread();
      const run = () => {};
      shared.active.add(run);
      await new Promise((r) => setTimeout(r, 400));
      // A run under way: warming again neither replaces the thread nor arms its stop.
      shared.warm();
      await new Promise((r) => setTimeout(r, 400));
      expect(shared.thread()).toBe(warmed);
      shared.active.delete(run);
      await once(warmed, 'exit');
      // Warmed and never used: stopped after idleMs like an idle thread.
      shared.warm();
      const unused = shared.thread();
      expect(unused).not.toBe(warmed);
      // Stopped (a thread terminated while still loading may exit with 0 or 1).
      await once(unused, 'exit');
      expect(shared.thread()).not.toBe(unused);
    } finally {
      await shared.close();
    }
  });
});
