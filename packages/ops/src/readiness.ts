/** A check slower than this counts as down: a readiness probe must answer even when a dependency hangs. */
export const CHECK_TIMEOUT_MS = 3000;

export type Readiness = Record<string, () => Promise<void>>;

function withinTimeout(check: () => Promise<void>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  const result = Promise.resolve()
    .then(check)
    .then(
      () => 'ok' as const,
      () => 'down' as const,
    );
  return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every check at once, each bounded by CHECK_TIMEOUT_MS: `ok` only when all answer. */
export async function checkReadiness(readiness: Readiness): Promise<{ ok: boolean; checks: Record<string, 'ok' | 'down'> }> {
  const names = Object.keys(readiness);
  const results = await Promise.all(names.map((name) => withinTimeout(readiness[name]!)));
  return { ok: results.every((r) => r === 'ok'), checks: Object.fromEntries(names.map((name, i) => [name, results[i]!])) };
}

/** A probe that acts on a dependency (a write, an SMTP greeting) answers within this, or counts as down. */
export const PROBE_TIMEOUT_MS = 2000;
/** How long a probe's answer is reused: readiness polled by a load balancer, compose and tests costs one probe per this. */
export const PROBE_CACHE_MS = 5000;

export interface CachedProbeOptions {
  timeoutMs?: number;
  cacheMs?: number;
  now?: () => number;
}

/**
 * A readiness check that costs something (a write to storage, an SMTP connection) made cheap to
 * poll: its answer is kept `cacheMs`, concurrent callers share the one probe under way, a probe is
 * bounded by `timeoutMs`, and a probe that has not answered at all yet is not started again (down
 * meanwhile) so a hung dependency does not pile up connections.
 */
export function cachedProbe(probe: () => Promise<void>, options: CachedProbeOptions = {}): () => Promise<void> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? PROBE_CACHE_MS;
  const now = options.now ?? Date.now;
  let last: { at: number; ok: true } | { at: number; ok: false; error: Error } | undefined;
  let inFlight: Promise<void> | undefined;
  let hung: Promise<void> | undefined;
  const answer = (): Promise<void> => (last!.ok ? Promise.resolve() : Promise.reject(last!.error));

  return () => {
    if (last && now() - last.at < cacheMs) return answer();
    if (inFlight) return inFlight;
    if (hung) {
      last = { at: now(), ok: false, error: new Error('the previous probe has still not answered') };
      return answer();
    }
    const running = Promise.resolve().then(probe);
    let timer: NodeJS.Timeout | undefined;
    const bounded = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        // Cleared once the probe answers at last (the callback runs after this assignment).
        hung = running.then(
          () => void (hung = undefined),
          () => void (hung = undefined),
        );
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      running.then(resolve, reject);
    }).finally(() => clearTimeout(timer));
    const answered = bounded
      .then(
        () => void (last = { at: now(), ok: true }),
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          last = { at: now(), ok: false, error: failure };
          throw failure;
        },
      )
      .finally(() => (inFlight = undefined));
    inFlight = answered;
    return answered;
  };
}

/** The object a storage probe writes and deletes again (the same key for every process). */
export const STORAGE_PROBE_KEY = 'health/readiness-probe';

/** Storage is ready when it takes a write: a small object written then deleted (reads alone miss a read-only store). */
export function storageWriteProbe(storage: { put(key: string, body: Buffer, opts?: { contentType?: string }): Promise<unknown>; delete(key: string): Promise<void> }): () => Promise<void> {
  return async () => {
    await storage.put(STORAGE_PROBE_KEY, Buffer.from('ok\n'), { contentType: 'text/plain' });
    await storage.delete(STORAGE_PROBE_KEY);
  };
}
