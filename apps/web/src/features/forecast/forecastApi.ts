import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ForecastResponse } from '@portal/contracts';
import { api, type QueryParams } from '../../lib/api.ts';
import { downloadStoredFile } from '../../lib/download.ts';

/** The screen's filters as the API reads them (GET /api/forecast, decision 201). */
export interface ForecastFilters {
  years: number;
  office: string | null;
  origin: string | null;
  clientCode: string;
  /** The what-if: patents older than this many years abandoned; null: off. */
  abandonOlderThan: number | null;
}

export function forecastParams(f: ForecastFilters): QueryParams {
  return {
    years: f.years,
    office: f.office ?? undefined,
    origin: f.origin ?? undefined,
    client_code: f.clientCode.trim() === '' ? undefined : f.clientCode.trim(),
    abandon_older_than: f.abandonOlderThan ?? undefined,
  };
}

export const forecastQuery = (f: ForecastFilters) =>
  queryOptions({
    queryKey: ['forecast', forecastParams(f)],
    queryFn: ({ signal }) => api<ForecastResponse>('/forecast', { query: forecastParams(f), signal }),
    placeholderData: keepPreviousData,
    // While the server rebuilds after a bulk change (`updating`), ask again until the figures are whole.
    refetchInterval: (query) => (query.state.data?.updating ? FORECAST_UPDATING_POLL_MS : false),
  });

/** How often the screen asks again while the server says the figures are being updated. */
export const FORECAST_UPDATING_POLL_MS = 5_000;

export function downloadForecast(f: ForecastFilters, format: 'xlsx' | 'csv'): Promise<string> {
  return downloadStoredFile({ path: '/forecast/export', method: 'GET', query: { ...forecastParams(f), format } }, `forecast.${format}`);
}

/** Office colours: each at least 4.5:1 on white (WCAG 1.4.11 asks 3:1 of a chart's parts), told apart by hue. */
export const OFFICE_COLOURS: Record<string, string> = {
  EP: '#1c4f8c',
  UP: '#6a3d9a',
  BE: '#9c3d10',
  DE: '#2d6a31',
  ES: '#8a1c4a',
  FR: '#00636b',
  GB: '#6b5200',
  IT: '#3b3fb0',
  NL: '#a11f1f',
  SE: '#4d5866',
};
export const colourOf = (office: string) => OFFICE_COLOURS[office] ?? '#333333';
