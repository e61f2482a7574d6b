/**
 * The worker-thread side of `createThreadEngine`: each message on the parent port is one run, with
 * its own message port. The input is pulled chunk by chunk, workbook bytes wait for the main
 * thread's ack, so both directions are flow-controlled; findings go back in batches.
 */
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import type { AcceptedInvoiceLookup, ResolvedFinding } from '@portal/ledes';
import { runEngineInThread } from './engine.ts';
import { deserializeError, serializeError, type FromThread, type ThreadRunRequest, type ToThread } from './engine-protocol.ts';

const FINDINGS_PER_MESSAGE = 1000;
/** Input chunks requested ahead, so the engine rarely waits for a round trip to the main thread. */
const INPUT_WINDOW = 4;
/** Workbook bytes gathered into one message to the main thread. */
const OUTPUT_MESSAGE = 256 * 1024;
/** Workbook bytes posted and not yet written on the main thread before the writer waits. */
const OUTPUT_WINDOW = 4 * 1024 * 1024;

async function serve(request: ThreadRunRequest): Promise<void> {
  const { port } = request;
  const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  // Input: up to INPUT_WINDOW chunks requested ahead, queued here until the engine takes them.
  const chunks: Uint8Array[] = [];
  let ended = false;
  let wakeSource: { resolve(): void; reject(e: Error): void } | null = null;
  // Output: up to OUTPUT_WINDOW bytes posted and not yet written by the main thread.
  let inFlight = 0;
  let blockedWrite: { resolve(): void; reject(e: Error): void } | null = null;
  const lookups = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let aborted: Error | null = null;

  // Waiters are cleared before they are settled: settling may start the next wait synchronously.
  const wake = (error?: Error) => {
    const waiter = wakeSource;
    wakeSource = null;
    if (error) waiter?.reject(error);
    else waiter?.resolve();
  };
  const unblock = (error?: Error) => {
    const waiter = blockedWrite;
    blockedWrite = null;
    if (error) waiter?.reject(error);
    else waiter?.resolve();
  };
  const abort = (error: Error) => {
    aborted ??= error;
    wake(aborted);
    unblock(aborted);
    for (const waiter of lookups.values()) waiter.reject(aborted);
    lookups.clear();
  };

  port.on('message', (message: ToThread) => {
    switch (message.type) {
      case 'chunk':
        chunks.push(message.chunk);
        wake();
        break;
      case 'end':
        ended = true;
        wake();
        break;
      case 'xlsx-ack':
        inFlight -= message.bytes;
        if (inFlight < OUTPUT_WINDOW) unblock();
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

  async function* source(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < INPUT_WINDOW; i++) post({ type: 'pull' });
    for (;;) {
      if (aborted) throw aborted;
      const chunk = chunks.shift();
      if (chunk) {
        post({ type: 'pull' });
        // A turn of the event loop per chunk, even when chunks are queued: the deflater (libuv's pool)
        // gets its next piece only from this thread's loop, and the acks and aborts arrive here too.
        await new Promise<void>((resolve) => setImmediate(resolve));
        yield chunk;
      } else if (ended) return;
      else await new Promise<void>((resolve, reject) => (wakeSource = { resolve, reject }));
    }
  }

  // Deflate output comes in 16-64 KiB pieces: they are gathered up to OUTPUT_MESSAGE bytes, so the
  // main thread handles (and writes to storage) a few hundred messages per file instead of thousands.
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  const postGathered = () => {
    if (gatheredBytes === 0) return;
    // One copy the port can transfer: the deflater's chunks may share their memory.
    const chunk = new Uint8Array(gatheredBytes);
    let at = 0;
    for (const piece of gathered) {
      chunk.set(piece, at);
      at += piece.length;
    }
    gathered = [];
    gatheredBytes = 0;
    inFlight += chunk.length;
    post({ type: 'xlsx', chunk }, [chunk.buffer]);
  };
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (aborted) {
        callback(aborted);
        return;
      }
      gathered.push(chunk);
      gatheredBytes += chunk.length;
      if (gatheredBytes >= OUTPUT_MESSAGE) postGathered();
      if (inFlight < OUTPUT_WINDOW) callback();
      else blockedWrite = { resolve: () => callback(), reject: callback };
    },
    final(callback) {
      if (aborted) callback(aborted);
      else {
        postGathered();
        callback();
      }
    },
  });

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
    const { summary } = await runEngineInThread(source(), {
      filename: request.filename,
      profile: request.profile,
      now: request.now,
      maxLineBytes: request.maxLineBytes,
      progressIntervalMs: request.progressIntervalMs,
      acceptedInvoices: acceptedInvoicesOf(request.acceptedInvoices, lookup),
      onProgress: (linesChecked) => post({ type: 'progress', linesChecked }),
      onFindings: (findings) => {
        for (const f of findings) batch.push(f);
        if (batch.length >= FINDINGS_PER_MESSAGE) sendFindings();
      },
      workbook: { out, lang: request.lang },
    });
    sendFindings();
    post({ type: 'done', summary });
  } catch (error) {
    post({ type: 'failed', error: serializeError(error) });
  } finally {
    port.close();
  }
}

parentPort!.on('message', (request: ThreadRunRequest) => {
  // serve() reports a run's failures on its port; anything escaping it is a broken thread: crash it,
  // so the main thread fails every run it had here (the 'error' event) instead of waiting forever.
  serve(request).catch((error: unknown) => {
    setImmediate(() => {
      throw error;
    });
  });
});

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
