import { Worker } from 'node:worker_threads';
import type { LedgerExportResult, LedgerMove } from './ledger-export.ts';

/**
 * The reader's ledger moves, by row index (0 the first data row of the first sheet): `MOVE_CODES` of each, 0 for a
 * row left as stored. A typed array, so it crosses to the thread without a copy of a hundred thousand entries.
 */
export type LedgerMoves = Uint8Array;
export const MOVE_CODES: Readonly<Record<LedgerMove, number>> = { paid: 1, lapsed: 2 };

export const moveAt = (moves: LedgerMoves, rowIndex: number): LedgerMove | undefined =>
  moves[rowIndex] === MOVE_CODES.paid ? 'paid' : moves[rowIndex] === MOVE_CODES.lapsed ? 'lapsed' : undefined;

export interface LedgerExportJob {
  readonly path: string;
  readonly outPath: string;
  readonly moves: LedgerMoves;
}

/**
 * `writeLedgerExport` in a worker thread of its own, from the stored export at `path` to the file `outPath` (decision
 * 234): the inflating, the scan of every row and the deflating would otherwise share the API's event loop with its
 * requests (and, embedded, its database thread's answers) for seconds at 100,000 rows. Rejects when the thread
 * fails or exits without a result; the thread always ends.
 */
export function writeLedgerExportInThread(path: string, moves: LedgerMoves, outPath: string): Promise<LedgerExportResult> {
  const worker = new Worker(new URL('./ledger-export-worker.mjs', import.meta.url), { workerData: { path, outPath, moves } satisfies LedgerExportJob });
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: LedgerExportResult | Error) => {
      if (settled) return;
      settled = true;
      worker.terminate().catch(() => {});
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.once('message', (result: LedgerExportResult) => finish(result));
    worker.once('error', (error) => finish(new Error(`ledger export thread failed: ${error.message}`, { cause: error })));
    worker.once('exit', (code) => finish(new Error(`ledger export thread exited with code ${code}`)));
  });
}
