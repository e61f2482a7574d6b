import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createReadReceiptsProcessor, type ReadReceiptsDeps } from '../processors/read-receipts.ts';
import { receiptRunKind } from '../kinds/receipts.ts';

export { receiptRunKind } from '../kinds/receipts.ts';


/** The `receipts` queue: makes one upload (a PDF or a zip of PDFs) into receipts (`read-receipts.ts`), under the run kind's lease. */
export const receiptsJob = defineJob<'receipts', ReadReceiptsDeps>({
  queue: 'receipts',
  timeoutMs: receiptRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => receiptRunKind.process(ports, createReadReceiptsProcessor(ports)),
  onFinalFailure: (ports) => receiptRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started uploads silent for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentReceiptUploads(ports: Pick<ReadReceiptsDeps, 'db' | 'realtime'>, isQueued: (uploadId: string) => Promise<boolean>, now: Date, timeoutMs = receiptsJob.timeoutMs): Promise<number> {
  return receiptRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
