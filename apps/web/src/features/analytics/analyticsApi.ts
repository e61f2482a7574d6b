import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SpendAnalyticsQuery, SpendAnalyticsResponse } from '@portal/contracts';
import { api } from '../../lib/api.ts';
import { downloadStoredFile } from '../../lib/download.ts';

export type SpendFilters = SpendAnalyticsQuery;

/** Only the filters with a value go to the server (it validates them and answers a translated 400). */
const clean = (f: SpendFilters) => Object.fromEntries(Object.entries(f).filter(([, v]) => typeof v === 'string' && v.trim() !== '')) as Record<string, string>;

export function spendQuery(filters: SpendFilters) {
  return queryOptions({
    queryKey: ['analytics', 'spend', clean(filters)] as const,
    queryFn: ({ signal }) => api<SpendAnalyticsResponse>('/ledes/analytics', { query: clean(filters), signal }),
    placeholderData: keepPreviousData,
  });
}

export function downloadSpend(filters: SpendFilters, format: 'xlsx' | 'csv'): Promise<string> {
  return downloadStoredFile({ path: '/ledes/analytics/export', method: 'GET', query: { ...clean(filters), format } }, `ledes-spend.${format}`);
}
