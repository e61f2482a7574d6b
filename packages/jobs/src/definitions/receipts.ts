import { receiptUploads } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createReadReceiptsProcessor, deleteUnrecordedObjects, type ReadReceiptsDeps } from '../processors/read-receipts.ts';
import { toReceiptUploadDto } from '../receipts/uploads.ts';
import { defineRunKind } from '../run-kind.ts';

/**
 * Receipt uploads as a run kind (`receipt_uploads`). A running upload touches its row with every
 * progress update (every 0.5 s), so ten minutes of silence means nobody works on it. An upload in
 * Error keeps no object its attempts stored without their rows.
 */
export const receiptRunKind = defineRunKind({
  kind: 'receipts',
  queue: 'receipts',
  table: receiptUploads,
  tableName: 'receipt_uploads',
  idOf: ({ uploadId }) => uploadId,
  payloadOf: (uploadId) => ({ uploadId }),
  timeoutMs: 10 * 60_000,
  errorCodes: { failed: 'processing_failed', interrupted: 'interrupted' },
  toDto: toReceiptUploadDto,
  event: 'receipts:upload:updated',
  ownerOf: (row) => row.ownerId,
  progressToAdmins: true,
  afterError: (ports: ReadReceiptsDeps, row) => deleteUnrecordedObjects(ports, row),
  processor: (ports: ReadReceiptsDeps) => createReadReceiptsProcessor(ports),
});

/** The `receipts` queue: makes one upload (a PDF or a zip of PDFs) into receipts (`read-receipts.ts`), under the run kind's lease. */
export const receiptsJob = defineJob<'receipts', ReadReceiptsDeps>({
  queue: 'receipts',
  timeoutMs: receiptRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => receiptRunKind.process(ports),
  onFinalFailure: (ports) => receiptRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started uploads silent for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentReceiptUploads(ports: Pick<ReadReceiptsDeps, 'db' | 'realtime'>, isQueued: (uploadId: string) => Promise<boolean>, now: Date, timeoutMs = receiptsJob.timeoutMs): Promise<number> {
  return receiptRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
