import { and, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { JobPayload, QueueName } from '@portal/contracts';
import { annuityFiles, ledesRuns, mails, patentImports, receiptUploads, type Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { QueuePort } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import { closeSilentAnnuityFiles } from './definitions/annuities.ts';
import { closeSilentLedesRuns, LEDES_HEARTBEAT_MS } from './definitions/ledes.ts';
import { mailJob } from './definitions/mail.ts';
import { closeSilentPatentImports } from './definitions/patent-import.ts';
import { closeSilentReceiptUploads } from './definitions/receipts.ts';

const BATCH = 500;
/** A job normally starts within seconds; older rows lost their enqueue. */
export const NOT_STARTED_AFTER_MS = 2 * 60_000;
/** A started run that missed three heartbeats may have lost its job (Redis lost its data): enqueue it again. */
export const SILENT_RUN_AFTER_MS = 3 * LEDES_HEARTBEAT_MS;

export interface SweepPorts {
  db: Database;
  queue: QueuePort;
  realtime: RealtimePublisher;
  logger: Logger;
  clock: { now(): Date };
}

/**
 * Enqueues jobs for rows that are already committed. A failure (Redis down) is logged, not thrown:
 * the row is the truth and the sweep enqueues it again, so the caller's answer stays true.
 */
export async function enqueueCommitted<Q extends QueueName>(ports: Pick<SweepPorts, 'queue' | 'logger'>, queue: Q, payloads: JobPayload<Q>[]): Promise<void> {
  for (const payload of payloads) {
    try {
      await ports.queue.enqueue(queue, payload);
    } catch (error) {
      ports.logger.warn({ err: error, queue, payload }, 'enqueue failed; the sweep will retry');
    }
  }
}

/**
 * What the database says is waiting goes back to the queue, and what nobody works on any more ends:
 * 1. unsent mail (younger than the mail queue's timeout), in-progress LEDES runs not started or
 *    silent, and Done runs whose recorded delivery to step 2 was not made are enqueued again; job ids are deterministic, so a pending job makes it a no-op, and a
 *    finished one (failed while SMTP or the database was down) is replaced;
 * 2. started runs silent past the ledes queue's timeout, whose job is not waiting its turn, move to
 *    Error ("interrupted").
 * `everything` (the embedded mode at start, and any node as soon as Redis is back) takes every
 * waiting row at once instead of only the old ones.
 */
export async function sweepJobs(ports: SweepPorts, options: { everything?: boolean } = {}): Promise<{ mails: number; ledes: number; annuities: number; interrupted: number }> {
  const now = ports.clock.now();
  const at = (msAgo: number) => new Date(now.getTime() - (options.everything ? 0 : msAgo));

  const unsent = await ports.db
    .select({ id: mails.id })
    .from(mails)
    .where(and(isNull(mails.sentAt), lt(mails.createdAt, at(NOT_STARTED_AFTER_MS)), gt(mails.createdAt, new Date(now.getTime() - mailJob.timeoutMs))))
    .limit(BATCH);
  await enqueueCommitted(ports, 'mail', unsent.map((m) => ({ mailId: m.id })));

  const waiting = await ports.db
    .select({ id: ledesRuns.id })
    .from(ledesRuns)
    .where(
      or(
        and(
          eq(ledesRuns.state, 'in_progress'),
          or(and(isNull(ledesRuns.startedAt), lt(ledesRuns.createdAt, at(NOT_STARTED_AFTER_MS))), lt(ledesRuns.updatedAt, at(SILENT_RUN_AFTER_MS))),
        ),
        // Done, with a delivery recorded but not made: its job ran out of attempts while storage was
        // down. The job of a Done run only delivers (deliverOnce), so it is simply run again.
        and(eq(ledesRuns.state, 'Done'), isNotNull(ledesRuns.deliveredKey), isNull(ledesRuns.deliveredAt), lt(ledesRuns.updatedAt, at(NOT_STARTED_AFTER_MS))),
      ),
    )
    .limit(BATCH);
  await enqueueCommitted(ports, 'ledes', waiting.map((r) => ({ runId: r.id })));

  // Annuity files: checks not started or silent, and Done files whose export misses an edit.
  const annuities = await ports.db
    .select({ id: annuityFiles.id })
    .from(annuityFiles)
    .where(
      or(
        and(
          eq(annuityFiles.state, 'in_progress'),
          or(and(isNull(annuityFiles.startedAt), lt(annuityFiles.createdAt, at(NOT_STARTED_AFTER_MS))), lt(annuityFiles.updatedAt, at(SILENT_RUN_AFTER_MS))),
        ),
        and(eq(annuityFiles.state, 'Done'), eq(annuityFiles.exportStale, true), lt(annuityFiles.updatedAt, at(NOT_STARTED_AFTER_MS))),
      ),
    )
    .limit(BATCH);
  await enqueueCommitted(ports, 'annuities', annuities.map((f) => ({ fileId: f.id })));

  // Portfolio imports not started or silent (their enqueue was lost, or Redis lost the job).
  const imports = await ports.db
    .select({ id: patentImports.id })
    .from(patentImports)
    .where(
      and(
        eq(patentImports.state, 'in_progress'),
        or(and(isNull(patentImports.startedAt), lt(patentImports.createdAt, at(NOT_STARTED_AFTER_MS))), lt(patentImports.updatedAt, at(SILENT_RUN_AFTER_MS))),
      ),
    )
    .limit(BATCH);
  await enqueueCommitted(ports, 'patent-import', imports.map((i) => ({ importId: i.id })));

  // Receipt uploads not started or silent, as the imports.
  const uploads = await ports.db
    .select({ id: receiptUploads.id })
    .from(receiptUploads)
    .where(
      and(
        eq(receiptUploads.state, 'in_progress'),
        or(and(isNull(receiptUploads.startedAt), lt(receiptUploads.createdAt, at(NOT_STARTED_AFTER_MS))), lt(receiptUploads.updatedAt, at(SILENT_RUN_AFTER_MS))),
      ),
    )
    .limit(BATCH);
  await enqueueCommitted(ports, 'receipts', uploads.map((u) => ({ uploadId: u.id })));

  const interruptedLedes = await closeSilentLedesRuns(ports, (runId) => ports.queue.isQueued('ledes', { runId }), now);
  if (interruptedLedes > 0) ports.logger.warn({ interrupted: interruptedLedes }, 'ledes runs silent past the timeout moved to Error');
  const interruptedAnnuities = await closeSilentAnnuityFiles(ports, (fileId) => ports.queue.isQueued('annuities', { fileId }), now);
  if (interruptedAnnuities > 0) ports.logger.warn({ interrupted: interruptedAnnuities }, 'annuity checks silent past the timeout moved to Error');
  const interruptedImports = await closeSilentPatentImports(ports, (importId) => ports.queue.isQueued('patent-import', { importId }), now);
  if (interruptedImports > 0) ports.logger.warn({ interrupted: interruptedImports }, 'patent imports silent past the timeout moved to Error');
  const interruptedReceipts = await closeSilentReceiptUploads(ports, (uploadId) => ports.queue.isQueued('receipts', { uploadId }), now);
  if (interruptedReceipts > 0) ports.logger.warn({ interrupted: interruptedReceipts }, 'receipt uploads silent past the timeout moved to Error');
  return { mails: unsent.length, ledes: waiting.length, annuities: annuities.length, interrupted: interruptedLedes + interruptedAnnuities + interruptedImports + interruptedReceipts };
}
