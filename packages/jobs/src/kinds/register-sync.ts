import { registerSyncRuns } from '@portal/db';
import { toRegisterSyncDto } from '../registers/sync.ts';
import { defineRunKind } from '../run-kind.ts';

/**
 * Register sync runs as a run kind (`register_sync_runs`, decision 196). A running sync touches its row with every
 * patent (a few seconds apart, paced by OPS), so ten minutes of silence means nobody works on it; a paused run holds
 * its lease until `paused_until`, so neither the sweep nor the silent close takes it before. Its events go to the
 * admins (and to the admin who asked for it).
 */
export const registerSyncRunKind = defineRunKind({
  kind: 'register-sync',
  queue: 'register-sync',
  table: registerSyncRuns,
  tableName: 'register_sync_runs',
  idOf: ({ runId }: { runId: string }) => runId,
  payloadOf: (runId: string) => ({ runId }),
  timeoutMs: 10 * 60_000,
  errorCodes: { failed: 'sync_failed', interrupted: 'interrupted' },
  toDto: toRegisterSyncDto,
  event: 'registers:sync:updated',
  // The admin who asked for the run gets its events in their own room too (a scheduled run: the admins' only).
  ownerOf: (row) => row.requestedBy,
  progressToAdmins: true,
});
