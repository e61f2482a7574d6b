import { eq } from 'drizzle-orm';
import type { ReceiptUploadDto } from '@portal/contracts';
import { receiptUploads, type Executor } from '@portal/db';

export type ReceiptUploadRow = typeof receiptUploads.$inferSelect;

export function toReceiptUploadDto(row: ReceiptUploadRow): ReceiptUploadDto {
  return {
    _id: row.id,
    name: row.originalName,
    size: row.size,
    state: row.state,
    error_code: row.errorCode,
    entries_total: row.entriesTotal,
    entries_done: row.entriesDone,
    receipts_created: row.receiptsCreated,
    refused_count: row.refusedCount,
    refused: row.refused,
    created: row.createdAt.toISOString(),
    finished: row.finishedAt?.toISOString() ?? null,
  };
}

export async function loadReceiptUpload(db: Executor, id: string): Promise<ReceiptUploadRow | undefined> {
  const [row] = await db.select().from(receiptUploads).where(eq(receiptUploads.id, id));
  return row;
}

