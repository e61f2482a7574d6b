import { Worker } from 'node:worker_threads';
import type { ReceiptThreadInput, ReceiptThreadMessage } from './protocol.ts';

export type ReceiptVisitor = (message: Exclude<ReceiptThreadMessage, { type: 'done' }>) => Promise<void>;

/**
 * Reads an upload in a worker thread of its own (inflating and PDF.js are the CPU-heavy part: in the
 * embedded mode they would otherwise hold the API's event loop), as the portfolio import's workbook
 * thread. The visitor (storage and database) runs on this thread; each PDF is acknowledged after it.
 * A visitor failure or a crash of the thread rejects; the thread is always terminated.
 */
export function readUploadInThread(input: ReceiptThreadInput, visitor: ReceiptVisitor, signal?: AbortSignal): Promise<Extract<ReceiptThreadMessage, { type: 'done' }>> {
  const worker = new Worker(new URL('./receipts-worker.mjs', import.meta.url), { workerData: input, resourceLimits: { maxOldGenerationSizeMb: 512 } });
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: Extract<ReceiptThreadMessage, { type: 'done' }> | Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      worker.terminate().catch(() => {});
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => finish(signal?.reason instanceof Error ? signal.reason : new Error('receipt reading aborted'));
    signal?.addEventListener('abort', onAbort);
    let chain = Promise.resolve();
    worker.on('message', (message: ReceiptThreadMessage) => {
      chain = chain
        .then(async () => {
          if (settled) return;
          if (message.type === 'done') return finish(message);
          await visitor(message);
          if (message.type === 'pdf') worker.postMessage('ack');
        })
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });
    worker.on('error', (error) => finish(new Error(`receipt thread crashed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => finish(new Error(`receipt thread exited with code ${code}`)));
  });
}
