import type { Writable } from 'node:stream';
import { MessageChannel, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { deserializeError } from '../ledes/engine-protocol.ts';
import type { PackedBatch } from './packed-rows.ts';
import type { AnnuityInput, AnnuityThreadData, AnnuityThreadRequest, CheckCounts, FromAnnuityThread, PatentOverride, PatentRecord, ToAnnuityThread } from './protocol.ts';

import { createSharedThread } from '../shared-thread.ts';
import { nextTask } from '../next-task.ts';

const WORKER_URL = new URL('./annuity-engine-worker.mjs', import.meta.url);

export interface AnnuityEngineOptions {
  mode: 'check' | 'export';
  fileName: string;
  /** Reference date of the check, YYYY-MM-DD. */
  today: string;
  batchSize: number;
  /** A check: the rows per insert statement; its batches then come packed for the database (`PackedBatch`). */
  statementRows?: number;
  /** Where the export goes; the caller ends it after a `done`, discards it after a refusal. */
  out: Writable;
  /** The rows the workbook should hold, known before the first one (xlsx only): the progress total. */
  onExpected?(rows: number): void;
  /**
   * One batch of rows, called for one batch at a time in order. A rewrite waits for each (it returns the
   * stored edits of those rows); a check reads on while a few batches are being stored (backpressure past that).
   */
  onRows(rows: PatentRecord[] | PackedBatch): Promise<Array<PatentOverride | null> | undefined>;
  /**
   * A check on the embedded database's thread (decision 232): a port of that thread (transferred to the engine
   * thread) and the insert its statements run; the rows then go there, not to `onRows`, and `onStored` hears each
   * batch stored, in order.
   */
  store?: { database: MessagePort; sql: string; fileId: string; onStored(rows: number): void };
  /** Aborted: the run fails with the signal's reason and the engine thread stops it. */
  signal?: AbortSignal;
}

/**
 * The engine thread stops after this long without a run, so the heap a big workbook grew goes back
 * (as the LEDES threads, decision 177); the next run starts a fresh thread (about a second).
 */
export const ANNUITY_THREAD_IDLE_MS = 10_000;

/**
 * The engine thread's heap limits. Left to itself, V8 grows a thread's heap to a few hundred MB
 * while a 100,000-row workbook is read and its export written (short-lived objects, little of it
 * live); a cap makes it collect sooner. Live at the peak: the workbook's shared strings and a few
 * batches of rows, well under the cap.
 */
export const ANNUITY_THREAD_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

export interface AnnuityThreadOptions {
  resourceLimits?: ResourceLimits;
  /** See ANNUITY_THREAD_IDLE_MS. */
  idleMs?: number;
}

export type AnnuityEngineResult = { ok: true; counts: CheckCounts } | { ok: false; reason: string };

/** Runs one annuity check (or export rewrite) in a worker thread of its own, so the caller's event loop stays free. */
export type AnnuityEngine = (input: AnnuityInput, options: AnnuityEngineOptions) => Promise<AnnuityEngineResult>;

export interface AnnuityThreadEngine extends AnnuityEngine {
  /** Stops the thread; runs still in it fail. The next run starts a new one. */
  close(): Promise<void>;
}

/**
 * An AnnuityEngine whose checks run in one worker thread, started on first use and shared by the
 * runs of this process (a thread costs a second or more to start: tsx and the engine's modules). A thread
 * that crashes or exits fails the runs it had, like any infrastructure error; the next run starts a
 * fresh one.
 */
export function createAnnuityThreadEngine(options: AnnuityThreadOptions = {}): AnnuityThreadEngine {
  const { thread, active, close } = createSharedThread(WORKER_URL, 'annuities engine', {
    resourceLimits: options.resourceLimits ?? ANNUITY_THREAD_LIMITS,
    idleMs: options.idleMs ?? ANNUITY_THREAD_IDLE_MS,
  });

  const engine: AnnuityEngine = (input, options) =>
    new Promise((resolve, reject) => {
      const { port1: port, port2 } = new MessageChannel();
      let settled = false;
      const finish = (error: Error | null, result?: AnnuityEngineResult) => {
        if (settled) return;
        settled = true;
        active.delete(fail);
        options.signal?.removeEventListener('abort', onAbort);
        options.out.off('error', fail);
        options.out.off('drain', ackWaiting);
        port.close();
        if (error) reject(error);
        else resolve(result!);
      };
      const fail = (error: Error) => finish(error);
      const onAbort = () => fail(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('annuity run aborted'));
      active.add(fail);
      /** The batches' storage, one after another; a failure fails the run (and stops the chain). */
      let stored: Promise<void> = Promise.resolve();
      const send = (message: ToAnnuityThread) => {
        if (!settled) port.postMessage(message);
      };
      /** Export bytes written to a full output: acked once it drains. */
      let waitingBytes = 0;
      const ackWaiting = () => {
        const bytes = waitingBytes;
        waitingBytes = 0;
        send({ type: 'xlsx-ack', bytes });
      };
      port.on('message', (message: FromAnnuityThread) => {
        if (settled) return;
        switch (message.type) {
          case 'expected':
            options.onExpected?.(message.rows);
            break;
          case 'rows': {
            // A check sends several batches ahead: they are stored one after another, in order. Each
            // starts from a task of its own (setImmediate): chained as bare promise callbacks, the
            // batches sent ahead (and on the embedded portal PGlite's statements, which run on this
            // thread) followed each other inside one task, and HTTP, timers and socket.io waited for
            // all of them, seconds at a time (docs/benchmarks.md, "issue 26").
            const { rows } = message;
            stored = stored.then(nextTask).then(() => (settled ? undefined : options.onRows(rows).then((overrides) => send({ type: 'rows-ack', overrides }))));
            stored.catch(fail);
            break;
          }
          case 'stored':
            options.store?.onStored(message.rows);
            break;
          case 'xlsx': {
            // Bytes the output refused are acked together at its next 'drain', under one listener: a
            // listener per refused chunk passed Node's limit of 10 (MaxListenersExceededWarning) while
            // a slow destination let the thread's 4 MiB window fill up (issue 28).
            const size = message.chunk.length;
            if (options.out.write(message.chunk) && waitingBytes === 0) send({ type: 'xlsx-ack', bytes: size });
            else {
              waitingBytes += size;
              if (waitingBytes === size) options.out.once('drain', ackWaiting);
            }
            break;
          }
          case 'done':
            finish(null, { ok: true, counts: message.counts });
            break;
          case 'refused':
            finish(null, { ok: false, reason: message.reason });
            break;
          case 'failed':
            finish(deserializeError(message.error, 'annuities engine: '));
            break;
        }
      });
      options.out.once('error', fail);
      // Bytes are copied once and transferred; a path crosses as a string and the thread reads the file.
      const sent: AnnuityInput = input instanceof Uint8Array ? new Uint8Array(input) : { path: input.path };
      const data: AnnuityThreadData = {
        mode: options.mode,
        input: sent,
        fileName: options.fileName,
        today: options.today,
        batchSize: options.batchSize,
        ...(options.statementRows === undefined ? {} : { statementRows: options.statementRows }),
        ...(options.store ? { store: { sql: options.store.sql, fileId: options.store.fileId } } : {}),
      };
      const database = options.store?.database;
      const request: AnnuityThreadRequest = { port: port2, data, ...(database ? { database } : {}) };
      if (options.signal?.aborted) {
        database?.close();
        return onAbort();
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const transfer: Array<MessagePort | ArrayBuffer> = [port2];
        if (database) transfer.push(database);
        if (sent instanceof Uint8Array) transfer.push(sent.buffer as ArrayBuffer);
        thread().postMessage(request, transfer);
      } catch (error) {
        database?.close();
        fail(error as Error);
      }
    });

  return Object.assign(engine, {
    close,
  });
}

let shared: AnnuityThreadEngine | null = null;

/** The process's one annuities engine thread (the default engine of the annuities processor). */
export const runAnnuityEngine: AnnuityEngine = (input, options) => (shared ??= createAnnuityThreadEngine())(input, options);
