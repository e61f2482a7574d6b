import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { paginationMeta, type ReceiptDto, type ReceiptLinkBody, type ReceiptListQuery } from '@portal/contracts';
import { patentRecords, receiptUploads, receipts, type Database } from '@portal/db';
import { enqueueCommitted, PDF_SNIFF_BYTES, publishReceiptUpload, receiptUploadKind, toReceiptUploadDto, writeLedger } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import { uploadHead, type StoredUpload } from '../../domain/uploads.ts';
import type { AuthState } from '../../domain/auth.ts';
import { readPatent, readScope, type PatentScope } from '../patents/index.ts';
import { likePattern } from '../../domain/search.ts';


/**
 * A file is required (spec §5), not empty, and really what its name says (`receiptUploadKind`, the
 * worker's own reading): a `.zip` starts with a zip signature, a `.pdf` holds `%PDF-` in its first
 * 1,024 bytes and starts with no zip signature. Then the row (in_progress), enqueued
 * after the commit; the uploader and the admins are told.
 */
export async function submitReceipts(ctx: AppContext, actor: AuthState, upload: StoredUpload | undefined) {
  if (!upload) throw new AppError('error_choose_file');
  if (upload.size === 0) throw new AppError('empty_file');
  const head = await uploadHead(ctx.storage, upload.key, PDF_SNIFF_BYTES);
  const isZip = upload.originalName.toLowerCase().endsWith('.zip');
  if (receiptUploadKind(head) !== (isZip ? 'zip' : 'pdf')) throw new AppError('wrong_receipt_type');
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(receiptUploads)
    .values({ ownerId: actor.userId, originalName: upload.originalName, storageKey: upload.key, size: upload.size, sha256: upload.sha256, createdAt: now, updatedAt: now })
    .returning();
  await enqueueCommitted(ctx, 'receipts', [{ uploadId: row!.id }]);
  publishReceiptUpload(ctx.realtime, row!);
  return row!;
}

/** The caller's own uploads, newest first (an admin's too: the upload page lists one's own runs). */
export async function listUploads(ctx: AppContext, actor: AuthState, page: number, limit: number) {
  const mine = eq(receiptUploads.ownerId, actor.userId);
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(receiptUploads).where(mine);
  const rows = await uploadsPageQuery(ctx.db, actor.userId, page, limit);
  return { uploads: rows.map(toReceiptUploadDto), meta: paginationMeta(page, limit, total) };
}

/** One page of a user's receipt uploads, newest first. */
export function uploadsPageQuery(db: Database, userId: string, page: number, limit: number) {
  return db
    .select()
    .from(receiptUploads)
    .where(eq(receiptUploads.ownerId, userId))
    .orderBy(desc(receiptUploads.createdAt), desc(receiptUploads.id))
    .limit(limit)
    .offset((page - 1) * limit);
}

/**
 * Which receipts the caller sees (decision 121): all for an admin; else those of its cabinets and
 * client codes (the patents' read scope) and those it uploaded itself.
 */
async function visibility(ctx: AppContext, actor: AuthState): Promise<SQL | undefined> {
  return visibleTo(ctx.db, actor.userId, await readScope(ctx, actor));
}

/** The receipts a scope sees: everything, or its cabinets', its codes' and those `userId` uploaded. */
export function visibleTo(db: Database, userId: string, scope: PatentScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  // `= any(array(…))`, not `in (…)`: an IN subquery inside an OR is a filter on every receipt; an array computed once
  // lets each part of the OR read its own index (a bitmap OR of the scope's receipts).
  const mine = db.select({ id: receiptUploads.id }).from(receiptUploads).where(eq(receiptUploads.ownerId, userId));
  const parts: SQL[] = [sql`${receipts.uploadId} = any(array(${mine}))`];
  if (scope.cabinetIds.length > 0) parts.push(inArray(receipts.cabinetId, scope.cabinetIds));
  if (scope.codes.length > 0) parts.push(inArray(receipts.clientCode, scope.codes));
  return or(...parts);
}

type ReceiptRow = typeof receipts.$inferSelect;
type PatentLink = { id: string | null; idagenda: string | null; referenceClient: string | null };

export function toReceiptDto(row: ReceiptRow, patent: PatentLink | null): ReceiptDto {
  return {
    _id: row.id,
    reference_client: row.referenceClient,
    reference_inpi: row.referenceInpi,
    reference_provider: row.referenceProvider,
    date_ordre_paiement: row.dateOrdrePaiement,
    path: row.storageKey,
    file_name: row.fileName,
    size: row.size,
    source: row.source,
    needs_completion: row.needsCompletion,
    pdf_error: row.pdfError,
    patent: patent?.id && patent.idagenda ? { _id: patent.id, idagenda: patent.idagenda, ReferenceClient: patent.referenceClient } : null,
    upload_id: row.uploadId,
    created: row.createdAt.toISOString(),
    match_confidence: row.matchConfidence,
    ...(row.matchDetail ? { match_candidates: row.matchDetail.candidates } : {}),
  };
}

const SORT_COLUMNS = {
  created: receipts.createdAt,
  reference_client: receipts.referenceClient,
  reference_inpi: receipts.referenceInpi,
  reference_provider: receipts.referenceProvider,
  date_ordre_paiement: receipts.dateOrdrePaiement,
  file_name: receipts.fileName,
} as const;

function selectReceipts(db: Database) {
  return db
    .select({ receipt: receipts, patent: { id: patentRecords.id, idagenda: patentRecords.idagenda, referenceClient: patentRecords.referenceClient } })
    .from(receipts)
    .leftJoin(patentRecords, eq(patentRecords.id, receipts.patentId));
}

/** GET /recepisse: searched (references, file name), sorted and paged in the database. */
export async function listReceipts(ctx: AppContext, actor: AuthState, query: ReceiptListQuery) {
  const where = receiptsWhere(await visibility(ctx, actor), query);
  const [{ total } = { total: 0 }] = await receiptsCountQuery(ctx.db, where);
  const rows = await receiptsPageQuery(ctx.db, where, query);
  return { recepisse: rows.map((r) => toReceiptDto(r.receipt, r.patent)), meta: paginationMeta(query.page, query.limit, total) };
}

/** The conditions of a receipts list: the caller's visibility, the search, "to complete". */
export function receiptsWhere(visible: SQL | undefined, query: Pick<ReceiptListQuery, 'search' | 'to_complete' | 'unlinked'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [visible];
  if (query.search) {
    const like = likePattern(query.search);
    conditions.push(or(ilike(receipts.referenceClient, like), ilike(receipts.referenceInpi, like), ilike(receipts.referenceProvider, like), ilike(receipts.fileName, like)));
  }
  if (query.to_complete === '1') conditions.push(eq(receipts.needsCompletion, true));
  if (query.unlinked === '1') conditions.push(isNull(receipts.patentId));
  return and(...conditions);
}

/** The count of a receipts list. */
export function receiptsCountQuery(db: Database, where: SQL | undefined) {
  return db.select({ total: count() }).from(receipts).where(where);
}

/** One page of receipts in the requested order. */
export function receiptsPageQuery(db: Database, where: SQL | undefined, query: Pick<ReceiptListQuery, 'sort' | 'order' | 'page' | 'limit'>) {
  const column = SORT_COLUMNS[query.sort];
  const direction = query.order === 'asc' ? asc : desc;
  return selectReceipts(db)
    .where(where)
    .orderBy(direction(column), direction(receipts.createdAt), direction(receipts.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
}

/** One receipt the caller may see, or a 404 (someone else's receipt is not found, not forbidden). */
export async function readReceipt(ctx: AppContext, actor: AuthState, by: { id: string } | { key: string }) {
  const match = 'id' in by ? eq(receipts.id, by.id) : eq(receipts.storageKey, by.key);
  const [row] = await selectReceipts(ctx.db)
    .where(and(match, await visibility(ctx, actor)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return { row: row.receipt, dto: toReceiptDto(row.receipt, row.patent) };
}

/** The receipts of a patent the caller may read (the detail modal); the patent's own 404 rule first. */
export async function patentReceipts(ctx: AppContext, actor: AuthState, patentId: string): Promise<ReceiptDto[]> {
  await readPatent(ctx, actor, patentId);
  const rows = await selectReceipts(ctx.db)
    .where(and(eq(receipts.patentId, patentId), await visibility(ctx, actor)))
    .orderBy(desc(receipts.createdAt), desc(receipts.id))
    .limit(200);
  return rows.map((r) => toReceiptDto(r.receipt, r.patent));
}

/**
 * POST /receipts/{id}/link (staff, decision 192): links a receipt the matcher left unlinked to the patent record it
 * pays and marks the year paid on the ledger, source `staff`, with the staff member (audited), in one transaction.
 * A receipt linked meanwhile is a 409; a year the register says lapsed is refused (409) and nothing changes.
 */
export async function linkReceipt(ctx: AppContext, actor: AuthState, id: string, body: ReceiptLinkBody): Promise<ReceiptDto> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [receipt] = await tx.select().from(receipts).where(eq(receipts.id, id)).for('update');
    if (!receipt) throw new AppError('not_found');
    if (receipt.patentId !== null) throw new AppError('receipt_already_linked');
    const [patent] = await tx.select().from(patentRecords).where(eq(patentRecords.id, body.patent_id));
    if (!patent) throw new AppError('not_found', { fields: { patent_id: 'not_found' } });
    const year = body.year ?? patent.quantieme;
    if (year === null) throw new AppError('receipt_year_required', { fields: { year: 'receipt_year_required' } });
    await tx
      .update(receipts)
      .set({ patentId: patent.id, cabinetId: patent.cabinetId, clientCode: patent.clientCode, linkedBy: actor.userId })
      .where(eq(receipts.id, id));
    const [outcome] = await writeLedger(
      tx,
      [{ recordId: patent.id, annuityYear: year, userId: actor.userId, event: { kind: 'receipt', source: 'staff', receiptId: id, paidOn: receipt.dateOrdrePaiement, amount: null, currency: null } }],
      { at: now },
    );
    if (!outcome?.transition?.ok) throw new AppError('receipt_link_refused');
  });
  return (await readReceipt(ctx, actor, { id })).dto;
}
