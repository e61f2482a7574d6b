/**
 * The writer thread of `createThreadEngine`: each message on the parent port is one run's treated
 * workbook, with a port to the main thread (the workbook's bytes, acked as they are written, so a
 * slow destination holds the writer back) and one from the engine thread (the lines, in batches this
 * thread acks once written, so the writer holds the engine back). The rows' XML, which costs more
 * CPU than the check itself, is built here while the engine checks the next lines on another core.
 */
import { createTreatedWorkbook } from '@portal/ledes/report';
import { deserializeError, peerStopped, serializeError, type FromWriter, type RowsAck, type RowsMessage, type ToWriter, type WriterRunRequest } from './engine-protocol.ts';
import { amendEnd } from './engine.ts';
import { forEachRow } from './rows.ts';
import { serveRuns } from '../shared-thread.ts';
import { Signal, threadOutput } from '../thread-io.ts';

async function serve(request: WriterRunRequest): Promise<void> {
  const { port, rows } = request;
  const post = (message: FromWriter, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const received: RowsMessage[] = [];
  let endReceived = false;
  const arrived = new Signal();
  let aborted: Error | null = null;
  const output = threadOutput((chunk) => post({ type: 'xlsx', chunk }, [chunk.buffer as ArrayBuffer]));
  const out = output.out;

  const abort = (error: Error) => {
    aborted ??= error;
    arrived.notify(aborted);
    output.abort(aborted);
  };

  rows.on('message', (message: RowsMessage) => {
    if (message.type === 'end') endReceived = true;
    received.push(message);
    arrived.notify();
  });
  // Messages posted before a port closes arrive before its 'close': a close without 'end' is an engine that stopped.
  rows.on('close', () => {
    if (!endReceived) abort(peerStopped('LEDES run cancelled: the engine stopped'));
  });
  port.on('message', (message: ToWriter) => {
    if (message.type === 'abort') abort(deserializeError(message.error));
    else output.ack(message.bytes);
  });
  port.on('close', () => abort(new Error('LEDES run cancelled by the main thread')));

  const next = async (): Promise<RowsMessage> => {
    for (;;) {
      if (aborted) throw aborted;
      const message = received.shift();
      if (message) return message;
      await arrived.wait();
    }
  };

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
        await workbook.onEnd(...amendEnd(message.late, message.summary, request.amend));
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
