import { Worker } from 'node:worker_threads';

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
  const worker = new Worker(new URL('./workbook-worker.mjs', import.meta.url), { workerData: { bytes, fileName } });
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { ok: true } | { ok: false; reason: string } | Error) => {
      if (settled) return;
      settled = true;
      worker.terminate().catch(() => {});
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    let chain = Promise.resolve();
    worker.on('message', (message: WorkbookMessage) => {
      chain = chain
        .then(async () => {
          if (settled) return;
          if (message.type === 'expected') visitor.expected(message.rows);
          else if (message.type === 'sheet') visitor.sheet(message.headers);
          else if (message.type === 'rows') {
            await visitor.rows(message.rows);
            worker.postMessage('ack');
          } else finish(message.ok ? { ok: true } : { ok: false, reason: message.reason });
        })
        .catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
    });
    worker.on('error', (error) => finish(new Error(`portfolio workbook thread crashed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => finish(new Error(`portfolio workbook thread exited with code ${code}`)));
  });
}
