import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { PaginationMeta, PatentListResponse, PatentRecordDto, ReceiptDto, ReceiptSort, ReceiptUploadDto } from '@portal/contracts';
import { api, apiPath, apiUpload, type UploadProgress } from '../../lib/api.ts';
import { downloadStoredFile } from '../../lib/download.ts';
import { onRealtime, onRealtimeConnect, useRealtime } from '../../lib/realtime.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The wire shapes of the receipt routes (packages/contracts/src/receipts.ts). */
export interface ReceiptPage {
  success: true;
  recepisse: ReceiptDto[];
  meta: PaginationMeta;
}
export interface ReceiptUploadsPage {
  success: true;
  uploads: ReceiptUploadDto[];
  meta: PaginationMeta;
}
export interface ReceiptUploadAnswer {
  success: true;
  /** Spec §7: the boolean result. */
  result: boolean;
  upload: ReceiptUploadDto;
}

/** packages/contracts RECEIPT_UPLOAD_MAX_BYTES and RECEIPT_EXTENSIONS. */
export const RECEIPT_FILE_RULES = { extensions: ['pdf', 'zip'], maxFiles: 1, maxBytes: 25 * 1024 * 1024 } as const;
export const RECEIPT_PAGE_SIZES = [10, 20, 50, 100] as const;
export type ReceiptPageSize = (typeof RECEIPT_PAGE_SIZES)[number];
/** Spec §9: the search waits 500 ms, a success popup and its redirect 2 s. */
export const RECEIPT_SEARCH_DEBOUNCE_MS = 500;
export const RECEIPT_REDIRECT_MS = 2_000;
/** While live updates do not flow and an upload runs, the uploads are read again this often. */
export const RECEIPT_POLL_MS = 5_000;
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export interface ReceiptListParams {
  page: number;
  limit: number;
  search: string;
  sort: ReceiptSort;
  order: 'asc' | 'desc';
  toComplete: boolean;
}

export function receiptListQuery(params: ReceiptListParams) {
  return queryOptions({
    queryKey: queryKeys.receipts.list(params),
    queryFn: ({ signal }) =>
      api<ReceiptPage>('/recepisse', {
        query: { page: params.page, limit: params.limit, sort: params.sort, order: params.order, ...(params.search.trim() ? { search: params.search.trim() } : {}), ...(params.toComplete ? { to_complete: '1' } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Staff's queue (decision 198): the receipts linked to no patent, newest first, with what the matcher read. */
export function unlinkedReceiptsQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: queryKeys.receipts.unlinked({ page, limit }),
    queryFn: ({ signal }) => api<ReceiptPage>('/recepisse', { query: { unlinked: '1', page, limit, sort: 'created', order: 'desc' }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The patents search of the agents' list (GET /brevet_eptane, search), both tabs (with and without an instruction): the first 10 of each. */
export function patentSearchQuery(search: string) {
  return queryOptions({
    queryKey: queryKeys.receipts.patentSearch(search),
    queryFn: async ({ signal }): Promise<PatentRecordDto[]> => {
      const tabs = await Promise.all(
        (['unprocessed', 'unvalidated'] as const).map((tab) => api<PatentListResponse>('/brevet_eptane', { query: { tab, search, limit: 10, sort: 'DateEcheance', order: 'asc' }, signal })),
      );
      return tabs.flatMap((r) => r.brevet_eptane);
    },
    enabled: search.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
}

/** POST /receipts/{id}/link (admins): the receipt pays this patent record's year (the record's own when omitted). */
export function linkReceipt(id: string, body: { patent_id: string; year?: number }) {
  return api<{ success: true; recepisse: ReceiptDto }>(apiPath`/receipts/${id}/link`, { method: 'POST', body });
}

export function receiptUploadsQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: queryKeys.receipts.uploads({ page, limit }),
    queryFn: ({ signal }) => api<ReceiptUploadsPage>('/recepisse/uploads', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function patentReceiptsQuery(patentId: string) {
  return queryOptions({
    queryKey: queryKeys.receipts.ofPatent(patentId),
    queryFn: ({ signal }) => api<{ success: true; recepisse: ReceiptDto[] }>(apiPath`/brevet_eptane/${patentId}/recepisse`, { signal }).then((r) => r.recepisse),
  });
}

/** POST /recepisse: stores the PDF or zip and answers at once; the receipts queue reads it. */
export function uploadReceipts(file: File, options: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {}) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiUpload<ReceiptUploadAnswer>('/recepisse', form, { ...options, timeoutMs: UPLOAD_TIMEOUT_MS });
}

export function downloadReceipt(receipt: Pick<ReceiptDto, 'path' | 'file_name'>): Promise<string> {
  return downloadStoredFile({ path: '/download/recepisse', method: 'GET', query: { file_path: receipt.path } }, receipt.file_name);
}

/** Writes a pushed upload into every cached page that lists it; a new or finished one reads the lists again. */
export function applyUploadEvent(queryClient: QueryClient, dto: ReceiptUploadDto): void {
  let listed = false;
  for (const [key, page] of queryClient.getQueriesData<ReceiptUploadsPage>({ queryKey: queryKeys.receipts.uploadPages() })) {
    if (!page) continue;
    const index = page.uploads.findIndex((u) => u._id === dto._id);
    if (index === -1) continue;
    listed = true;
    const uploads = page.uploads.slice();
    uploads[index] = dto;
    queryClient.setQueryData(key, { ...page, uploads });
  }
  if (!listed || dto.state !== 'in_progress') queryClient.invalidateQueries({ queryKey: queryKeys.receipts.uploadPages() });
  if (dto.state === 'Done') queryClient.invalidateQueries({ queryKey: ['receipts', 'list'] });
}

/** Live progress of the uploads: socket events patch the cached pages; the caller polls while the socket is down. */
export function useReceiptsLive(onUpload?: (dto: ReceiptUploadDto) => void): { interrupted: boolean } {
  const queryClient = useQueryClient();
  const status = useRealtime();
  useEffect(() => {
    const off = onRealtime('receipts:upload:updated', (dto) => {
      applyUploadEvent(queryClient, dto);
      onUpload?.(dto);
    });
    const offConnect = onRealtimeConnect(() => {
      queryClient.invalidateQueries({ queryKey: queryKeys.receipts.uploadPages() });
    });
    return () => {
      off();
      offConnect();
    };
  }, [queryClient, onUpload]);
  return { interrupted: status === 'interrupted' };
}
