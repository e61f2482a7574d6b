import { queueDashboardResponse } from '@portal/contracts';
import { REGISTERED_QUEUES } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';

export function opsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/admin/queues',
      summary: 'Queue dashboard (admins): bull-board in the production mode; in the embedded mode, the jobs per queue of the inline driver',
      response: queueDashboardResponse,
      async handler(_input, { t }) {
        // Reached only without bull-board (the embedded mode): its router answers this path first.
        const queues = await Promise.all(REGISTERED_QUEUES.map(async (queue) => ({ queue, ...(await ctx.queue.counts(queue)) })));
        return { success: true as const, available: false as const, driver: ctx.queue.driver, message: t('api:queue_dashboard_unavailable'), queues };
      },
    }),
  ];
}
