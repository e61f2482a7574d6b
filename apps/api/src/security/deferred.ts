import type { Logger } from 'pino';

/**
 * Work that must not shape the answer. The forgot-password request answers before it looks the
 * e-mail up, so a known and an unknown address get the same answer after the same work (AUTH-18):
 * the lookup, link and mail happen here, on a later turn of the event loop. Failures are logged;
 * `settled()` lets shutdown and tests wait for what was started. Lost if the process dies in
 * between, as a request the client would have to repeat.
 */
export class DeferredWork {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(label: string, task: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => {
        this.logger.error({ err: error, task: label }, 'deferred work failed');
      })
      .finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  /** Resolves once everything started so far, and anything it started, has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
