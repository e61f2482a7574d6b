import { ShutdownTimeoutError } from './errors.ts';

/**
 * Runs `closers` one after another (e.g. stop HTTP accept → close workers → queues → Redis → DB),
 * continuing past a failing closer. Rejects with ShutdownTimeoutError once `timeoutMs` has passed
 * (the caller then forces: `worker.close(true)` / `process.exit(1)`), or with an AggregateError
 * listing the closers that failed.
 */
export async function closeGracefully(closers: Array<() => Promise<void>>, timeoutMs: number): Promise<void> {
  let current = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ShutdownTimeoutError(timeoutMs, current)), timeoutMs);
    timer.unref();
  });
  const errors: unknown[] = [];
  const sequence = (async () => {
    for (; current < closers.length; current += 1) {
      try {
        await closers[current]!();
      } catch (error) {
        errors.push(error);
      }
    }
  })();
  try {
    await Promise.race([sequence, deadline]);
  } finally {
    clearTimeout(timer);
  }
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} closer(s) failed during shutdown`);
}
