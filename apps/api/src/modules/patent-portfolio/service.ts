import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { count, desc, eq } from 'drizzle-orm';
import {
  paginationMeta,
  PATENT_PORTFOLIO_FIELDS,
  PATENT_SYNC_MAX_ROWS,
  type PatentExportBatchDto,
  type PatentPagedQuery,
  type PatentPortfolioField,
  type PatentSyncRow,
} from '@portal/contracts';
import { patentExportBatches, patentImports, type Database } from '@portal/db';
import { enqueueCommitted, engineDay, loadImport, loadInstructionIds, loadRates, publishImport, PortfolioTally, toImportDto } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import { uploadHead, ZIP_MAGIC, type StoredUpload } from '../../domain/uploads.ts';
import type { AuthState } from '../../domain/auth.ts';

/** Bytes of a CSV looked at before its row is written: text, no NUL (a binary renamed .csv is refused). */
const SNIFF_BYTES = 4096;

/**
 * The file's real type matches its name: an `.xlsx` is a zip, a `.csv` is text (no NUL byte, not a
 * zip). Then the import row (in_progress), enqueued after the commit, and the admins' lists told.
 */
export async function submitImport(ctx: AppContext, actor: AuthState, upload: StoredUpload | undefined) {
  if (!upload) throw new AppError('error_choose_file');
  if (upload.size === 0) throw new AppError('empty_file');
  const head = await uploadHead(ctx.storage, upload.key, SNIFF_BYTES);
  const isXlsx = upload.originalName.toLowerCase().endsWith('.xlsx');
  const zip = head.subarray(0, 4).equals(ZIP_MAGIC);
  if (isXlsx ? !zip : zip || head.includes(0) || head.length === 0) throw new AppError('wrong_import_type');
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(patentImports)
    .values({ uploadedBy: actor.userId, originalName: upload.originalName, storageKey: upload.key, size: upload.size, sha256: upload.sha256, createdAt: now, updatedAt: now })
    .returning();
  await enqueueCommitted(ctx, 'patent-import', [{ importId: row!.id }]);
  publishImport(ctx.realtime, row!, { admins: true });
  return row!;
}

export async function listImports(ctx: AppContext, query: PatentPagedQuery) {
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(patentImports);
  const rows = await importsPageQuery(ctx.db, query);
  return { patent_imports: rows.map(toImportDto), meta: paginationMeta(query.page, query.limit, total) };
}

/** One page of the imports, newest first. */
export function importsPageQuery(db: Database, query: PatentPagedQuery) {
  return db
    .select()
    .from(patentImports)
    .orderBy(desc(patentImports.createdAt), desc(patentImports.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
}

export async function readImport(ctx: AppContext, id: string) {
  const row = await loadImport(ctx.db, id);
  if (!row) throw new AppError('not_found');
  return toImportDto(row);
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The integration's key, compared in constant time on SHA-256 digests (equal lengths whatever the
 * header holds). No key configured: the route does not exist for this deployment (404, decision 107);
 * a missing or wrong key: 401.
 */
export function checkSyncKey(ctx: AppContext, authorization: string | undefined): void {
  const configured = ctx.config.patentSync.apiKey;
  if (!configured) throw new AppError('not_found');
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(authorization ?? '');
  const given = sha256(match?.[1] ?? '');
  if (!match || !timingSafeEqual(given, sha256(configured))) throw new AppError('unauthorized');
}

/** A sync row as the import's raw row: JSON null and an absent key are both "no value"; only `id_instruction` cares which. */
function rawOfSyncRow(row: PatentSyncRow) {
  const values: Partial<Record<PatentPortfolioField, unknown>> = {};
  const present = new Set<PatentPortfolioField>();
  for (const field of PATENT_PORTFOLIO_FIELDS) {
    if (field in row) {
      values[field] = (row as Record<string, unknown>)[field];
      present.add(field);
    }
  }
  return { values, present };
}

/**
 * Upserts one batch of the integration (at most 1,000 rows) with the import's code: the same checks,
 * computed fields and currency conversion, the same "nothing changed, nothing written"; an
 * instruction the sync changes is audited with source `sync`. Refused rows are listed (row = index
 * in the batch, from 1); the others are written.
 */
export async function syncPatents(ctx: AppContext, rows: PatentSyncRow[]) {
  const tally = new PortfolioTally(PATENT_SYNC_MAX_ROWS, await loadRates(ctx.db), engineDay(ctx.clock.now()), await loadInstructionIds(ctx.db));
  rows.forEach((row, index) => tally.add(index + 1, rawOfSyncRow(row)));
  await tally.flush(ctx.db, 'sync', ctx.clock.now());
  return { inserted: tally.inserted, updated: tally.updated, unchanged: tally.unchanged, rejected: tally.rejected, flagged: tally.flagged, rejections: tally.rejections };
}

/** An export run now (the admin's button): the queue's job, with a fresh id so it is never mistaken for a pending scheduled one. */
export async function triggerExport(ctx: AppContext): Promise<void> {
  await ctx.queue.enqueue('patent-export', { trigger: randomUUID() });
}

/** The day's reminders now (by hand): the same job as the schedule's; what was sent today is not sent again. */
export async function triggerReminders(ctx: AppContext): Promise<void> {
  await ctx.queue.enqueue('patent-reminders', { day: ctx.clock.now().toISOString().slice(0, 10) });
}

const toBatchDto = (row: typeof patentExportBatches.$inferSelect): PatentExportBatchDto => ({
  _id: row.id,
  name: row.name,
  patent_count: row.patentCount,
  created: row.createdAt.toISOString(),
});

export async function listExports(ctx: AppContext, query: PatentPagedQuery) {
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(patentExportBatches);
  const rows = await exportsPageQuery(ctx.db, query);
  return { patent_exports: rows.map(toBatchDto), meta: paginationMeta(query.page, query.limit, total) };
}

/** One page of the export batches, newest first. */
export function exportsPageQuery(db: Database, query: PatentPagedQuery) {
  return db
    .select()
    .from(patentExportBatches)
    .orderBy(desc(patentExportBatches.createdAt), desc(patentExportBatches.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
}

export async function findExport(ctx: AppContext, id: string) {
  const [row] = await ctx.db.select().from(patentExportBatches).where(eq(patentExportBatches.id, id));
  if (!row) throw new AppError('not_found');
  return row;
}
