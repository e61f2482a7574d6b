/**
 * The engine thread of `createThreadEngine`: each message on the parent port is one run, with its
 * own message port to the main thread and one to the writer thread. The input is pulled chunk by
 * chunk and the lines go to the writer in batches it acks, so both directions are flow-controlled;
 * findings go back to the main thread in batches.
 */
import type { AcceptedInvoiceLookup, GuidelineHistoryAnswer, GuidelineOptions, ResolvedFinding } from '@portal/ledes';
import { NO_ROWS, runChecks, type RowSink } from './engine.ts';
import { deserializeError, GUIDELINE_LOOKUP, peerStopped, serializeError, type FromThread, type RowsAck, type RowsMessage, type ThreadRunRequest, type ToThread } from './engine-protocol.ts';
import { RowEncoder } from './rows.ts';
import { serveRuns } from '../shared-thread.ts';
import { Signal } from '../thread-io.ts';

const FINDINGS_PER_MESSAGE = 1000;
/** Input chunks requested ahead, so the engine rarely waits for a round trip to the main thread. */
const INPUT_WINDOW = 4;
/** Line batches (one per input chunk) sent to the writer and not yet written before the engine waits. */
const ROWS_WINDOW = 8;

async function serve(request: ThreadRunRequest): Promise<void> {
  const { port, rows } = request;
  const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  // Input: up to INPUT_WINDOW chunks requested ahead, queued here until the engine takes them.
  const chunks: Uint8Array[] = [];
  let ended = false;
  const inputArrived = new Signal();
  // Lines: up to ROWS_WINDOW batches posted and not yet written by the writer thread.
  let unacked = 0;
  let rowsEnded = false;
  const rowsAcked = new Signal();
  const lookups = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let aborted: Error | null = null;

  const abort = (error: Error) => {
    aborted ??= error;
    inputArrived.notify(aborted);
    rowsAcked.notify(aborted);
    for (const waiter of lookups.values()) waiter.reject(aborted);
    lookups.clear();
  };

  port.on('message', (message: ToThread) => {
    switch (message.type) {
      case 'chunk':
        chunks.push(message.chunk);
        inputArrived.notify();
        break;
      case 'end':
        ended = true;
        inputArrived.notify();
        break;
      case 'lookup-result': {
        const waiter = lookups.get(message.id);
        lookups.delete(message.id);
        if (message.error) waiter?.reject(deserializeError(message.error));
        else waiter?.resolve(message.value);
        break;
      }
      case 'abort':
        abort(deserializeError(message.error));
        break;
    }
  });
  // The main thread gave up on the run (its port closed): stop instead of waiting for input.
  port.on('close', () => abort(new Error('LEDES run cancelled by the main thread')));
  rows?.on('message', (_ack: RowsAck) => {
    unacked--;
    if (unacked < ROWS_WINDOW) rowsAcked.notify();
  });
  // The writer stopped before the end of the lines (its failure reaches the main thread on its own port).
  rows?.on('close', () => {
    if (!rowsEnded) abort(peerStopped('LEDES run cancelled: the treated workbook stopped'));
  });

  async function* source(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < INPUT_WINDOW; i++) post({ type: 'pull' });
    for (;;) {
      if (aborted) throw aborted;
      const chunk = chunks.shift();
      if (chunk) {
        post({ type: 'pull' });
        // A turn of the event loop per chunk, even when chunks are queued: the writer's acks and the
        // main thread's aborts arrive only on this thread's loop.
        await new Promise<void>((resolve) => setImmediate(resolve));
        yield chunk;
      } else if (ended) return;
      else await inputArrived.wait();
    }
  }

  const sendRows = (message: RowsMessage, transfer: ArrayBuffer[] = []) => rows!.postMessage(message, transfer);
  const encoder = new RowEncoder();
  const forwardRows = () => {
    const batch = encoder.take();
    if (!batch) return;
    unacked++;
    sendRows({ type: 'rows', batch }, [batch.meta.buffer as ArrayBuffer]);
  };
  const forwarder: RowSink = {
    onStart: (info) => sendRows({ type: 'start', info: { format: info.format, fieldNames: [...info.fieldNames] } }),
    onLine: (line, fields, findings, body) => encoder.add(line, fields, findings, body),
    async drained() {
      forwardRows();
      while (unacked >= ROWS_WINDOW && !aborted) await rowsAcked.wait();
      if (aborted) throw aborted;
    },
    onEnd(late, summary) {
      forwardRows();
      rowsEnded = true;
      sendRows({ type: 'end', late, summary });
    },
  };

  let batch: ResolvedFinding[] = [];
  const sendFindings = () => {
    if (batch.length === 0) return;
    post({ type: 'findings', findings: batch });
    batch = [];
  };

  let nextLookup = 0;
  const lookup = <T>(...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const id = nextLookup++;
      lookups.set(id, { resolve: (v) => resolve(v as T), reject });
      // Findings first: the main thread sees them in the engine's order.
      sendFindings();
      post({ type: 'lookup', id, args });
    });

  try {
    const { summary } = await runChecks(
      source(),
      {
        filename: request.filename,
        profile: request.profile,
        now: request.now,
        maxLineBytes: request.maxLineBytes,
        progressIntervalMs: request.progressIntervalMs,
        acceptedInvoices: acceptedInvoicesOf(request.acceptedInvoices, lookup),
        ...(request.guidelines ? { guidelines: guidelinesOf(request.guidelines, lookup) } : {}),
        onProgress: (linesChecked) => post({ type: 'progress', linesChecked }),
        onFindings: (findings) => {
          for (const f of findings) batch.push(f);
          if (batch.length >= FINDINGS_PER_MESSAGE) sendFindings();
        },
      },
      // No workbook (a run's check, decision 182): the lines stop here.
      rows ? forwarder : NO_ROWS,
    );
    sendFindings();
    post({ type: 'done', summary });
  } catch (error) {
    post({ type: 'failed', error: serializeError(error) });
  } finally {
    port.close();
    rows?.close();
  }
}

serveRuns(serve);

/** The engine's duplicate-invoice lookup inside the thread: plain data as sent, callbacks asked of the main thread. */
function acceptedInvoicesOf(
  sent: ThreadRunRequest['acceptedInvoices'],
  ask: <T>(...args: unknown[]) => Promise<T>,
): AcceptedInvoiceLookup | undefined {
  if (sent === 'none') return undefined;
  if (sent === 'callback') return (invoiceNumber: string, clientId: string) => ask<boolean>(invoiceNumber, clientId);
  if (sent instanceof Set) return sent;
  const { batch } = sent as { batch: number | undefined };
  return { batchSize: batch, acceptedAmong: (invoiceNumbers: readonly string[]) => ask<string[]>([...invoiceNumbers]) };
}

/** The guidelines inside the thread: the versions as sent, the firm's history asked of the main thread. */
function guidelinesOf(sent: NonNullable<ThreadRunRequest['guidelines']>, ask: <T>(...args: unknown[]) => Promise<T>): GuidelineOptions {
  const { versions, history } = sent;
  if (history === false) return { versions, history: false };
  if (history === 'none') return { versions };
  return {
    versions,
    history: {
      batchSize: history.batch,
      lookup: (unitKeys, lineKeys) => ask<GuidelineHistoryAnswer>(GUIDELINE_LOOKUP, [...unitKeys], [...lineKeys]),
    },
  };
}
