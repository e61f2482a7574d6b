/**
 * The writer thread of `createThreadEngine`: each message on the parent port is one run's treated
 * workbook, with a port to the main thread (the workbook's bytes, acked as they are written, so a
 * slow destination holds the writer back) and one from the engine thread (the lines, in batches this
 * thread acks once written, so the writer holds the engine back). The rows' XML, which costs more
 * CPU than the check itself, is built here while the engine checks the next lines on another core.
 */
import { Writable } from 'node:stream';
import { createTreatedWorkbook } from '@portal/ledes/report';
import { deserializeError, peerStopped, serializeError, type FromWriter, type RowsAck, type RowsMessage, type ToWriter, type WriterRunRequest } from './engine-protocol.ts';
import { forEachRow } from './rows.ts';
import { serveRuns } from '../shared-thread.ts';

/** Workbook bytes gathered into one message to the main thread. */
const OUTPUT_MESSAGE = 256 * 1024;
/** Workbook bytes posted and not yet written on the main thread before the writer waits. */
const OUTPUT_WINDOW = 4 * 1024 * 1024;

interface Waiter {
  resolve(): void;
  reject(e: Error): void;
}

async function serve(request: WriterRunRequest): Promise<void> {
  const { port, rows } = request;
  const post = (message: FromWriter, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const received: RowsMessage[] = [];
  let endReceived = false;
  let wakeReader: Waiter | null = null;
  let inFlight = 0;
  let blockedWrite: Waiter | null = null;
  let aborted: Error | null = null;

  // Waiters are cleared before they are settled: settling may start the next wait synchronously.
  const settle = (waiter: Waiter | null, error?: Error) => {
    if (error) waiter?.reject(error);
    else waiter?.resolve();
  };
  const wake = (error?: Error) => {
    const waiter = wakeReader;
    wakeReader = null;
    settle(waiter, error);
  };
  const unblock = (error?: Error) => {
    const waiter = blockedWrite;
    blockedWrite = null;
    settle(waiter, error);
  };
  const abort = (error: Error) => {
    aborted ??= error;
    wake(aborted);
    unblock(aborted);
  };

  rows.on('message', (message: RowsMessage) => {
    if (message.type === 'end') endReceived = true;
    received.push(message);
    wake();
  });
  // Messages posted before a port closes arrive before its 'close': a close without 'end' is an engine that stopped.
  rows.on('close', () => {
    if (!endReceived) abort(peerStopped('LEDES run cancelled: the engine stopped'));
  });
  port.on('message', (message: ToWriter) => {
    if (message.type === 'abort') abort(deserializeError(message.error));
    else {
      inFlight -= message.bytes;
      if (inFlight < OUTPUT_WINDOW) unblock();
    }
  });
  port.on('close', () => abort(new Error('LEDES run cancelled by the main thread')));

  const next = async (): Promise<RowsMessage> => {
    for (;;) {
      if (aborted) throw aborted;
      const message = received.shift();
      if (message) return message;
      await new Promise<void>((resolve, reject) => (wakeReader = { resolve, reject }));
    }
  };

  // Deflate output comes in pieces of up to 256 KiB: they are gathered up to OUTPUT_MESSAGE bytes, so
  // the main thread handles (and writes to storage) a few hundred messages per file.
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

  try {
    const workbook = createTreatedWorkbook(out, request.lang);
    for (;;) {
      const message = await next();
      if (message.type === 'start') workbook.onStart?.(message.info);
      else if (message.type === 'rows') {
        forEachRow(message.batch, (line, body, fieldCount, findings) => workbook.onRow(line, body, fieldCount, findings));
        await workbook.drained();
        rows.postMessage({ type: 'ack' } satisfies RowsAck);
        // A turn of the event loop per batch, even when batches are queued: the deflater (libuv's pool)
        // gets its next piece only from this thread's loop.
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else {
        await workbook.onEnd(message.late, message.summary);
        await workbook.done;
        break;
      }
    }
    post({ type: 'done' });
  } catch (error) {
    out.destroy();
    post({ type: 'failed', error: serializeError(error) });
  } finally {
    port.close();
    rows.close();
  }
}

serveRuns(serve);
