import { queryOptions } from '@tanstack/react-query';
import type { RenewalCallHoldResponse, RenewalCallResponse, RenewalCallSendResponse, RenewalCallsResponse } from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';

export type CallState = 'open' | 'closed' | 'all';
export type CallsPage = RenewalCallsResponse;
export type CallPreview = RenewalCallResponse;

export const callsKey = ['renewal-calls'] as const;

export function callsQuery(state: CallState, page: number) {
  return queryOptions({
    queryKey: [...callsKey, 'list', state, page],
    queryFn: ({ signal }) => api<CallsPage>('/renewal_calls', { signal, query: { state, page, limit: 20 } }),
  });
}

export function callQuery(id: string) {
  return queryOptions({ queryKey: [...callsKey, 'one', id], queryFn: ({ signal }) => api<CallPreview>(apiPath`/renewal_calls/${id}`, { signal }) });
}

export const sendCall = (id: string) => api<RenewalCallSendResponse>(apiPath`/renewal_calls/${id}/send`, { method: 'POST', body: {} });
export const holdCall = (id: string, held: boolean) => api<RenewalCallHoldResponse>(apiPath`/renewal_calls/${id}/hold`, { method: 'POST', body: { held } });
