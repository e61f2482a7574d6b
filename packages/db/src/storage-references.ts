import { inArray } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { annuityFiles, ledesRuns, mailAttachments, patentExportBatches, patentImports, receiptUploads, receipts } from './schema.ts';

/**
 * Every column that holds a storage key, in one place. The storage clean-up deletes objects that no
 * row points to once they are older than its grace period (a request or job that stored a file and
 * failed before committing its row), so a table that stores keys (annuities, receipts…) MUST list
 * its key columns here, or its files are deleted.
 */
export const STORAGE_KEY_COLUMNS = [
  ledesRuns.originalKey,
  ledesRuns.treatedKey,
  ledesRuns.treatedPendingKey,
  ledesRuns.deliveredKey,
  annuityFiles.importKey,
  annuityFiles.exportKey,
  mailAttachments.storageKey,
  patentImports.storageKey,
  patentExportBatches.xlsxKey,
  patentExportBatches.csvKey,
  receiptUploads.storageKey,
  receipts.storageKey,
] as const;

/** The subset of `keys` that some row of STORAGE_KEY_COLUMNS points to. */
export async function referencedStorageKeys(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  const referenced = new Set<string>();
  if (keys.length === 0) return referenced;
  for (const column of STORAGE_KEY_COLUMNS) {
    const rows = await db
      .selectDistinct({ key: column })
      .from(column.table)
      .where(inArray(column, [...keys]));
    for (const { key } of rows) if (key !== null) referenced.add(key);
  }
  return referenced;
}
