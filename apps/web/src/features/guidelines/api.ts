import { queryOptions } from '@tanstack/react-query';
import type { GuidelinePreviewResponse, GuidelineRuleDto, GuidelineVersionBody, GuidelineVersionDto, GuidelineVersionsResponse } from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';

/** Query keys of the guidelines screen (its own: the screen is a lazy chunk). */
export const guidelineKeys = {
  clients: () => ['guidelines', 'clients'] as const,
  versions: (idClient: string) => ['guidelines', 'versions', idClient] as const,
};

export interface GuidelineClient {
  id_client: string;
  versions: number;
  latest_effective_from: string;
}

export const clientsQuery = () =>
  queryOptions({
    queryKey: guidelineKeys.clients(),
    queryFn: ({ signal }) => api<{ success: true; clients: GuidelineClient[] }>('/ledes/guidelines', { signal }).then((r) => r.clients),
  });

export const versionsQuery = (idClient: string) =>
  queryOptions({
    queryKey: guidelineKeys.versions(idClient),
    queryFn: ({ signal }) => api<GuidelineVersionsResponse>(apiPath`/ledes/guidelines/${idClient}`, { signal }).then((r) => r.versions),
    enabled: idClient !== '',
  });

export function saveVersion(idClient: string, body: GuidelineVersionBody): Promise<GuidelineVersionDto> {
  return api<{ success: true; version: GuidelineVersionDto }>(apiPath`/ledes/guidelines/${idClient}`, { method: 'POST', body }).then((r) => r.version);
}

export function previewSet(idClient: string, rules: GuidelineRuleDto[], last: number): Promise<GuidelinePreviewResponse> {
  return api<GuidelinePreviewResponse>(apiPath`/ledes/guidelines/${idClient}/preview`, { method: 'POST', body: { rules, last } });
}
