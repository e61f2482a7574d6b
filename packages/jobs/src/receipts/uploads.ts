import { eq } from 'drizzle-orm';
import type { ReceiptUploadDto } from '@portal/contracts';
import { receiptUploads, type Executor } from '@portal/db';
import type { RealtimePublisher } from '@portal/realtime';
import { receiptRunKind } from '../definitions/receipts.ts';

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

/** Progress and result to the uploader (user room) and the admins (admin room), as the other runs. */
export function publishReceiptUpload(realtime: RealtimePublisher, row: ReceiptUploadRow): void {
  receiptRunKind.publish(realtime, row, { transition: true });
}
