import { and, eq, lt } from 'drizzle-orm';
import { annuityFiles, annuityPatents } from '@portal/db';
import type { RealtimePublisher } from '@portal/realtime';
import { toFileDto, type AnnuityFileRow } from '../annuities/files.ts';
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
});

/**
 * Publishes a file's state to its owner; a transition (Done, Error, a new file) also to the admins,
 * whose list shows everyone's files. Progress goes to the owner only. Codes and numbers only: no
 * database read per event (progress comes every ANNUITY_PROGRESS_MS).
 */
export function publishFile(realtime: RealtimePublisher, file: AnnuityFileRow, options: { admins: boolean }): void {
  annuityRunKind.publish(realtime, file, { transition: options.admins });
}
