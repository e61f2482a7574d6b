import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { DEFAULT_LIMITS, formatIsoDate, dayFromDate } from '@portal/annuities/core';
import { afterBulkWrite, annuityFiles, annuityPatents, driverOf, openDatabasePort, type Database, type Executor } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import { runAnnuityEngine, type AnnuityEngine } from '../annuities/engine.ts';
import { loadAnnuityFile, type AnnuityFileRow } from '../annuities/files.ts';
import type { PatentOverride, PatentRecord } from '../annuities/protocol.ts';
import { isPacked, packBatch, type PackedBatch } from '../annuities/packed-rows.ts';
import { linkFileToPortfolio } from '../annuities/links.ts';
import { PACKED_INSERT_SQL, storePackedPatents } from '../annuities/patents.ts';
import { annuityRunKind, publishFile } from '../kinds/annuities.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

export interface CheckAnnuitiesDeps {
  db: Database;
  storage: Storage;
  realtime: RealtimePublisher;
  logger: Logger;
  clock?: { now(): Date };
  /** Where the engine runs: a worker thread of its own per run by default. */
  annuityEngine?: AnnuityEngine;
  /** Where an upload is copied from storage for the engine (removed after each run); the OS's temp directory by default. */
  tempDir?: string;
}

/** Rows per batch: what the engine thread sends at a time; its insert statements are all sent at once. */
export const PATENT_BATCH = 1000;
/**
 * Rows per insert statement on PostgreSQL: a batch's statements run at once, each on a connection of the pool,
 * and each backend keeps up the table's indexes for its rows (half of the inserts' CPU, decision 181) on a core
 * of its own, beside the engine thread.
 */
export const PATENT_INSERT_ROWS = 250;
/**
 * Rows per insert statement on PGlite (decision 185), which answers one statement at a time on its thread: a
 * batch's statements are sent at once and wait there in the background lane; a request's statement goes ahead of
 * those not begun, so it waits for one at most. The thread's CPU per statement: 250 rows 28 ms (p50; up to 98),
 * 100 rows 13 ms (p99 28), 50 rows 8 ms (p99 15) but 20 % more CPU in all than 100 and a slower file.
 */
export const EMBEDDED_INSERT_ROWS = 100;
/** Statements of a batch in flight at once on PostgreSQL. */
export const PATENT_STATEMENTS_AT_ONCE = PATENT_BATCH / PATENT_INSERT_ROWS;
/** Progress goes to the owner and touches the row (the heartbeat) at least this often while rows come in. */
export const ANNUITY_PROGRESS_MS = 500;
/** A rewrite that keeps finding newer edits gives up after this many passes; the sweep enqueues it again. */
const MAX_EXPORT_PASSES = 5;

class UploadTooLarge extends Error {}

const SPOOL_PREFIX = 'portal-annuity-';
/** This process's spool directories still in use (a run's `finally` removes its own). */
const spooling = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the spool directories a killed process left in `dir` (`portal-annuity-<pid>-*`): those of a
 * process no longer running, and this process's own that no run holds (a restart reusing the pid).
 */
async function removeStaleSpools(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^portal-annuity-(\d+)-/.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid)) continue;
    const folder = join(dir, name);
    if (pid === process.pid ? !spooling.has(folder) : !alive(pid)) await rm(folder, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * Streams the upload from storage into a file of its own in a new directory under `dir`, refusing past
 * the upload limit (`file_too_large`, the engine's own refusal) while it streams. The reader needs the
 * whole workbook (a zip's central directory is at its end): the engine thread reads it from this file,
 * so the main thread never holds the upload. The caller runs `remove` in a `finally`.
 */
async function spoolUpload(stream: Readable, dir: string, fileName: string): Promise<{ path: string | null; remove(): Promise<void> }> {
  await removeStaleSpools(dir);
  // Held before it exists, so a concurrent run's clean-up never takes it for a leftover.
  const folder = join(dir, `${SPOOL_PREFIX}${process.pid}-${randomUUID()}`);
  spooling.add(folder);
  const remove = async () => {
    await rm(folder, { recursive: true, force: true });
    spooling.delete(folder);
  };
  try {
    await mkdir(folder, { mode: 0o700 });
    const path = join(folder, /\.[a-z0-9]+$/i.exec(fileName)?.[0]?.toLowerCase() === '.xls' ? 'upload.xls' : 'upload.xlsx');
    let size = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(size > DEFAULT_LIMITS.maxBytes ? new UploadTooLarge() : null, chunk);
      },
    });
    try {
      await pipeline(stream, cap, createWriteStream(path));
    } catch (error) {
      if (error instanceof UploadTooLarge) return { path: null, remove };
      throw error;
    }
    return { path, remove };
  } catch (error) {
    stream.destroy();
    await remove();
    throw error;
  }
}

/**
 * The export's key, one per file: a rewrite replaces the object whole (both storage drivers write a
 * new object atomically), so a download reads the old export or the new one, never half of either.
 */
export function exportKeyFor(importKey: string): string {
  return importKey.replace(/^annuities\/import\//, 'annuities/export/').replace(/\.[^./]*$/, '') + '.xlsx';
}

/** After the last attempt of an infrastructure failure (or a refusal): the file ends as Error without its rows, and the user sees it. */
export async function markAnnuityFileFailed(deps: Pick<CheckAnnuitiesDeps, 'db' | 'realtime' | 'clock'>, fileId: string, errorCode: string): Promise<void> {
  await annuityRunKind.fail(deps as CheckAnnuitiesDeps, fileId, errorCode);
}

/**
 * Checks one uploaded annuity spreadsheet: reads it from storage, runs the engine in a worker thread,
 * stores one patent per row in batches (the thread waits for each batch: backpressure), writes the
 * export, then moves the file to Done. A new attempt starts over (its rows replace the earlier
 * attempt's, never doubled). A refused workbook ends Error with the engine's reason and is not
 * retried; only infrastructure faults throw. A Done file whose export is stale gets its export
 * rewritten with the stored edits and comments.
 */
export function createCheckAnnuitiesProcessor(deps: CheckAnnuitiesDeps): Processor<'annuities'> {
  const now = () => deps.clock?.now() ?? new Date();
  const engine = deps.annuityEngine ?? runAnnuityEngine;

  const writeExport = async (
    file: AnnuityFileRow,
    path: string,
    mode: 'check' | 'export',
    onRows: (rows: PatentRecord[] | PackedBatch) => Promise<Array<PatentOverride | null> | undefined>,
    onExpected?: (rows: number) => void,
    statementRows?: number,
    direct?: { onStored(rows: number): void; signal: AbortSignal },
  ) => {
    const key = exportKeyFor(file.importKey);
    const out = new PassThrough();
    const upload = deps.storage.put(key, out, { contentType: XLSX_CONTENT_TYPE });
    // Decision 232: on the embedded database's thread, the engine thread stores the rows itself (none cross this heap).
    const database = direct ? openDatabasePort(deps.db) : null;
    try {
      const result = await engine(
        { path },
        {
          mode,
          fileName: file.importName,
          today: file.referenceDate!,
          batchSize: PATENT_BATCH,
          out,
          onRows,
          ...(onExpected ? { onExpected } : {}),
          ...(statementRows ? { statementRows } : {}),
          ...(database && direct ? { store: { database, sql: PACKED_INSERT_SQL, fileId: file.id, onStored: direct.onStored }, signal: direct.signal } : {}),
        },
      );
      if (result.ok) {
        out.end();
        await upload;
      } else {
        // The put fails and leaves nothing (or, for a rewrite, the previous export) in place.
        out.destroy();
        await upload.catch(() => {});
      }
      return { key, result };
    } catch (error) {
      out.destroy();
      await upload.catch(() => {});
      throw error;
    } finally {
      // Transferred to the engine thread, this end is already detached; an engine that did not take it leaves it here.
      database?.close();
    }
  };

  const rewriteExport = async (first: AnnuityFileRow) => {
    let file = first;
    for (let pass = 0; pass < MAX_EXPORT_PASSES && file.state === 'Done' && file.exportVersion < file.editVersion; pass++) {
      const version = file.editVersion;
      const upload = await spoolUpload(await deps.storage.get(file.importKey), deps.tempDir ?? tmpdir(), file.importName);
      let next = 0;
      let written: Awaited<ReturnType<typeof writeExport>>;
      try {
        if (upload.path === null) throw new Error(`annuity export rewrite of ${file.id} refused (file_too_large) though its check passed`);
        written = await writeExport(file, upload.path, 'export', async (rows) => {
          // A rewrite asks for no packing (no statementRows): its rows come as objects.
          if (isPacked(rows)) throw new Error('annuity export rewrite: packed rows where row objects were expected');
          const from = next;
          next += rows.length;
          const stored = await deps.db
            .select()
            .from(annuityPatents)
            .where(and(eq(annuityPatents.fileId, file.id), gte(annuityPatents.rowIndex, from), lte(annuityPatents.rowIndex, next - 1), eq(annuityPatents.edited, true)));
          const byIndex = new Map(stored.map((p) => [p.rowIndex, p]));
          return rows.map((r): PatentOverride | null => {
            const p = byIndex.get(r.rowIndex);
            return p
              ? {
                  commentaire: p.commentaire,
                  datePrecedenteAnnuite: p.datePrecedenteAnnuite,
                  quantPrecedent: p.quantPrecedent,
                  dateProchaineAnnuite: p.dateProchaineAnnuite,
                  nextNumber: p.nextNumber,
                  instructionLimit: p.instructionLimit,
                  limiteDateProchaineAnnuite: p.limiteDateProchaineAnnuite,
                  fee: p.fee,
                  currency: p.currency,
                  inGraceWithSurcharge: p.inGraceWithSurcharge,
                  dechu: p.dechu,
                  expired: p.expired,
                  colour: p.colour,
                }
              : null;
          });
        });
      } finally {
        await upload.remove();
      }
      const { key, result } = written;
      if (!result.ok) throw new Error(`annuity export rewrite of ${file.id} refused (${result.reason}) though its check passed`);
      const [updated] = await deps.db
        .update(annuityFiles)
        .set({ exportKey: key, exportVersion: version, exportStale: sql`${annuityFiles.editVersion} > ${version}`, updatedAt: now() })
        .where(and(eq(annuityFiles.id, file.id), sql`${annuityFiles.exportVersion} < ${version}`))
        .returning();
      if (!updated) return; // another execution wrote this version or a newer one
      deps.logger.info({ event: 'annuity_export_rewritten', fileId: file.id, version }, 'annuity export rewritten');
      publishFile(deps.realtime, updated, { admins: false });
      file = updated;
    }
  };

  return async ({ fileId }, job) => {
    const file = await loadAnnuityFile(deps.db, fileId);
    if (!file) throw new UnrecoverableJobError(`annuity file ${fileId} does not exist`);
    if (file.state === 'Done') return rewriteExport(file);
    if (file.state !== 'in_progress') return;

    // The reference date is the day of the first attempt, kept by every retry.
    const referenceDate = file.referenceDate ?? formatIsoDate(dayFromDate(now())!);
    const [started] = await deps.db.transaction(async (tx) => {
      await tx.delete(annuityPatents).where(eq(annuityPatents.fileId, file.id));
      return tx
        .update(annuityFiles)
        .set({ startedAt: now(), attempts: sql`${annuityFiles.attempts} + 1`, rowsDone: 0, referenceDate, updatedAt: now() })
        .where(and(eq(annuityFiles.id, file.id), eq(annuityFiles.state, 'in_progress')))
        .returning();
    });
    if (!started) return;

    const begun = performance.now();
    const upload = await spoolUpload(await deps.storage.get(file.importKey), deps.tempDir ?? tmpdir(), file.importName);
    const uploadPath = upload.path;
    if (uploadPath === null) {
      await upload.remove();
      deps.logger.info({ event: 'annuity_file_refused', fileId: file.id, reason: 'file_too_large' }, 'annuity file refused');
      await markAnnuityFileFailed(deps, file.id, 'file_too_large');
      return;
    }
    let rowsDone = 0;
    // The rows the workbook should hold, from the engine's inspection: the progress bar's total.
    let rowsTotal: number | null = null;
    // Progress on a timer, not per batch: the owner hears from the check every ANNUITY_PROGRESS_MS
    // even while the engine reads a large sheet before its first rows, and the row's updated_at is
    // the heartbeat the sweep reads. A beat still running is not doubled; a failed one is only logged.
    const beating: { current: Promise<void> | null } = { current: null };
    const beat = async () => {
      const [progressed] = await deps.db
        .update(annuityFiles)
        .set({ rowsDone, ...(rowsTotal === null ? {} : { rowsTotal }), updatedAt: now() })
        .where(and(eq(annuityFiles.id, file.id), eq(annuityFiles.state, 'in_progress')))
        .returning();
      if (progressed) publishFile(deps.realtime, progressed, { admins: false });
      await job.updateProgress(rowsDone).catch(() => {});
    };
    const timer = setInterval(() => {
      beating.current ??= beat()
        .catch((error: unknown) => deps.logger.warn({ err: error, fileId: file.id }, 'annuity progress update failed'))
        .finally(() => (beating.current = null));
    }, ANNUITY_PROGRESS_MS);
    const rowsPerStatement = driverOf(deps.db) === 'postgres' ? PATENT_INSERT_ROWS : EMBEDDED_INSERT_ROWS;
    let outcome: Awaited<ReturnType<typeof writeExport>>;
    try {
      outcome = await writeExport(started, uploadPath, 'check', async (rows) => {
        job.signal.throwIfAborted();
        // The engine thread packs a batch's statements (array literals per column); an engine that sends row objects gets them packed here.
        const { statements } = isPacked(rows) ? rows : packBatch(rows, rowsPerStatement);
        // Every statement settles before the batch does: a failed run leaves none of its statements running.
        const stored = await Promise.allSettled(statements.map((packed) => storePackedPatents(deps.db, file.id, packed)));
        const failed = stored.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
        rowsDone += rows.length;
        return undefined;
      }, (rows) => {
        rowsTotal = rows;
      }, rowsPerStatement, {
        onStored: (rows) => {
          rowsDone += rows;
        },
        signal: job.signal,
      });
    } finally {
      clearInterval(timer);
      await beating.current;
      await upload.remove();
    }
    const { key, result } = outcome;

    if (!result.ok) {
      deps.logger.info({ event: 'annuity_file_refused', fileId: file.id, reason: result.reason }, 'annuity file refused');
      await markAnnuityFileFailed(deps, file.id, result.reason);
      return;
    }
    const { counts } = result;
    const finished = await deps.db.transaction(async (tx) => {
      // The rows that are portfolio patents, so the list reads their ledger (decision 214); in the transaction of Done.
      const linkedRows = await linkFileToPortfolio(tx, file.id);
      const [updated] = await tx
        .update(annuityFiles)
        .set({
          state: 'Done',
          linkedRows,
          exportKey: key,
          rowsDone: counts.rows,
          rowsTotal: counts.rows,
          countOk: counts.colours.ok,
          countNok: counts.colours.nok,
          countOrange: counts.colours.orange,
          countNoDate: counts.colours.no_date,
          exportVersion: 0,
          finishedAt: now(),
          updatedAt: now(),
        })
        .where(and(eq(annuityFiles.id, file.id), eq(annuityFiles.state, 'in_progress')))
        .returning();
      return updated;
    });
    if (!finished) return;
    deps.logger.info({ event: 'annuity_file_checked', fileId: file.id, rows: counts.rows, attempt: job.attempt, ms: Math.round(performance.now() - begun) }, 'annuity file done');
    publishFile(deps.realtime, finished, { admins: true });
    await afterBulkWrite(deps.db, { annuity_patents: counts.rows }, deps.logger);
  };
}

/** Files whose rows are the ones given: used by the edit routes to find the files to re-export. */
export async function filesOfPatents(db: Executor, patentIds: string[]): Promise<string[]> {
  if (patentIds.length === 0) return [];
  const rows = await db.selectDistinct({ fileId: annuityPatents.fileId }).from(annuityPatents).where(inArray(annuityPatents.id, patentIds));
  return rows.map((r) => r.fileId);
}
