import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AnnuityFileDto, AnnuityFilesResponse, AnnuityUploadResponse } from '@portal/contracts';
import { apiUpload, api, type UploadProgress } from '../../lib/api.ts';
import { downloadStoredFile } from '../../lib/download.ts';
import { onRealtime, onRealtimeConnect, useRealtime, type RealtimeStatus } from '../../lib/realtime.ts';
import { queryKeys, type AnnuityFileListKeyParams } from '../../lib/queryKeys.ts';
import { FILE_POLL_MS, pageHasRunning, patchFilePage } from './filesModel.ts';

/** An upload gives up after this long without an answer (the API answers as soon as the file is stored). */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** GET /annuite/files: one page of the caller's files (an admin's: everyone's), searched and sorted by the server. */
export function fileListQuery(params: AnnuityFileListKeyParams) {
  const search = params.search.trim();
  return queryOptions({
    queryKey: queryKeys.annuities.fileList({ ...params, search }),
    queryFn: ({ signal }) =>
      api<AnnuityFilesResponse>('/annuite/files', {
        query: { page: params.page, limit: params.limit, sort: params.sort, order: params.order, ...(search ? { search } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST /brevets/annuite: stores the spreadsheet and answers at once; the check runs in the annuities queue. */
export function uploadAnnuityFile(
  input: { file: File; title: string },
  options: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {},
): Promise<AnnuityUploadResponse> {
  const form = new FormData();
  const title = input.title.trim();
  if (title) form.append('title', title);
  form.append('file', input.file, input.file.name);
  return apiUpload<AnnuityUploadResponse>('/brevets/annuite', form, { ...options, timeoutMs: UPLOAD_TIMEOUT_MS });
}

/** GET /annuite/files/download?file_path: the import, or the export of a Done file, saved under its name. */
export function downloadAnnuityFile(filePath: string): Promise<string> {
  return downloadStoredFile({ path: '/annuite/files/download', method: 'GET', query: { file_path: filePath } }, filePath);
}

/** Applies one pushed file to every cached list page; a file no page lists (a new one) refreshes the lists. */
export function applyFileEvent(queryClient: QueryClient, dto: AnnuityFileDto): void {
  let listed = false;
  for (const [key, page] of queryClient.getQueriesData<AnnuityFilesResponse>({ queryKey: queryKeys.annuities.files() })) {
    if (!page) continue;
    const patched = patchFilePage(page, dto);
    if (patched.found) {
      listed = true;
      if (patched.page !== page) queryClient.setQueryData(key, patched.page);
    }
  }
  // Progress of a listed file costs no request; a new file, or a transition (counts, export path), reads the list again.
  if (!listed || dto.is_done !== 'in_progress') queryClient.invalidateQueries({ queryKey: queryKeys.annuities.files() });
}

let subscribers = 0;
let unsubscribe: (() => void) | undefined;

function subscribe(queryClient: QueryClient): () => void {
  if (subscribers++ === 0) {
    const offFile = onRealtime('annuities:file:updated', (dto) => applyFileEvent(queryClient, dto));
    // Whatever happened while disconnected: read the lists again.
    const offConnect = onRealtimeConnect(() => {
      queryClient.invalidateQueries({ queryKey: queryKeys.annuities.files() });
    });
    unsubscribe = () => {
      offFile();
      offConnect();
    };
  }
  return () => {
    if (--subscribers === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };
}

export interface AnnuityFilesLive {
  status: RealtimeStatus;
  /** Live events are not flowing: show the notice. */
  interrupted: boolean;
  /** refetchInterval for a list page: polls only while events do not flow and a file is running. */
  interval: (page: AnnuityFilesResponse | undefined) => number | false;
}

/** Live updates of the file list: socket events patch the cached pages; polling while the socket is down. */
export function useAnnuityFilesLive(): AnnuityFilesLive {
  const queryClient = useQueryClient();
  const status = useRealtime();
  useEffect(() => subscribe(queryClient), [queryClient]);
  const interrupted = status === 'interrupted';
  return { status, interrupted, interval: (page) => (interrupted && pageHasRunning(page) ? FILE_POLL_MS : false) };
}
