import { and, eq } from 'drizzle-orm';
import { ledesRuns } from '@portal/db';
import { DEFAULT_RETRY, defineJob, type Processor } from '@portal/queue';
import { createCheckLedesProcessor, type CheckLedesDeps } from '../processors/check-ledes.ts';
import { LEDES_HEARTBEAT_MS, ledesRunKind } from '../kinds/ledes.ts';

export { LEDES_ERROR_CODES, LEDES_HEARTBEAT_MS, ledesRunKind } from '../kinds/ledes.ts';



/** The `ledes` queue: checks one uploaded file (`check-ledes.ts`), under the run kind's lease. */
export const ledesJob = defineJob<'ledes', CheckLedesDeps>({
  queue: 'ledes',
  timeoutMs: ledesRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 2,
  processor: (ports) => ledesRunKind.process(ports, withHeartbeat(ports, createCheckLedesProcessor(ports))),
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
