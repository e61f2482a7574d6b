import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PaginationMeta, PatentExportBatchDto, PatentImportDto } from '@portal/contracts';
import { api, apiPath, apiUpload, type UploadProgress } from '../../lib/api.ts';
import { downloadStoredFile } from '../../lib/download.ts';
import { onRealtime, onRealtimeConnect, useRealtime } from '../../lib/realtime.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The wire shapes of the portfolio routes (packages/contracts/src/patent-portfolio.ts). */
export interface PatentImportsPage {
  success: true;
  patent_imports: PatentImportDto[];
  meta: PaginationMeta;
}
export type PatentExportBatch = PatentExportBatchDto;
export interface PatentExportsPage {
  success: true;
  patent_exports: PatentExportBatch[];
  meta: PaginationMeta;
}

/** An import upload gives up after this long without an answer (the API answers once the file is stored). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** While live updates do not flow and an import runs, the list is read again this often. */
export const IMPORT_POLL_MS = 5_000;
/** After "export now", the batch list is read again this often, this many times (the export runs in its queue). */
export const EXPORT_POLL_MS = 2_000;
export const EXPORT_POLL_TIMES = 10;

export function importListQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: queryKeys.portfolio.imports({ page, limit }),
    queryFn: ({ signal }) => api<PatentImportsPage>('/patent_imports', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function exportListQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: queryKeys.portfolio.exports({ page, limit }),
    queryFn: ({ signal }) => api<PatentExportsPage>('/patent_exports', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /patent_imports: stores the back office's export and answers at once; the patent-import queue upserts it. */
export function uploadPortfolio(file: File, options: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {}) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiUpload<{ success: true; patent_import: PatentImportDto }>('/patent_imports', form, { ...options, timeoutMs: UPLOAD_TIMEOUT_MS });
}

export const triggerExport = () => api<{ success: true; queued: true }>('/patent_exports', { method: 'POST', body: {} });
export const triggerReminders = () => api<{ success: true; queued: true }>('/patent_reminders', { method: 'POST', body: {} });

export function downloadExport(batch: PatentExportBatch, format: 'xlsx' | 'csv'): Promise<string> {
  return downloadStoredFile({ path: apiPath`/patent_exports/${batch._id}/download`, method: 'GET', query: { format } }, `${batch.name}.${format}`);
}

/** Writes a pushed import into every cached page that lists it; a new one, or a finished one, reads the lists again. */
export function applyImportEvent(queryClient: QueryClient, dto: PatentImportDto): void {
  let listed = false;
  for (const [key, page] of queryClient.getQueriesData<PatentImportsPage>({ queryKey: queryKeys.portfolio.importPages() })) {
    if (!page) continue;
    const index = page.patent_imports.findIndex((i) => i._id === dto._id);
    if (index === -1) continue;
    listed = true;
    const patent_imports = page.patent_imports.slice();
    patent_imports[index] = dto;
    queryClient.setQueryData(key, { ...page, patent_imports });
  }
  if (!listed || dto.state !== 'in_progress') queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.importPages() });
}

/** Live progress of the imports: socket events patch the cached pages; the caller polls while the socket is down. */
export function usePortfolioLive(): { interrupted: boolean } {
  const queryClient = useQueryClient();
  const status = useRealtime();
  useEffect(() => {
    const offImport = onRealtime('patents:import:updated', (dto) => applyImportEvent(queryClient, dto));
    const offConnect = onRealtimeConnect(() => {
      queryClient.invalidateQueries({ queryKey: queryKeys.portfolio.importPages() });
    });
    return () => {
      offImport();
      offConnect();
    };
  }, [queryClient]);
  return { interrupted: status === 'interrupted' };
}
