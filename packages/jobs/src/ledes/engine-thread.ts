import { MessageChannel, type ResourceLimits } from 'node:worker_threads';
import type { LedesSummary } from '@portal/ledes';
import type { EngineOptions, LedesEngine } from './engine.ts';
import { deserializeError, GUIDELINE_LOOKUP, PEER_STOPPED, serializeError, type FromThread, type FromWriter, type ThreadRunRequest, type ToThread, type ToWriter, type WriterRunRequest } from './engine-protocol.ts';

import { createSharedThread } from '../shared-thread.ts';

const ENGINE_URL = new URL('./ledes-engine-worker.mjs', import.meta.url);
const WRITER_URL = new URL('./writer-worker.mjs', import.meta.url);
/** Input bytes gathered into one message to the engine thread. */
const INPUT_CHUNK_BYTES = 256 * 1024;
/** Idle time after which the threads stop, giving their memory back (the next run starts them again: 0.8 s measured at load 11). */
const THREAD_IDLE_MS = 10_000;

export interface ThreadEngine extends LedesEngine {
  /** Starts the engine's thread ahead of a run expected soon (the upload of a file being received, decision 211). */
  warm(): void;
  /** Stops the thread; runs still in it fail. The next run starts a new one. */
  close(): Promise<void>;
}

/**
 * A LedesEngine that runs the engine in one worker thread and the treated workbook in another, both
 * started on first use and shared by the runs of this process, so the event loop (HTTP, the database
 * on PGlite) stays free during a check and the workbook's XML is built on another core than the
 * check. The engine sends its lines straight to the writer. The input is read, and findings, lookups
 * and workbook bytes are handled, on the calling thread. A thread that crashes or exits fails the
 * runs it had, with the reason, like any infrastructure error; the next run starts a fresh thread.
 * Threads no run has used for `idleMs` (10 s) stop, so the memory a big file grew goes back.
 */
export function createThreadEngine(options: { resourceLimits?: { engine?: ResourceLimits; writer?: ResourceLimits }; idleMs?: number } = {}): ThreadEngine {
  const idleMs = options.idleMs ?? THREAD_IDLE_MS;
  const engineThread = createSharedThread(ENGINE_URL, 'LEDES engine', { resourceLimits: options.resourceLimits?.engine, idleMs });
  const writerThread = createSharedThread(WRITER_URL, 'LEDES writer', { resourceLimits: options.resourceLimits?.writer, idleMs });

  const engine = (source: AsyncIterable<Uint8Array>, opts: EngineOptions): Promise<{ summary: LedesSummary }> =>
    new Promise((resolve, reject) => {
      const { port1: port, port2 } = new MessageChannel();
      const { port1: writerPort, port2: writerPort2 } = new MessageChannel();
      const rows = new MessageChannel();
      const input = source[Symbol.asyncIterator]();
      let pulling = Promise.resolve();
      /**
       * The input's next INPUT_CHUNK_BYTES or so (null at its end), as one copy the port can transfer
       * (the reader's pieces may be views on a shared pool). Storage streams give 16–64 KiB pieces:
       * gathered, a 27 MiB file is ~100 messages each way and ~100 line batches to the writer, not ~450.
       */
      const readChunk = async (): Promise<Uint8Array<ArrayBuffer> | null> => {
        const pieces: Uint8Array[] = [];
        let size = 0;
        while (size < INPUT_CHUNK_BYTES) {
          const next = await input.next();
          if (next.done) break;
          pieces.push(next.value);
          size += next.value.length;
        }
        if (pieces.length === 0) return null;
        const chunk = new Uint8Array(size);
        let at = 0;
        for (const piece of pieces) {
          chunk.set(piece, at);
          at += piece.length;
        }
        return chunk;
      };
      // No workbook (a run's check, decision 182): the writer thread takes no part.
      const workbook = opts.workbook;
      const out = workbook?.out;
      let settled = false;
      // The run ends once the engine has its summary and the writer has handed over the whole workbook.
      let engineSummary: LedesSummary | null = null;
      let written = !workbook;
      const send = (message: ToThread, transfer: ArrayBuffer[] = []) => {
        if (!settled) port.postMessage(message, transfer);
      };
      const sendWriter = (message: ToWriter) => {
        if (!settled) writerPort.postMessage(message);
      };
      const finish = (error: Error | null, summary?: LedesSummary) => {
        if (settled) return;
        if (error) {
          send({ type: 'abort', error: serializeError(error) });
          sendWriter({ type: 'abort', error: serializeError(error) });
        }
        settled = true;
        engineThread.active.delete(fail);
        writerThread.active.delete(fail);
        out?.off('error', fail);
        out?.off('drain', onDrain);
        port.close();
        writerPort.close();
        if (error) {
          // The input is not read to its end: release it (a file handle, a storage stream).
          input.return?.().catch(() => {});
          reject(error);
        } else resolve({ summary: summary! });
      };
      const fail = (error: Error) => finish(error);
      // A full destination: the writer's messages are acked together on its one 'drain' (one listener
      // at a time, however many messages of the writer's window arrive meanwhile).
      let awaitingDrain = false;
      let heldAck = 0;
      const onDrain = () => {
        awaitingDrain = false;
        const bytes = heldAck;
        heldAck = 0;
        sendWriter({ type: 'xlsx-ack', bytes });
      };
      engineThread.active.add(fail);
      if (out) writerThread.active.add(fail);
      const completeIfDone = () => {
        const summary = engineSummary;
        if (!summary || !written) return;
        // The writer finished the zip; ending the output is this side's job, as for the in-thread path.
        if (out) out.end(() => finish(null, summary));
        else finish(null, summary);
      };

      port.on('message', (message: FromThread) => {
        if (settled) return;
        switch (message.type) {
          case 'pull':
            // One pull at a time: each takes consecutive pieces of the input.
            pulling = pulling.then(async () => {
              const chunk = await readChunk();
              if (chunk) send({ type: 'chunk', chunk }, [chunk.buffer]);
              else send({ type: 'end' });
            }).catch(fail);
            break;
          case 'findings':
            try {
              opts.onFindings(message.findings);
            } catch (error) {
              fail(error as Error);
            }
            break;
          case 'progress':
            opts.onProgress?.(message.linesChecked);
            break;
          case 'lookup': {
            const lookup = opts.acceptedInvoices;
            Promise.resolve()
              .then(async () => {
                const history = opts.guidelines?.history;
                if (message.args[0] === GUIDELINE_LOOKUP) {
                  if (!history) throw new Error('guideline lookup asked for a run that gave none');
                  const answer = await history.lookup(message.args[1] as string[], message.args[2] as string[]);
                  return { units: [...answer.units], lines: [...answer.lines] };
                }
                if (typeof lookup === 'function') return lookup(...(message.args as [string, string]));
                if (lookup && 'acceptedAmong' in lookup) return [...(await lookup.acceptedAmong(message.args[0] as string[]))];
                throw new Error('lookup asked for a run that gave none');
              })
              .then(
                (value) => send({ type: 'lookup-result', id: message.id, value }),
                (error: unknown) => send({ type: 'lookup-result', id: message.id, error: serializeError(error) }),
              );
            break;
          }
          case 'done':
            engineSummary = message.summary;
            completeIfDone();
            break;
          case 'failed':
            // The writer stopped first: its own report (error or crash) is the run's reason.
            if (message.error.name !== PEER_STOPPED) finish(deserializeError(message.error));
            break;
        }
      });
      writerPort.on('message', (message: FromWriter) => {
        if (settled) return;
        switch (message.type) {
          case 'xlsx': {
            const bytes = message.chunk.length;
            const room = out!.write(message.chunk);
            if (awaitingDrain) heldAck += bytes;
            else if (room) sendWriter({ type: 'xlsx-ack', bytes });
            else {
              heldAck = bytes;
              awaitingDrain = true;
              out!.once('drain', onDrain);
            }
            break;
          }
          case 'done':
            written = true;
            completeIfDone();
            break;
          case 'failed':
            // The engine stopped first: its own report (error or crash) is the run's reason.
            if (message.error.name !== PEER_STOPPED) finish(deserializeError(message.error));
            break;
        }
      });
      out?.once('error', fail);

      const lookup = opts.acceptedInvoices;
      const request: ThreadRunRequest = {
        port: port2,
        ...(workbook ? { rows: rows.port1 } : {}),
        filename: opts.filename,
        profile: opts.profile,
        now: opts.now,
        maxLineBytes: opts.maxLineBytes,
        progressIntervalMs: opts.progressIntervalMs,
        acceptedInvoices:
          lookup === undefined ? 'none' : typeof lookup === 'function' ? 'callback' : 'acceptedAmong' in lookup ? { batch: lookup.batchSize } : lookup,
        ...(opts.guidelines
          ? {
              guidelines: {
                versions: opts.guidelines.versions,
                history: opts.guidelines.history === false ? false : opts.guidelines.history ? { batch: opts.guidelines.history.batchSize } : 'none',
              },
            }
          : {}),
      };
      try {
        if (workbook) {
          const writerRequest: WriterRunRequest = { port: writerPort2, rows: rows.port2, lang: workbook.lang, ...(workbook.amend ? { amend: workbook.amend } : {}) };
          writerThread.thread().postMessage(writerRequest, [writerPort2, rows.port2]);
          engineThread.thread().postMessage(request, [port2, rows.port1]);
        } else {
          rows.port1.close();
          writerPort2.close();
          engineThread.thread().postMessage(request, [port2]);
        }
      } catch (error) {
        fail(error as Error);
      }
    });

  return Object.assign(engine, {
    warm: () => engineThread.warm(),
    close: async () => {
      await Promise.all([engineThread.close(), writerThread.close()]);
    },
  });
}

let shared: ThreadEngine | null = null;

/** One engine thread per process, for the processors hosted in the API process (embedded mode). */
export function sharedThreadEngine(): ThreadEngine {
  return (shared ??= createThreadEngine());
}
