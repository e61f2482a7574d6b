import { and, eq, lt } from 'drizzle-orm';
import { annuityFiles, annuityPatents } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { toFileDto } from '../annuities/files.ts';
import { createCheckAnnuitiesProcessor, type CheckAnnuitiesDeps } from '../processors/check-annuities.ts';
import { defineRunKind } from '../run-kind.ts';

/** Reason codes of a file in Error besides the engine's own (translated under annuities:reason.*). */
export const ANNUITY_ERROR_CODES = { failed: 'processing_failed', interrupted: 'interrupted' } as const;

/**
 * Annuity checks as a run kind (`annuity_files`). A running check touches its row with every
 * progress update (at least every ANNUITY_PROGRESS_MS while rows come in), so ten minutes of silence
 * means nobody works on it. A Done file whose export misses an edit is enqueued again (its job
 * rewrites the export). A file in Error shows no rows: what a partial attempt stored goes with it.
 */
export const annuityRunKind = defineRunKind({
  kind: 'annuities',
  queue: 'annuities',
  table: annuityFiles,
  tableName: 'annuity_files',
  idOf: ({ fileId }) => fileId,
  payloadOf: (fileId) => ({ fileId }),
  timeoutMs: 10 * 60_000,
  errorCodes: ANNUITY_ERROR_CODES,
  toDto: (file) => toFileDto(file, null),
  event: 'annuities:file:updated',
  ownerOf: (file) => file.ownerId,
  progressToAdmins: false,
  alsoEnqueueWhen: (olderThan) => and(eq(annuityFiles.state, 'Done'), eq(annuityFiles.exportStale, true), lt(annuityFiles.updatedAt, olderThan)),
  inErrorTransaction: async (tx, file) => {
    await tx.delete(annuityPatents).where(eq(annuityPatents.fileId, file.id));
  },
  handlesFinished: true,
  processor: (ports: CheckAnnuitiesDeps) => createCheckAnnuitiesProcessor(ports),
});

/**
 * The `annuities` queue: checks one uploaded spreadsheet, or rewrites the export of a Done file after
 * edits (`check-annuities.ts`), under the run kind's lease.
 */
export const annuitiesJob = defineJob<'annuities', CheckAnnuitiesDeps>({
  queue: 'annuities',
  timeoutMs: annuityRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => annuityRunKind.process(ports),
  onFinalFailure: (ports) => annuityRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started checks nobody has worked on for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentAnnuityFiles(ports: Pick<CheckAnnuitiesDeps, 'db' | 'realtime'>, isQueued: (fileId: string) => Promise<boolean>, now: Date, timeoutMs = annuitiesJob.timeoutMs): Promise<number> {
  return annuityRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
