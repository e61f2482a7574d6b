import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { receiptUploads } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createReadReceiptsProcessor, markReceiptUploadFailed, RECEIPT_ERROR_CODES, type ReadReceiptsDeps } from '../processors/read-receipts.ts';
import { publishReceiptUpload } from '../receipts/uploads.ts';

/**
 * The `receipts` queue: makes one upload (a PDF or a zip of PDFs) into receipts (`read-receipts.ts`).
 * A running upload touches its row with every progress update (every 0.5 s), so ten minutes of
 * silence means nobody works on it.
 */
export const receiptsJob = defineJob<'receipts', ReadReceiptsDeps>({
  queue: 'receipts',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createReadReceiptsProcessor(ports),
  onFinalFailure: (ports) => async ({ uploadId }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, uploadId, attemptsMade }, 'receipt upload failed for good');
    await markReceiptUploadFailed(ports, uploadId, RECEIPT_ERROR_CODES.failed);
  },
});

/** Moves to Error ("interrupted") the started uploads silent for the queue's timeout, unless their job waits its turn. */
export async function closeSilentReceiptUploads(
  ports: Pick<ReadReceiptsDeps, 'db' | 'realtime'>,
  isQueued: (uploadId: string) => Promise<boolean>,
  now: Date,
  timeoutMs = receiptsJob.timeoutMs,
): Promise<number> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const silent = await ports.db
    .select({ id: receiptUploads.id })
    .from(receiptUploads)
    .where(and(eq(receiptUploads.state, 'in_progress'), isNotNull(receiptUploads.startedAt), lt(receiptUploads.updatedAt, cutoff)))
    .limit(500);
  const abandoned: string[] = [];
  for (const { id } of silent) if (!(await isQueued(id))) abandoned.push(id);
  if (abandoned.length === 0) return 0;
  const closed = await ports.db
    .update(receiptUploads)
    .set({ state: 'Error', errorCode: RECEIPT_ERROR_CODES.interrupted, finishedAt: now, updatedAt: now })
    .where(and(inArray(receiptUploads.id, abandoned), eq(receiptUploads.state, 'in_progress'), lt(receiptUploads.updatedAt, cutoff)))
    .returning();
  for (const row of closed) publishReceiptUpload(ports.realtime, row);
  return closed.length;
}
