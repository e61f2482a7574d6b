import { forecastQuery, forecastResponse } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { readScope, today } from '../patents/index.ts';
import { computeForecast } from './service.ts';

export function forecastRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/forecast',
      summary:
        "The cost of keeping the portfolio alive per calendar year (1–5, the current one from today) and per month of the next 12, per office in the office's currency with totals per currency; each figure with its parts (official fee, surcharge). Filters: cabinet, client code, office, origin; what if: patents older than N years abandoned",
      query: forecastQuery,
      response: forecastResponse,
      async handler({ query }, http) {
        const scope = await readScope(ctx, http.actor());
        return { success: true as const, ...(await computeForecast(ctx.db, scope, query, today(ctx))) };
      },
    }),
  ];
}
