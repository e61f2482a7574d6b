import type { JobPayload, QueueName } from '@portal/contracts';
import type { AppContext } from '../context.ts';

/**
 * Enqueues jobs for rows that are already committed. A failure (Redis down) is logged, not thrown:
 * the row is the truth and the sweep enqueues it again, so the caller's answer stays true.
 */
export async function enqueueCommitted<Q extends QueueName>(ctx: AppContext, queue: Q, payloads: JobPayload<Q>[]): Promise<void> {
  for (const payload of payloads) {
    try {
      await ctx.queue.enqueue(queue, payload);
    } catch (error) {
      ctx.logger.warn({ err: error, queue, payload }, 'enqueue failed; the sweep will retry');
    }
  }
}
