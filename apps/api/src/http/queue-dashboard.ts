import type { RequestHandler, Router } from 'express';
import type { Logger } from '@portal/logger';
import { REGISTERED_QUEUES } from '@portal/jobs';
import { allows } from './access.ts';
import { AppError } from './errors.ts';

/** Where the queue dashboard answers (under `/api`), in both modes (decision 129). */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board's page loads its own scripts and styles from its base path and fetches its JSON API
 * from there: the API's `default-src 'none'` would leave it blank. Nothing from another origin
 * (its Google fonts fall back to the system's).
 */
const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'";

export interface QueueDashboard {
  /** Mounted at `/api/admin/queues` after the session middleware. */
  router: Router;
  close(): Promise<void>;
}

/**
 * The admins' gate in front of bull-board: a session (401) with the admin role (403), reading only
 * (GET and HEAD; the dashboard is read-only, so nothing there changes a job). The same rule as the
 * declared route `GET /admin/queues` of the policy table.
 */
export const adminsOnly: RequestHandler = (req, res, next) => {
  const verdict = allows(['admin'], req.auth?.roles ?? null);
  if (verdict === 'unauthenticated') throw new AppError('unauthorized');
  if (verdict === 'forbidden') {
    req.log.warn({ event: 'authz_denied', route: `${req.method} ${QUEUE_DASHBOARD_PATH}`, userId: req.auth?.userId }, 'access denied');
    throw new AppError('forbidden');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('not_found');
  res.set('Content-Security-Policy', DASHBOARD_CSP);
  next();
};

/**
 * bull-board (production mode) over every queue of the job registry, read-only (decision 129): the
 * database rows are the truth and the sweep re-enqueues what they say, so removing or emptying jobs
 * from a dashboard could only make the two disagree. Loaded only when Redis is configured.
 */
export async function mountQueueDashboard(redisUrl: string, logger: Logger): Promise<QueueDashboard> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }, { inspectQueues }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
    import('@portal/queue/redis'),
  ]);
  const inspected = inspectQueues({ redisUrl, queues: REGISTERED_QUEUES, onError: (error) => logger.debug({ err: error }, 'queue dashboard: redis unavailable') });
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(`/api${QUEUE_DASHBOARD_PATH}`);
  createBullBoard({
    queues: [...inspected.queues.values()].map((queue) => new BullMQAdapter(queue, { readOnlyMode: true, allowRetries: false })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'IP Portal queues' } },
  });
  return { router: serverAdapter.getRouter() as Router, close: () => inspected.close() };
}
