import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { ledesRuns } from '@portal/db';
import { DEFAULT_RETRY, defineJob, type Processor } from '@portal/queue';
import { createCheckLedesProcessor, markLedesRunFailed, publishRun, type CheckLedesDeps } from '../processors/check-ledes.ts';

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
 * The `ledes` queue: checks one uploaded file (`check-ledes.ts`). A run silent for 10 minutes (ten
 * missed heartbeats) is closed by the timeout sweep; the last failed attempt moves it to Error.
 */
export const ledesJob = defineJob<'ledes', CheckLedesDeps>({
  queue: 'ledes',
  timeoutMs: 10 * LEDES_HEARTBEAT_MS,
  retry: DEFAULT_RETRY,
  concurrency: 2,
  processor: (ports) => withHeartbeat(ports, createCheckLedesProcessor(ports)),
  onFinalFailure: (ports) => async ({ runId }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, runId, attemptsMade }, 'ledes job failed for good');
    await markLedesRunFailed(ports, runId, LEDES_ERROR_CODES.failed);
  },
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
 * ErrorTimedOutFileOperationsTask), except those whose job merely waits its turn in the queue.
 * Publishes each closed run. Returns how many were closed.
 */
export async function closeSilentLedesRuns(
  ports: Pick<CheckLedesDeps, 'db' | 'realtime'>,
  isQueued: (runId: string) => Promise<boolean>,
  now: Date,
  timeoutMs = ledesJob.timeoutMs,
): Promise<number> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const silent = await ports.db
    .select({ id: ledesRuns.id })
    .from(ledesRuns)
    .where(and(eq(ledesRuns.state, 'in_progress'), isNotNull(ledesRuns.startedAt), lt(ledesRuns.updatedAt, cutoff)))
    .limit(500);
  const abandoned: string[] = [];
  for (const { id } of silent) if (!(await isQueued(id))) abandoned.push(id);
  if (abandoned.length === 0) return 0;
  const closed = await ports.db
    .update(ledesRuns)
    .set({ state: 'Error', errorCode: LEDES_ERROR_CODES.interrupted, finishedAt: now, updatedAt: now })
    // Re-checked in the statement: a run that finished or beat since the select is left alone.
    .where(and(inArray(ledesRuns.id, abandoned), eq(ledesRuns.state, 'in_progress'), lt(ledesRuns.updatedAt, cutoff)))
    .returning();
  for (const run of closed) publishRun(ports.realtime, run);
  return closed.length;
}
