import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { annuityFiles } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { publishFile } from '../annuities/files.ts';
import { createCheckAnnuitiesProcessor, markAnnuityFileFailed, type CheckAnnuitiesDeps } from '../processors/check-annuities.ts';

/** Reason codes of a file in Error besides the engine's own (translated under annuities:reason.*). */
export const ANNUITY_ERROR_CODES = { failed: 'processing_failed', interrupted: 'interrupted' } as const;

/**
 * The `annuities` queue: checks one uploaded spreadsheet, or rewrites the export of a Done file after
 * edits (`check-annuities.ts`). A running check touches its row with every progress update (at least
 * every ANNUITY_PROGRESS_MS while rows come in), so ten minutes of silence means nobody works on it.
 */
export const annuitiesJob = defineJob<'annuities', CheckAnnuitiesDeps>({
  queue: 'annuities',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createCheckAnnuitiesProcessor(ports),
  onFinalFailure: (ports) => async ({ fileId }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, fileId, attemptsMade }, 'annuities job failed for good');
    await markAnnuityFileFailed(ports, fileId, ANNUITY_ERROR_CODES.failed);
  },
});

/** Moves to Error ("interrupted") the started checks nobody has worked on for the queue's timeout, unless their job waits its turn. */
export async function closeSilentAnnuityFiles(
  ports: Pick<CheckAnnuitiesDeps, 'db' | 'realtime'>,
  isQueued: (fileId: string) => Promise<boolean>,
  now: Date,
  timeoutMs = annuitiesJob.timeoutMs,
): Promise<number> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const silent = await ports.db
    .select({ id: annuityFiles.id })
    .from(annuityFiles)
    .where(and(eq(annuityFiles.state, 'in_progress'), isNotNull(annuityFiles.startedAt), lt(annuityFiles.updatedAt, cutoff)))
    .limit(500);
  const abandoned: string[] = [];
  for (const { id } of silent) if (!(await isQueued(id))) abandoned.push(id);
  if (abandoned.length === 0) return 0;
  const closed = await ports.db
    .update(annuityFiles)
    .set({ state: 'Error', errorCode: ANNUITY_ERROR_CODES.interrupted, finishedAt: now, updatedAt: now })
    .where(and(inArray(annuityFiles.id, abandoned), eq(annuityFiles.state, 'in_progress'), lt(annuityFiles.updatedAt, cutoff)))
    .returning();
  for (const file of closed) await publishFile(ports.db, ports.realtime, file, { admins: true });
  return closed.length;
}
