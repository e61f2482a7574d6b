import { forecastExportQuery, forecastQuery, forecastResponse } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { readScope, today } from '../patents/index.ts';
import { exportLines, forecastCsv, forecastXlsx } from './export.ts';
import { computeForecast, refreshInBackground, wholeForecast } from './service.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';


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
        const day = today(ctx);
        const forecast = await computeForecast(ctx.db, scope, query, day);
        if (forecast.updating) refreshInBackground(ctx.db, day, ctx.logger);
        return { success: true as const, ...forecast };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/forecast/export',
      summary:
        'The same forecast as a file, xlsx (default) or csv: one line per period (year, month) and office, then the totals per currency, each figure with its parts (official fee, surcharge). When the figures are being rebuilt it waits for the rebuild (up to 20 s, then forecast_updating)',
      query: forecastExportQuery,
      response: { raw: [XLSX_CONTENT_TYPE, 'text/csv'], description: 'forecast-<today>.xlsx or .csv, named in Content-Disposition' },
      async handler({ query }, http) {
        const scope = await readScope(ctx, http.actor());
        const day = today(ctx);
        const forecast = await wholeForecast(ctx.db, scope, query, day, ctx.logger);
        const lines = exportLines(forecast);
        const name = `forecast-${day}.${query.format}`;
        http.res.set('Content-Disposition', `attachment; filename="${name}"`);
        if (query.format === 'csv') {
          http.res.set('Content-Type', 'text/csv; charset=utf-8');
          http.res.send(forecastCsv(lines));
        } else {
          http.res.set('Content-Type', XLSX_CONTENT_TYPE);
          http.res.send(await forecastXlsx(lines));
        }
      },
    }),
  ];
}
