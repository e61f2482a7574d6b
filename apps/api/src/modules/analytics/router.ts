import { pipeline } from 'node:stream/promises';
import { spendAnalyticsQuery, spendAnalyticsResponse, spendExportQuery } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { spendCsv, spendXlsxStream } from './export.ts';
import { spendAnalytics } from './service.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';


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
    defineRoute({
      method: 'GET',
      path: '/ledes/analytics/export',
      summary: 'The same figures as a file, xlsx (default) or csv, headers in the reader’s language',
      query: spendExportQuery,
      response: { raw: [XLSX_CONTENT_TYPE, 'text/csv'], description: 'The spend table, named in Content-Disposition' },
      async handler({ query }, http) {
        const { format, ...filters } = query;
        const data = await spendAnalytics(ctx.db, filters);
        http.res.set('Content-Disposition', `attachment; filename="ledes-spend.${format}"`);
        if (format === 'csv') {
          http.res.set('Content-Type', 'text/csv; charset=utf-8');
          http.res.end(spendCsv(data, http.locale));
          return;
        }
        http.res.set('Content-Type', XLSX_CONTENT_TYPE);
        const { stream, done } = spendXlsxStream(data, http.locale);
        await Promise.all([pipeline(stream, http.res), done]);
      },
    }),
  ];
}
