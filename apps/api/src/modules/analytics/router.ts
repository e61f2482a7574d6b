import { spendAnalyticsQuery, spendAnalyticsResponse } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { spendAnalytics } from './service.ts';

export function analyticsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/ledes/analytics',
      summary: 'LEDES spend by law firm, client, matter, timekeeper, UTBMS task and month (accepted files), with the amounts refused and over guidelines',
      query: spendAnalyticsQuery,
      response: spendAnalyticsResponse,
      handler: async ({ query }) => ({ success: true as const, ...(await spendAnalytics(ctx.db, query)) }),
    }),
  ];
}
