import { parentPort, workerData } from 'node:worker_threads';
import { readSpreadsheet } from '@portal/annuities';
import type { WorkbookMessage, WorkbookRow } from './workbook-thread.ts';

/**
 * The thread side of a portfolio workbook read: `@portal/annuities`' streaming reader (decision 240) over
 * the bytes given, rows sent in batches of 1,000 with at most 4 batches unacknowledged (the main
 * thread's database writes set the pace).
 */
const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName: string };
const port = parentPort!;
const BATCH = 1000;
let credits = 4;
let wake: (() => void) | null = null;
port.on('message', (message) => {
  if (message === 'ack') {
    credits++;
    wake?.();
    wake = null;
  }
});
const post = (message: WorkbookMessage) => port.postMessage(message);
let batch: WorkbookRow[] = [];
const send = async () => {
  if (batch.length === 0) return;
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  post({ type: 'rows', rows: batch });
  batch = [];
};
const result = await readSpreadsheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), fileName, {
  expected: (rows) => post({ type: 'expected', rows }),
  sheet: async (info) => {
    await send();
    post({ type: 'sheet', headers: [...info.headers] });
  },
  row: async (row) => {
    batch.push({ rowNumber: row.rowNumber, cells: [...row.cells] });
    if (batch.length >= BATCH) await send();
  },
});
await send();
post(result.ok ? { type: 'done', ok: true } : { type: 'done', ok: false, reason: result.reason });
