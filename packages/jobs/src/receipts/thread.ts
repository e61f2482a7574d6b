import { runOneShotThread } from '../one-shot-thread.ts';
import type { ReceiptThreadInput, ReceiptThreadMessage } from './protocol.ts';

export type ReceiptVisitor = (message: Exclude<ReceiptThreadMessage, { type: 'done' }>) => Promise<void>;

/**
 * Reads an upload in a worker thread of its own (inflating and PDF.js are the CPU-heavy part: in the
 * embedded mode they would otherwise hold the API's event loop), as the portfolio import's workbook
 * thread. The visitor (storage and database) runs on this thread; each PDF is acknowledged after it.
 * A visitor failure or a crash of the thread rejects; the thread is always terminated.
 */
export function readUploadInThread(input: ReceiptThreadInput, visitor: ReceiptVisitor, signal?: AbortSignal): Promise<Extract<ReceiptThreadMessage, { type: 'done' }>> {
  return runOneShotThread<ReceiptThreadMessage, Extract<ReceiptThreadMessage, { type: 'done' }>>({
    url: new URL('./receipts-worker.mjs', import.meta.url),
    workerData: input,
    name: 'receipt thread',
    resourceLimits: { maxOldGenerationSizeMb: 512 },
    signal,
    async onMessage(message, worker) {
      if (message.type === 'done') return message;
      await visitor(message);
      if (message.type === 'pdf') worker.postMessage('ack');
      return undefined;
    },
  });
}
