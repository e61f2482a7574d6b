import { and, eq, isNotNull } from 'drizzle-orm';
import { registerSyncRuns } from '@portal/db';
import { toRegisterSyncDto } from '../registers/sync.ts';
import { defineRunKind } from '../run-kind.ts';

/**
 * Register sync runs as a run kind (`register_sync_runs`, decision 196). A running sync touches its row with every
 * patent (a few seconds apart, paced by OPS), so ten minutes of silence means nobody works on it; a paused run holds
 * its lease until `paused_until`, so neither the sweep nor the silent close takes it before, and the sweep takes it
 * again as soon as its pause is over (not three heartbeats of silence later: a 30 s Retry-After resumed after 3–4
 * minutes). Its events go to the admins (and to the admin who asked for it).
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
  // A paused run once its pause is over: `toEnqueue` adds "not leased", and the pause's lease expires at `paused_until`.
  alsoEnqueueWhen: () => and(eq(registerSyncRuns.state, 'in_progress'), isNotNull(registerSyncRuns.pausedUntil)),
  toDto: toRegisterSyncDto,
  event: 'registers:sync:updated',
  // The admin who asked for the run gets its events in their own room too (a scheduled run: the admins' only).
  ownerOf: (row) => row.requestedBy,
  progressToAdmins: true,
});
