import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { writeLedgerExport } from './ledger-export.ts';
import { moveAt, type LedgerExportJob } from './ledger-export-thread.ts';

/** The thread of `writeLedgerExportInThread`: recolours the stored export at `path` into `outPath`, then says so. */
const { path, outPath, moves } = workerData as LedgerExportJob;
const out = createWriteStream(outPath, { mode: 0o600 });
const result = await writeLedgerExport(path, (rowIndex) => moveAt(moves, rowIndex), out);
out.end();
await finished(out);
parentPort?.postMessage(result);
