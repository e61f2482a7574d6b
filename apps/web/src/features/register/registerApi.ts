import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import type { RegisterDiscrepancyDto, RegisterSyncRunDto } from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';
import { onRealtime, onRealtimeConnect, useRealtime } from '../../lib/realtime.ts';

/** The wire shapes of the register routes (packages/contracts/src/registers.ts). */
export interface SyncRunsAnswer {
  success: true;
  configured: boolean;
  runs: RegisterSyncRunDto[];
}
export interface DiscrepancyPage {
  success: true;
  data: RegisterDiscrepancyDto[];
  total: number;
  page: number;
  limit: number;
}
export type DiscrepancyKind = RegisterDiscrepancyDto['kind'];
export const DISCREPANCY_PAGE_SIZE = 25;

export const registerKeys = {
  all: ['register'] as const,
  runs: () => ['register', 'runs'] as const,
  discrepancies: (params: { page: number; kind: DiscrepancyKind | null }) => ['register', 'discrepancies', params] as const,
};

export const syncRunsQuery = () => queryOptions({ queryKey: registerKeys.runs(), queryFn: ({ signal }) => api<SyncRunsAnswer>('/registers/sync', { signal }) });

export const discrepanciesQuery = (params: { page: number; kind: DiscrepancyKind | null }) =>
  queryOptions({
    queryKey: registerKeys.discrepancies(params),
    queryFn: ({ signal }) => api<DiscrepancyPage>('/registers/discrepancies', { query: { page: params.page, limit: DISCREPANCY_PAGE_SIZE, ...(params.kind ? { kind: params.kind } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });

export const startSync = () => api<{ success: true; created: boolean; run: RegisterSyncRunDto }>('/registers/sync', { method: 'POST', body: {} });
export const acceptDiscrepancy = (id: string) => api<{ success: true; discrepancy: RegisterDiscrepancyDto }>(apiPath`/registers/discrepancies/${id}/accept`, { method: 'POST', body: {} });
export const keepDiscrepancy = (id: string, note: string) => api<{ success: true; discrepancy: RegisterDiscrepancyDto }>(apiPath`/registers/discrepancies/${id}/keep`, { method: 'POST', body: { note } });

/** Live progress of the sync runs (`registers:sync:updated`, the admins' room): the run is written into the cached list; a finished run reads the discrepancies again. */
export function useRegisterLive(): void {
  const queryClient = useQueryClient();
  useRealtime();
  useEffect(() => {
    const offRun = onRealtime('registers:sync:updated', (run) => {
      queryClient.setQueryData<SyncRunsAnswer>(registerKeys.runs(), (current) => {
        if (!current) return current;
        const index = current.runs.findIndex((r) => r._id === run._id);
        const runs = index === -1 ? [run, ...current.runs] : current.runs.map((r) => (r._id === run._id ? run : r));
        return { ...current, runs };
      });
      if (run.state !== 'in_progress') queryClient.invalidateQueries({ queryKey: ['register', 'discrepancies'] }).catch(() => undefined);
    });
    const offConnect = onRealtimeConnect(() => {
      queryClient.invalidateQueries({ queryKey: registerKeys.all }).catch(() => undefined);
    });
    return () => {
      offRun();
      offConnect();
    };
  }, [queryClient]);
}
