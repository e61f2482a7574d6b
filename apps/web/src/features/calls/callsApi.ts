import { queryOptions } from '@tanstack/react-query';
import type {
  RenewalCallHoldResponse,
  RenewalCallResponse,
  RenewalCallRunResponse,
  RenewalCallSendResponse,
  RenewalCallSettingsBody,
  RenewalCallSettingsResponse,
  RenewalCallSettingsSaveResponse,
  RenewalCallsResponse,
} from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';

export type CallState = 'open' | 'closed' | 'all';
export type CallsPage = RenewalCallsResponse;
export type CallPreview = RenewalCallResponse;

export const callsKey = ['renewal-calls'] as const;
export const CALLS_PAGE_SIZE = 20;

export function callsQuery(state: CallState, page: number) {
  return queryOptions({
    queryKey: [...callsKey, 'list', state, page],
    queryFn: ({ signal }) => api<CallsPage>('/renewal_calls', { signal, query: { state, page, limit: CALLS_PAGE_SIZE } }),
  });
}

export function callQuery(id: string) {
  return queryOptions({ queryKey: [...callsKey, 'one', id], queryFn: ({ signal }) => api<CallPreview>(apiPath`/renewal_calls/${id}`, { signal }) });
}

export const settingsQuery = queryOptions({
  queryKey: [...callsKey, 'settings'],
  queryFn: ({ signal }) => api<RenewalCallSettingsResponse>('/renewal_call_settings', { signal }),
});

export const sendCall = (id: string) => api<RenewalCallSendResponse>(apiPath`/renewal_calls/${id}/send`, { method: 'POST', body: {} });
export const holdCall = (id: string, held: boolean) => api<RenewalCallHoldResponse>(apiPath`/renewal_calls/${id}/hold`, { method: 'POST', body: { held } });
export const runCalls = () => api<RenewalCallRunResponse>('/renewal_calls/run', { method: 'POST', body: {} });
export const saveSettings = (cabinetId: string, body: RenewalCallSettingsBody) =>
  api<RenewalCallSettingsSaveResponse>(apiPath`/renewal_call_settings/${cabinetId}`, { method: 'PUT', body });
