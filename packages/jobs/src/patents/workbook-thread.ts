import { runOneShotThread } from '../one-shot-thread.ts';

export interface WorkbookRow {
  rowNumber: number;
  cells: unknown[];
}

export type WorkbookMessage =
  | { type: 'expected'; rows: number }
  | { type: 'sheet'; headers: string[] }
  | { type: 'rows'; rows: WorkbookRow[] }
  | { type: 'done'; ok: true }
  | { type: 'done'; ok: false; reason: string };

export interface WorkbookVisitor {
  expected(rows: number): void;
  sheet(headers: string[]): void;
  /** Awaited before the batch is acknowledged: the thread waits when 4 batches are unacknowledged. */
  rows(rows: WorkbookRow[]): Promise<void>;
}

/**
 * Reads a portfolio workbook in a worker thread of its own (the workbook parsing is the CPU-heavy part:
 * in the embedded mode it would otherwise hold the API's event loop), as the annuity check does. The
 * visitor runs on this thread, where the database is. A visitor failure or a crash of the thread
 * rejects; the thread is always terminated.
 */
export function readWorkbookInThread(bytes: Buffer, fileName: string, visitor: WorkbookVisitor): Promise<{ ok: true } | { ok: false; reason: string }> {
  return runOneShotThread<WorkbookMessage, { ok: true } | { ok: false; reason: string }>({
    url: new URL('./workbook-worker.mjs', import.meta.url),
    workerData: { bytes, fileName },
    name: 'portfolio workbook thread',
    async onMessage(message, worker) {
      if (message.type === 'expected') visitor.expected(message.rows);
      else if (message.type === 'sheet') visitor.sheet(message.headers);
      else if (message.type === 'rows') {
        await visitor.rows(message.rows);
        worker.postMessage('ack');
      } else return message.ok ? { ok: true } : { ok: false, reason: message.reason };
      return undefined;
    },
  });
}
