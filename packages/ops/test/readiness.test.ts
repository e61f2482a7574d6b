import { describe, expect, it } from 'vitest';
import { cachedProbe, STORAGE_PROBE_KEY, storageWriteProbe } from '../src/readiness.ts';

/** A probe whose answers the test decides, counting its calls. */
function controlled() {
  const calls: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const probe = () => new Promise<void>((resolve, reject) => void calls.push({ resolve, reject }));
  return { probe, calls };
}

const settled = (p: Promise<void>) => p.then(() => 'ok' as const, (error: Error) => `down: ${error.message}`);

describe('cachedProbe (issue 26: readiness probes a write without a write per call)', () => {
  it('concurrent callers share the one probe under way', async () => {
    const { probe, calls } = controlled();
    const check = cachedProbe(probe, { timeoutMs: 1000, cacheMs: 5000 });
    const answers = [check(), check(), check()];
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    expect(await Promise.all(answers.map(settled))).toEqual(['ok', 'ok', 'ok']);
  });

  it('reuses an answer for cacheMs, then probes again; a failure is cached as a failure', async () => {
    let clock = 0;
    const { probe, calls } = controlled();
    const check = cachedProbe(probe, { timeoutMs: 1000, cacheMs: 5000, now: () => clock });
    const first = check();
    await Promise.resolve();
    calls[0]!.reject(new Error('read-only'));
    expect(await settled(first)).toBe('down: read-only');
    clock = 4999;
    expect(await settled(check())).toBe('down: read-only');
    expect(calls).toHaveLength(1);
    clock = 5000;
    const again = check();
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    expect(await settled(again)).toBe('ok');
    clock = 9000;
    expect(await settled(check())).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('a probe that does not answer is down after timeoutMs, and is not started again while it hangs', async () => {
    let clock = 0;
    const { probe, calls } = controlled();
    const check = cachedProbe(probe, { timeoutMs: 50, cacheMs: 100, now: () => clock });
    const started = Date.now();
    expect(await settled(check())).toBe('down: no answer within 50 ms');
    expect(Date.now() - started).toBeLessThan(1000);
    clock = 200;
    expect(await settled(check())).toBe('down: the previous probe has still not answered');
    expect(calls).toHaveLength(1);
    // It answers at last: the next probe after the cached failure starts a fresh one.
    calls[0]!.resolve();
    await new Promise((r) => setTimeout(r, 0));
    clock = 400;
    const fresh = check();
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    expect(await settled(fresh)).toBe('ok');
  });

  it('storageWriteProbe writes a small object and deletes it; a refused write is a failure', async () => {
    const objects = new Map<string, Buffer>();
    const log: string[] = [];
    let readOnly = false;
    const storage = {
      put: async (key: string, body: Buffer) => {
        log.push(`put ${key}`);
        if (readOnly) throw new Error('Read-only file system');
        objects.set(key, body);
      },
      delete: async (key: string) => {
        log.push(`delete ${key}`);
        objects.delete(key);
      },
    };
    const probe = storageWriteProbe(storage);
    await probe();
    expect(log).toEqual([`put ${STORAGE_PROBE_KEY}`, `delete ${STORAGE_PROBE_KEY}`]);
    expect(objects.size).toBe(0);
    readOnly = true;
    await expect(probe()).rejects.toThrow('Read-only');
  });
});
