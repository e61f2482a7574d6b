import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { RECEIPT_ZIP_LIMITS } from '@portal/contracts';
import { receipts, type Executor } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Storage } from '@portal/storage';

export interface ReceiptObjectsDeps {
  db: Executor;
  storage: Storage;
  logger: Logger;
}

/**
 * Where entry `index` of an upload is stored: the same key on every attempt (a uuid-shaped digest of
 * the upload and the entry, under the upload's month), so a retried or concurrent attempt rewrites
 * the object an earlier one left instead of adding one no row points to.
 */
export function receiptStorageKey(upload: { id: string; createdAt: Date }, index: number): string {
  const hex = createHash('sha256').update(`receipt:${upload.id}:${index}`).digest('hex');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  const day = upload.createdAt;
  return `receipts/${day.getUTCFullYear()}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${uuid}.pdf`;
}

/** Deletes the objects of an upload's entries that no receipt row points to: every entry's key is known (`receiptStorageKey`). */
export async function deleteUnrecordedObjects(deps: ReceiptObjectsDeps, row: { id: string; createdAt: Date; entriesTotal: number | null }): Promise<void> {
  const uploadId = row.id;
  const entries = Math.min(row.entriesTotal ?? 0, RECEIPT_ZIP_LIMITS.maxEntries);
  const recorded = new Set((await deps.db.select({ key: receipts.storageKey }).from(receipts).where(eq(receipts.uploadId, uploadId))).map((r) => r.key));
  const unrecorded = Array.from({ length: entries }, (_, index) => receiptStorageKey(row, index)).filter((key) => !recorded.has(key));
  const results = await Promise.allSettled(unrecorded.map((key) => deps.storage.delete(key)));
  const failed = results.filter((r) => r.status === 'rejected').length;
  if (failed > 0) deps.logger.warn({ uploadId, failed }, 'receipt upload objects not deleted; the storage clean-up will');
}
