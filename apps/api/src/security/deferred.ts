import type { Logger } from 'pino';

/**
 * Work that must not shape the answer. The forgot-password request answers before it looks the
 * e-mail up, so a known and an unknown address get the same answer after the same work (AUTH-18):
 * the lookup, link and mail happen here, after the answer. Tasks run one after another in the order
 * they were started, as the requests that started them arrived (two reset requests in a row keep
 * "the newest link wins"). Failures are logged; `settled()` lets shutdown and tests wait for what was
 * started. A task is lost if the process dies before it runs; the user asks again.
 */
export class DeferredWork {
  #tail: Promise<void> = Promise.resolve();

  constructor(private readonly logger: Logger) {}

  run(label: string, task: () => Promise<void>): void {
    this.#tail = this.#tail
      // A later turn of the event loop: the answer is written first.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task)
      .catch((error: unknown) => {
        this.logger.error({ err: error, task: label }, 'deferred work failed');
      });
  }

  /** Resolves once everything started so far, and anything it started, has finished. */
  async settled(): Promise<void> {
    for (let tail = this.#tail; ; tail = this.#tail) {
      await tail;
      if (tail === this.#tail) return;
    }
  }
}
