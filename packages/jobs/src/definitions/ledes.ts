import { and, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { ledesRuns } from '@portal/db';
import { DEFAULT_RETRY, defineJob, type Processor } from '@portal/queue';
import { toRunDto } from '../ledes/runs.ts';
import { createCheckLedesProcessor, type CheckLedesDeps } from '../processors/check-ledes.ts';
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
 * delivery to step 2 was not made (its job ran out of attempts while storage was down) is enqueued
 * again: its job only delivers (deliverOnce).
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
    and(eq(ledesRuns.state, 'Done'), isNotNull(ledesRuns.deliveredKey), isNull(ledesRuns.deliveredAt), lt(ledesRuns.updatedAt, olderThan)),
  handlesFinished: true,
  processor: (ports: CheckLedesDeps) => withHeartbeat(ports, createCheckLedesProcessor(ports)),
});

/** The `ledes` queue: checks one uploaded file (`check-ledes.ts`), under the run kind's lease. */
export const ledesJob = defineJob<'ledes', CheckLedesDeps>({
  queue: 'ledes',
  timeoutMs: ledesRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 2,
  processor: (ports) => ledesRunKind.process(ports),
  onFinalFailure: (ports) => ledesRunKind.onFinalFailure(ports),
});

/** Touches `updated_at` of the run while the processor works on it; a missed beat is only logged. */
export function withHeartbeat(ports: CheckLedesDeps, processor: Processor<'ledes'>, everyMs = LEDES_HEARTBEAT_MS): Processor<'ledes'> {
  return async (payload, ctx) => {
    let beating: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      beating = ports.db
        .update(ledesRuns)
        .set({ updatedAt: ports.clock?.now() ?? new Date() })
        .where(and(eq(ledesRuns.id, payload.runId), eq(ledesRuns.state, 'in_progress')))
        .catch((error: unknown) => ports.logger.warn({ err: error, runId: payload.runId }, 'ledes heartbeat failed'));
    }, everyMs);
    try {
      await processor(payload, ctx);
    } finally {
      clearInterval(timer);
      await beating;
    }
  };
}

/**
 * Moves to Error ("interrupted") the started runs nobody has worked on for `timeoutMs` (Outline's
 * ErrorTimedOutFileOperationsTask), except those whose job merely waits its turn in the queue or
 * whose lease is held. Publishes each closed run. Returns how many were closed.
 */
export function closeSilentLedesRuns(ports: Pick<CheckLedesDeps, 'db' | 'realtime'>, isQueued: (runId: string) => Promise<boolean>, now: Date, timeoutMs = ledesJob.timeoutMs): Promise<number> {
  return ledesRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
