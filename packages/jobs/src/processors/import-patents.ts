import type { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { PATENT_IMPORT_KEPT_REJECTIONS, PATENT_IMPORT_MAX_BYTES, type PatentPortfolioField } from '@portal/contracts';
import { afterBulkWrite, patentImports, type Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import { parseCsv } from '../patents/csv.ts';
import { ZIP_MAGIC } from '../receipts/kind.ts';
import { patentImportRunKind, publishImport } from '../kinds/patent-import.ts';
import { loadImport } from '../patents/imports.ts';
import { engineDay, mapHeaders, rawFromCells } from '../patents/rows.ts';
import { readWorkbookInThread } from '../patents/workbook-thread.ts';
import { loadInstructionIds, loadRates, PORTFOLIO_BATCH, PortfolioTally } from '../patents/upsert.ts';

export interface ImportPatentsDeps {
  db: Database;
  storage: Storage;
  realtime: RealtimePublisher;
  logger: Logger;
  clock?: { now(): Date };
}

/** Progress goes to the uploader and touches the row (the heartbeat) at least this often. */
export const PATENT_IMPORT_PROGRESS_MS = 500;
/** Error codes of an import besides the refusal of its content. */
export const PATENT_IMPORT_ERROR_CODES = { failed: 'processing_failed', interrupted: 'interrupted', headers: 'headers_not_found', unreadable: 'malformed_file' } as const;

class ContentRefused extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > PATENT_IMPORT_MAX_BYTES) throw new UnrecoverableJobError('patent import larger than any accepted upload');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}


/** The import ends in Error with a reason (content refused, or the last attempt failed); published to uploader and admins. */
export async function markImportFailed(deps: Pick<ImportPatentsDeps, 'db' | 'realtime' | 'clock'>, importId: string, errorCode: string): Promise<void> {
  await patentImportRunKind.fail(deps as ImportPatentsDeps, importId, errorCode);
}

/**
 * Upserts an uploaded portfolio file (xlsx or CSV) by `idagenda`, 1,000 rows per statement, with
 * progress every 0.5 s. A rerun (retry) starts the counts over: rows already written compare equal
 * and count as unchanged, so nothing is written twice. A file without an `idagenda` header or that
 * cannot be read ends Error at once (no retry); refused rows are counted, the first 100 kept.
 */
export function createImportPatentsProcessor(deps: ImportPatentsDeps): Processor<'patent-import'> {
  const now = () => deps.clock?.now() ?? new Date();
  return async ({ importId }, job) => {
    const found = await loadImport(deps.db, importId);
    if (!found) throw new UnrecoverableJobError(`patent import ${importId} does not exist`);
    if (found.state !== 'in_progress') return;
    const [started] = await deps.db
      .update(patentImports)
      .set({ startedAt: now(), attempts: sql`${patentImports.attempts} + 1`, rowsDone: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, flagged: 0, rejections: [], updatedAt: now() })
      .where(and(eq(patentImports.id, importId), eq(patentImports.state, 'in_progress')))
      .returning();
    if (!started) return;
    publishImport(deps.realtime, started, { admins: false });

    const begun = performance.now();
    const bytes = await readAll(await deps.storage.get(started.storageKey));
    const tally = new PortfolioTally(PATENT_IMPORT_KEPT_REJECTIONS, await loadRates(deps.db), engineDay(now()), await loadInstructionIds(deps.db));
    let rowsDone = 0;
    let rowsTotal: number | null = null;
    const beating: { current: Promise<void> | null } = { current: null };
    const beat = async () => {
      const [progressed] = await deps.db
        .update(patentImports)
        .set({ rowsDone, ...(rowsTotal === null ? {} : { rowsTotal }), inserted: tally.inserted, updated: tally.updated, unchanged: tally.unchanged, rejected: tally.rejected, flagged: tally.flagged, updatedAt: now() })
        .where(and(eq(patentImports.id, importId), eq(patentImports.state, 'in_progress')))
        .returning();
      if (progressed) publishImport(deps.realtime, progressed, { admins: true });
      await job.updateProgress(rowsDone).catch(() => {});
    };
    const timer = setInterval(() => {
      beating.current ??= beat()
        .catch((error: unknown) => deps.logger.warn({ err: error, importId }, 'patent import progress update failed'))
        .finally(() => (beating.current = null));
    }, PATENT_IMPORT_PROGRESS_MS);

    const take = async (rowNumber: number, columns: ReadonlyMap<PatentPortfolioField, number>, cells: readonly unknown[]) => {
      const waiting = tally.add(rowNumber, rawFromCells(columns, cells));
      rowsDone++;
      if (waiting >= PORTFOLIO_BATCH) {
        job.signal.throwIfAborted();
        await tally.flush(deps.db, 'import', now());
      }
    };

    try {
      if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
        // The spreadsheet reader of @portal/annuities (streaming, decision 240), in a worker thread of its own.
        let columns: Map<PatentPortfolioField, number> | null = null;
        const result = await readWorkbookInThread(bytes, started.originalName.replace(/\.[^.]*$/, '') + '.xlsx', {
          expected: (rows) => {
            rowsTotal = rows;
          },
          sheet: (headers) => {
            columns = mapHeaders(headers);
          },
          rows: async (rows) => {
            for (const row of rows) if (columns) await take(row.rowNumber, columns, row.cells);
          },
        });
        if (!result.ok) throw new ContentRefused(result.reason === 'headers_not_found' ? PATENT_IMPORT_ERROR_CODES.headers : result.reason);
        if (rowsDone === 0 && columns === null) throw new ContentRefused(PATENT_IMPORT_ERROR_CODES.headers);
      } else {
        if (bytes.includes(0)) throw new ContentRefused(PATENT_IMPORT_ERROR_CODES.unreadable);
        const rows = parseCsv(bytes);
        const header = rows[0];
        const columns = header ? mapHeaders(header) : null;
        if (!columns) throw new ContentRefused(PATENT_IMPORT_ERROR_CODES.headers);
        rowsTotal = rows.length - 1;
        for (let i = 1; i < rows.length; i++) await take(i + 1, columns, rows[i]!);
      }
      await tally.flush(deps.db, 'import', now());
    } catch (error) {
      if (error instanceof ContentRefused) {
        deps.logger.info({ event: 'patent_import_refused', importId, reason: error.code }, 'patent import refused');
        clearInterval(timer);
        await beating.current;
        await markImportFailed(deps, importId, error.code);
        return;
      }
      throw error;
    } finally {
      clearInterval(timer);
      await beating.current;
    }

    const [finished] = await deps.db
      .update(patentImports)
      .set({
        state: 'Done',
        rowsDone,
        rowsTotal: rowsDone,
        inserted: tally.inserted,
        updated: tally.updated,
        unchanged: tally.unchanged,
        rejected: tally.rejected,
        flagged: tally.flagged,
        rejections: tally.rejections,
        finishedAt: now(),
        updatedAt: now(),
      })
      .where(and(eq(patentImports.id, importId), eq(patentImports.state, 'in_progress')))
      .returning();
    if (!finished) return;
    deps.logger.info(
      { event: 'patent_import_done', importId, rows: rowsDone, inserted: tally.inserted, updated: tally.updated, unchanged: tally.unchanged, rejected: tally.rejected, flagged: tally.flagged, ms: Math.round(performance.now() - begun) },
      'patent import done',
    );
    publishImport(deps.realtime, finished, { admins: true });
    await afterBulkWrite(deps.db, { patent_records: tally.inserted + tally.updated }, deps.logger);
  };
}
