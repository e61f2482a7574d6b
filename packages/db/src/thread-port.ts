import type { MessagePort } from 'node:worker_threads';

/**
 * A statement client for another thread of the embedded API (decision 232): it speaks the database thread's protocol
 * (`pglite-worker.mjs`) on a port `PgliteThreadClient.openPort()` made, so a thread that produces rows by the
 * thousand (the annuity engine's) sends them straight to the database thread instead of through the main thread's
 * heap. Statements run in the background lane, outside any transaction, one after another in the order sent. No
 * database module is loaded here: the engine thread imports this file alone.
 */
export interface DatabasePortError extends Error {
  code?: string;
}

/** An error of the database thread as it crosses threads (`serializeError` in pglite-worker.mjs): its PostgreSQL fields kept. */
export interface SerializedDatabaseError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

/** The database thread's answer to one statement, on the main thread's channel or on a port. */
export type StatementReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedDatabaseError };

export class DatabasePort {
  readonly #port: MessagePort;
  readonly #pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  #next = 1;
  #closed: Error | null = null;

  constructor(port: MessagePort) {
    this.#port = port;
    port.on('message', (reply: StatementReply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.ok) pending.resolve();
      else {
        const error: DatabasePortError = new Error(reply.error.message);
        error.name = reply.error.name;
        if (typeof reply.error.fields.code === 'string') error.code = reply.error.fields.code;
        pending.reject(error);
      }
    });
    port.once('close', () => this.#fail(new Error('The database thread closed the port')));
  }

  /** Runs one statement (its rows are not returned); rejects with the database's error. */
  run(sql: string, params: readonly unknown[]): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#next++;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#port.postMessage({ id, op: 'query', sql, params, rowMode: 'array', lane: 'background' });
    });
  }

  /** Closes the port: statements already sent still run on the database thread; their answers are not awaited. */
  close(): void {
    this.#fail(new Error('The database port is closed'));
    this.#port.close();
  }

  #fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
