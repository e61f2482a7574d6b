import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { ledesRuns } from '@portal/db';
import type { RealtimePublisher } from '@portal/realtime';
import { toRunDto, type LedesRunRow } from '../ledes/runs.ts';
import { defineRunKind } from '../run-kind.ts';

/** Reason codes a run in Error carries (`error_code`), translated by the web (`ledes.result.errorReason.*`). */
export const LEDES_ERROR_CODES = {
  /** Every attempt failed (infrastructure faults outlasting the retries, or a bug). */
  failed: 'processing_failed',
  /** Nobody worked on the run for longer than the queue's timeout (worker gone for good). */
  interrupted: 'interrupted',
} as const;

/** A running LEDES job touches its row this often, so silence past the timeout means nobody works on it. */
export const LEDES_HEARTBEAT_MS = 60_000;

/**
 * LEDES checks as a run kind (`ledes_runs`): a run silent for 10 minutes (ten missed heartbeats) is
 * closed by the timeout sweep; the last failed attempt moves it to Error. A Done run whose recorded
 * delivery to step 2 was not made, or whose treated workbook was not stored (its job ran out of
 * attempts while storage was down, or its process died after the commit: decision 182), is enqueued
 * again once no live holder leases it: its job only does what is left (deliverOnce, writeTreatedOnce).
 */
export const ledesRunKind = defineRunKind({
  kind: 'ledes',
  queue: 'ledes',
  table: ledesRuns,
  tableName: 'ledes_runs',
  idOf: ({ runId }) => runId,
  payloadOf: (runId) => ({ runId }),
  timeoutMs: 10 * LEDES_HEARTBEAT_MS,
  errorCodes: LEDES_ERROR_CODES,
  toDto: toRunDto,
  event: 'ledes:run',
  ownerOf: (run) => run.ownerId,
  progressToAdmins: true,
  alsoEnqueueWhen: (olderThan) =>
    and(
      eq(ledesRuns.state, 'Done'),
      or(and(isNotNull(ledesRuns.deliveredKey), isNull(ledesRuns.deliveredAt)), isNull(ledesRuns.treatedKey)),
      lt(ledesRuns.updatedAt, olderThan),
    ),
  handlesFinished: true,
  // The workbook's phase is leased as the check is (decision 182): one execution writes it, the sweep
  // and a second job leave it to a live holder, and take it over once the holder's lease expired.
  leasedWhenFinished: () => and(eq(ledesRuns.state, 'Done'), isNull(ledesRuns.treatedKey))!,
});

/** Publishes a run's new state to its owner and to the admins (the run kind's publish). */
export function publishRun(realtime: RealtimePublisher, run: LedesRunRow): void {
  ledesRunKind.publish(realtime, run, { transition: true });
}
