import { sweepJobs } from '@portal/jobs';
import type { AppContext } from '../context.ts';

export { NOT_STARTED_AFTER_MS, SILENT_RUN_AFTER_MS } from '@portal/jobs';

/**
 * The API's job sweep (every minute, at start in the embedded mode, and as soon as Redis is back):
 * re-enqueues what is waiting and closes runs silent past their queue's timeout (`sweepJobs`).
 */
export function sweepWaitingJobs(ctx: AppContext, options: { everything?: boolean } = {}): ReturnType<typeof sweepJobs> {
  return sweepJobs(ctx, options);
}
