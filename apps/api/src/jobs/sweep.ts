import { and, isNull, lt, or, eq } from 'drizzle-orm';
import { ledesRuns, mails } from '@portal/db';
import type { AppContext } from '../context.ts';
import { enqueueCommitted } from './enqueue.ts';

const BATCH = 500;
/** A job normally starts within seconds; older rows lost their enqueue. */
export const NOT_STARTED_AFTER_MS = 2 * 60_000;
/** A started run this quiet lost its worker without BullMQ noticing (e.g. the embedded process restarted). */
export const SILENT_RUN_AFTER_MS = 30 * 60_000;

/**
 * Re-enqueues what the database says is waiting: unsent mail and in-progress LEDES runs. Job ids
 * are deterministic, so a row whose job still exists is a no-op; processors are idempotent.
 * `everything` (the embedded mode at start) takes every waiting row: nothing else can be running them.
 */
export async function sweepWaitingJobs(ctx: AppContext, options: { everything?: boolean } = {}): Promise<{ mails: number; ledes: number }> {
  const now = ctx.clock.now().getTime();
  const notStarted = new Date(options.everything ? now : now - NOT_STARTED_AFTER_MS);
  const silent = new Date(options.everything ? now : now - SILENT_RUN_AFTER_MS);

  const unsent = await ctx.db
    .select({ id: mails.id })
    .from(mails)
    .where(and(isNull(mails.sentAt), lt(mails.createdAt, notStarted)))
    .limit(BATCH);
  await enqueueCommitted(ctx, 'mail', unsent.map((m) => ({ mailId: m.id })));

  const waiting = await ctx.db
    .select({ id: ledesRuns.id })
    .from(ledesRuns)
    .where(
      and(
        eq(ledesRuns.state, 'in_progress'),
        or(and(isNull(ledesRuns.startedAt), lt(ledesRuns.createdAt, notStarted)), lt(ledesRuns.updatedAt, silent)),
      ),
    )
    .limit(BATCH);
  await enqueueCommitted(ctx, 'ledes', waiting.map((r) => ({ runId: r.id })));
  return { mails: unsent.length, ledes: waiting.length };
}
