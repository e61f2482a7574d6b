import { receiptUploads } from '@portal/db';
import type { RealtimePublisher } from '@portal/realtime';
import { deleteUnrecordedObjects, type ReceiptObjectsDeps } from '../receipts/objects.ts';
import { toReceiptUploadDto, type ReceiptUploadRow } from '../receipts/uploads.ts';
import { defineRunKind, type RunPorts } from '../run-kind.ts';

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
  afterError: (ports: ReceiptObjectsDeps & RunPorts, row: ReceiptUploadRow) => deleteUnrecordedObjects(ports, row),
});

/** Progress and result to the uploader (user room) and the admins (admin room), as the other runs. */
export function publishReceiptUpload(realtime: RealtimePublisher, row: ReceiptUploadRow): void {
  receiptRunKind.publish(realtime, row, { transition: true });
}
