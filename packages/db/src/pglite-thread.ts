import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { protocol } from '@electric-sql/pglite';
import { currentLane, type DatabaseLane } from './lanes.ts';
import type { SerializedDatabaseError, StatementReply } from './thread-port.ts';

/**
 * The embedded database on a thread of its own (decision 180). PGlite is WebAssembly and runs each statement
 * synchronously on the thread that owns it: on the API's main thread, a 150 ms insert batch or VACUUM answered
 * nothing else for 150 ms. `PgliteThreadClient` starts PGlite in a `node:worker_threads` thread of the same
 * process (`pglite-worker.mjs`) and is the client Drizzle's pglite driver is given: the methods it calls
 * (`query`, `exec`, `transaction`, `waitReady`, `close`) are forwarded as messages.
 *
 * - Parsers are functions and cannot cross: Drizzle's keep the text of dates, timestamps, intervals and some
 *   arrays (identity parsers by type OID); the thread rebuilds those by OID. Any other parser is refused.
 * - `transaction(cb)` opens PGlite's own transaction on the thread under an id; `cb`'s statements carry it, and
 *   the thread commits when `cb` resolves and rolls back when it throws. Other statements wait for its end.
 * - Statements outside a transaction, and `begin`, carry the caller's lane (`lanes.ts`, decision 185): on the
 *   thread, a request's go ahead of the background's not yet begun.
 * - Errors keep their PostgreSQL fields (`code`, `detail`, `constraint`, …), message and the thread's stack.
 * - A thread that stops unasked fails every pending and later statement and calls `onCrash` once.
 */
export interface PgliteThreadOptions {
  /** A directory, or 'memory://'. */
  dataDir: string;
  startParams: string[];
  /** In-memory only: an uncompressed `dumpDataDir` tar to start from. */
  template?: string;
  /** The thread stopped without `close()`: statements under way have failed with `error`. */
  onCrash?: (error: Error) => void;
  /** The thread's JavaScript heap limits (PGLITE_THREAD_LIMITS by default); PGlite's own memory is WebAssembly's, outside them. */
  resourceLimits?: ResourceLimits;
}

/** PGlite's result of one statement (the fields Drizzle and the code base read). */
export interface ThreadResults<T = unknown> {
  rows: T[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
  serializers?: Record<number, unknown>;
}

type Request =
  | { op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; rawTypes?: number[]; tx?: number; lane?: DatabaseLane }
  | { op: 'exec'; sql: string; tx?: number; lane?: DatabaseLane }
  | { op: 'begin'; lane: DatabaseLane }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' };

type Reply = { ready: true } | { ready: false; error: SerializedDatabaseError } | StatementReply;

/**
 * PGLITE_THREAD_TRACE=<file> (a measuring aid of the benches, decision 185): the thread appends a JSON line per
 * statement and transaction to it (lane, SQL head, epoch ms sent / received / started / ended); this side appends,
 * to `<file>.main`, each statement's reply time and, every second, its event loop's delay.
 */
const TRACE = process.env.PGLITE_THREAD_TRACE;

const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

/** The OIDs whose parser gives the text back unchanged; Drizzle passes only such parsers. Checked once per options object. */
const rawTypesOf = new WeakMap<object, number[]>();
function rawTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  let oids = rawTypesOf.get(parsers);
  if (!oids) {
    oids = Object.keys(parsers).map(Number);
    for (const oid of oids) {
      const probe = `probe ${oid}`;
      if (parsers[oid]!(probe, oid) !== probe) throw new Error(`The database thread keeps values as text or parses them itself: a parser for type ${oid} cannot cross threads`);
    }
    rawTypesOf.set(parsers, oids);
  }
  return oids;
}

/** The thread's error as an Error of this thread: PGlite's DatabaseError when it was one, with its fields. */
function deserializeError(e: SerializedDatabaseError): Error {
  const DatabaseError = protocol.messages.DatabaseError;
  const error: Error =
    typeof e.fields.code === 'string' && typeof e.fields.length === 'number'
      ? new DatabaseError(e.message, e.fields.length, e.name as ConstructorParameters<typeof DatabaseError>[2])
      : new Error(e.message);
  for (const [key, value] of Object.entries(e.fields)) {
    if (key !== 'length' && key !== 'name') (error as unknown as Record<string, unknown>)[key] = value;
  }
  if (!(error instanceof DatabaseError)) error.name = e.name;
  // The thread's stack: where in PGlite it failed (the caller's is Drizzle's error, which wraps this one).
  if (e.stack) error.stack = e.stack;
  return error;
}

let mainTrace: string[] = [];
if (TRACE) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const flush = () => {
    mainTrace.push(JSON.stringify({ op: 'eventloop', at: performance.timeOrigin + performance.now(), p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 }));
    delay.reset();
    appendFileSync(`${TRACE}.main`, mainTrace.join('\n') + '\n');
    mainTrace = [];
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}

/**
 * The database thread's JavaScript heap limits when the caller gives none. Its JavaScript is short-lived
 * messages (statements in, rows out) around PGlite's WebAssembly memory, yet V8 sizes a thread's young
 * generation like the main thread's: 34 MB committed at a 100,000-row workbook's peak with 1–5 MB in use.
 * At 8 MB the thread's heap peaks at 35 MB instead of 56, at the same CPU (`scale-annuities`, docs/benchmarks.md).
 */
const PGLITE_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

export class PgliteThreadClient {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #onCrash?: (error: Error) => void;
  #next = 1;
  #closing = false;
  #failure: Error | null = null;
  #closed: Promise<void> | null = null;
  #ready: { resolve(): void; reject(error: Error): void } | null = null;

  constructor(options: PgliteThreadOptions) {
    this.#onCrash = options.onCrash;
    this.#worker = new Worker(WORKER_URL, {
      workerData: { dataDir: options.dataDir, startParams: options.startParams, template: options.template },
      // The thread needs no TypeScript loader: it runs a plain module that loads PGlite only.
      execArgv: [],
      resourceLimits: options.resourceLimits ?? PGLITE_THREAD_LIMITS,
    });
    this.#worker.unref();
    let ready!: { resolve(): void; reject(error: Error): void };
    this.waitReady = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
    // Nobody may await it before the first statement: its failure is also every statement's.
    this.waitReady.catch(() => {});
    this.#worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        if (reply.ready) ready.resolve();
        else ready.reject(deserializeError(reply.error));
        return;
      }
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (TRACE) mainTrace.push(JSON.stringify({ id: reply.id, replied: performance.timeOrigin + performance.now() }));
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(deserializeError(reply.error));
    });
    this.#worker.on('error', (error) => this.#stopped(error));
    this.#worker.on('exit', (code) => this.#stopped(new Error(`exit code ${code}`)));
    this.#worker.on('messageerror', (error) => this.#stopped(error));
    this.#ready = ready;
  }

  /** The thread is gone: every pending statement fails; unless it was closed, `onCrash` hears it once. */
  #stopped(reason: Error): void {
    if (this.#failure) return;
    const crash = !this.#closing;
    this.#failure = crash ? new Error(`The embedded database thread stopped: ${reason.message}`, { cause: reason }) : new Error('PGlite is closed');
    this.#ready?.reject(this.#failure);
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
    if (crash) this.#onCrash?.(this.#failure);
  }

  #send<T>(request: Request): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing && request.op !== 'close') return Promise.reject(new Error('PGlite is closed'));
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      try {
        this.#worker.postMessage(TRACE ? { id, sent: performance.timeOrigin + performance.now(), ...request } : { id, ...request });
      } catch (error) {
        // A value that cannot be cloned (a function among the parameters).
        this.#pending.delete(id);
        if (this.#pending.size === 0) this.#worker.unref();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<ThreadResults<T>> {
    return this.#query(sql, params, options, undefined);
  }

  #query<T>(sql: string, params: unknown[], options: QueryOptions, tx: number | undefined): Promise<ThreadResults<T>> {
    if (options.serializers) return Promise.reject(new Error('The database thread takes no serializers'));
    let oids: number[] | undefined;
    try {
      oids = rawTypes(options.parsers);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Inside a transaction the statement runs at once (the transaction holds the connection); outside, it waits in its lane.
    return this.#send({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', rawTypes: oids, ...(tx === undefined ? { lane: currentLane() } : { tx }) });
  }

  exec(sql: string): Promise<ThreadResults[]> {
    return this.#send({ op: 'exec', sql, lane: currentLane() });
  }

  /**
   * Runs `callback` in a transaction of the thread's PGlite: committed when it resolves, rolled back when it
   * throws. `callback`'s client runs its statements inside the transaction; other statements wait for its end.
   */
  async transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.#send<number>({ op: 'begin', lane: currentLane() });
    const tx: PgliteThreadTransaction = {
      query: (sql, params = [], options = {}) => (tx.closed ? Promise.reject(new Error('Transaction is closed')) : this.#query(sql, params, options, id)),
      exec: (sql) => (tx.closed ? Promise.reject(new Error('Transaction is closed')) : this.#send({ op: 'exec', sql, tx: id })),
      rollback: async () => {
        throw new Error('rollback() is not supported on the database thread: throw from the transaction callback');
      },
      closed: false,
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      tx.closed = true;
      await this.#send({ op: 'end', tx: id, commit: false });
      throw error;
    }
    tx.closed = true;
    await this.#send({ op: 'end', tx: id, commit: true });
    return result;
  }

  /**
   * A port of the database thread for another thread of this process (decision 232, `DatabasePort` in
   * `thread-port.ts`): the statements sent on it wait in the background lane as this client's do, run outside any
   * transaction and are answered on it. The caller transfers it to its thread; closing it detaches it.
   */
  openPort(): MessagePort {
    if (this.#failure) throw this.#failure;
    if (this.#closing) throw new Error('PGlite is closed');
    const { port1, port2 } = new MessageChannel();
    this.#worker.postMessage({ op: 'port', port: port2 }, [port2]);
    return port1;
  }

  /** Closes PGlite on the thread (its data written), then stops the thread. Later statements fail ("PGlite is closed"). */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      if (this.#failure) return;
      this.#closing = true;
      try {
        await this.#send({ op: 'close' });
      } finally {
        await this.#worker.terminate();
      }
    })();
    return this.#closed;
  }
}

export interface PgliteThreadTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults<T>>;
  exec(sql: string): Promise<ThreadResults[]>;
  rollback(): Promise<void>;
  closed: boolean;
}
