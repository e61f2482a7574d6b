/**
 * The worker-thread side of `createThreadEngine`: each message on the parent port is one run, with
 * its own message port. The input is pulled chunk by chunk, workbook bytes wait for the main
 * thread's ack, so both directions are flow-controlled; findings go back in batches.
 */
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import type { ResolvedFinding } from '@portal/ledes';
import { runEngineInThread } from './engine.ts';
import { deserializeError, serializeError, type FromThread, type ThreadRunRequest, type ToThread } from './engine-protocol.ts';

const FINDINGS_PER_MESSAGE = 1000;

async function serve(request: ThreadRunRequest): Promise<void> {
  const { port } = request;
  const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  // The one outstanding wait of each kind (the engine pulls, writes and looks up one at a time).
  let pull: { resolve(m: ToThread): void; reject(e: Error): void } | null = null;
  let ack: { resolve(): void; reject(e: Error): void } | null = null;
  const lookups = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let aborted: Error | null = null;

  port.on('message', (message: ToThread) => {
    switch (message.type) {
      case 'chunk':
      case 'end': {
        const waiter = pull;
        pull = null;
        waiter?.resolve(message);
        break;
      }
      case 'xlsx-ack': {
        // Cleared before resolving: the callback may start the next write, which sets a new ack.
        const waiter = ack;
        ack = null;
        waiter?.resolve();
        break;
      }
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
  const abort = (error: Error) => {
    aborted ??= error;
    pull?.reject(aborted);
    ack?.reject(aborted);
    for (const waiter of lookups.values()) waiter.reject(aborted);
    lookups.clear();
  };
  // The main thread gave up on the run (its port closed): stop instead of waiting for input.
  port.on('close', () => abort(new Error('LEDES run cancelled by the main thread')));

  async function* source(): AsyncGenerator<Uint8Array> {
    for (;;) {
      if (aborted) throw aborted;
      const message = await new Promise<ToThread>((resolve, reject) => {
        pull = { resolve, reject };
        post({ type: 'pull' });
      });
      if (message.type !== 'chunk') return;
      yield message.chunk;
    }
  }

  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (aborted) {
        callback(aborted);
        return;
      }
      // A copy the port can transfer: the deflater's chunk may share its memory.
      const copy = new Uint8Array(chunk);
      ack = { resolve: () => callback(), reject: callback };
      post({ type: 'xlsx', chunk: copy }, [copy.buffer]);
    },
  });

  let batch: ResolvedFinding[] = [];
  const sendFindings = () => {
    if (batch.length === 0) return;
    post({ type: 'findings', findings: batch });
    batch = [];
  };

  let nextLookup = 0;
  const lookup = (...args: unknown[]) =>
    new Promise<boolean>((resolve, reject) => {
      const id = nextLookup++;
      lookups.set(id, { resolve: (v) => resolve(v as boolean), reject });
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
      acceptedInvoices: request.acceptedInvoices === 'none' ? undefined : request.acceptedInvoices === 'callback' ? (lookup as (n: string, c: string) => Promise<boolean>) : request.acceptedInvoices,
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
