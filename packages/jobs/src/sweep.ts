import { and, gt, isNull, lt } from 'drizzle-orm';
import type { JobPayload, QueueName } from '@portal/contracts';
import { mails, type Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { QueuePort } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import { LEDES_HEARTBEAT_MS } from './definitions/ledes.ts';
import { mailJob } from './definitions/mail.ts';
import { RUN_KINDS } from './registry.ts';
import type { RunKind } from './run-kind.ts';

const BATCH = 500;
/** A job normally starts within seconds; older rows lost their enqueue. */
export const NOT_STARTED_AFTER_MS = 2 * 60_000;
/** A started run that missed three heartbeats may have lost its job (Redis lost its data): enqueue it again. */
export const SILENT_RUN_AFTER_MS = 3 * LEDES_HEARTBEAT_MS;

export interface SweepPorts {
  db: Database;
  queue: QueuePort;
  realtime: RealtimePublisher;
  logger: Logger;
  clock: { now(): Date };
}

/**
 * Enqueues jobs for rows that are already committed. A failure (Redis down) is logged, not thrown:
 * the row is the truth and the sweep enqueues it again, so the caller's answer stays true.
 */
export async function enqueueCommitted<Q extends QueueName>(ports: Pick<SweepPorts, 'queue' | 'logger'>, queue: Q, payloads: JobPayload<Q>[]): Promise<void> {
  for (const payload of payloads) {
    try {
      await ports.queue.enqueue(queue, payload);
    } catch (error) {
      ports.logger.warn({ err: error, queue, payload }, 'enqueue failed; the sweep will retry');
    }
  }
}

/**
 * What the database says is waiting goes back to the queue, and what nobody works on any more ends:
 * 1. unsent mail (younger than the mail queue's timeout), and for every run kind (`RUN_KINDS`) its
 *    runs not started or silent and not leased, plus the kind's own extra rows (a LEDES run's delivery
 *    not made, an annuity file's stale export), are enqueued again; job ids are deterministic, so a
 *    pending job makes it a no-op, and a finished one (failed while SMTP or the database was down) is replaced;
 * 2. started runs silent past their queue's timeout, not leased, whose job is not waiting its turn,
 *    move to Error ("interrupted").
 * `everything` (the embedded mode at start, and any node as soon as Redis is back) takes every
 * waiting row at once instead of only the old ones; a leased run is left to its holder even then.
 */
export async function sweepJobs(
  ports: SweepPorts,
  options: { everything?: boolean; kinds?: readonly RunKind[] } = {},
): Promise<{ mails: number; ledes: number; annuities: number; interrupted: number; runs: Record<string, number> }> {
  const now = ports.clock.now();
  const at = (msAgo: number) => new Date(now.getTime() - (options.everything ? 0 : msAgo));

  const unsent = await ports.db
    .select({ id: mails.id })
    .from(mails)
    .where(and(isNull(mails.sentAt), lt(mails.createdAt, at(NOT_STARTED_AFTER_MS)), gt(mails.createdAt, new Date(now.getTime() - mailJob.timeoutMs))))
    .limit(BATCH);
  await enqueueCommitted(ports, 'mail', unsent.map((m) => ({ mailId: m.id })));

  const kinds = options.kinds ?? RUN_KINDS;
  const runs: Record<string, number> = {};
  for (const kind of kinds) {
    const ids = await kind.toEnqueue(ports.db, at(NOT_STARTED_AFTER_MS), at(SILENT_RUN_AFTER_MS), now, BATCH);
    runs[kind.kind] = ids.length;
    await enqueueCommitted(ports, kind.queue as QueueName, ids.map((id) => kind.payloadOf(id)) as never[]);
  }

  let interrupted = 0;
  for (const kind of kinds) {
    const closed = await kind.closeSilent(ports, (id) => ports.queue.isQueued(kind.queue as QueueName, kind.payloadOf(id) as never), now);
    if (closed > 0) ports.logger.warn({ kind: kind.kind, interrupted: closed }, 'runs silent past the timeout moved to Error');
    interrupted += closed;
  }
  return { mails: unsent.length, ledes: runs.ledes ?? 0, annuities: runs.annuities ?? 0, interrupted, runs };
}
