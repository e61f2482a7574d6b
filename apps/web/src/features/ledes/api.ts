import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  HistoryItem,
  HistoryPageResponse,
  IdClientNameResponse,
  LedesAgentsResponse,
  LedesOfficesResponse,
  LedesResultDto,
  LedesRunDto,
  LedesRunResponse,
  LedesType,
  LedesUploadResponse,
  LedesHistorySort,
  PaginationMeta,
  SortOrder,
} from '@portal/contracts';
import { api, apiPath, ApiError, apiUpload, type UploadProgress } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { LEDES_UPLOAD_TIMEOUT_MS, type RunDetail } from './model.ts';
import { downloadStoredFile } from '../../lib/download.ts';
import { msg, type Message } from '../../lib/message.tsx';

/* ------------------------------------------------------------------ result entity (types from @portal/contracts) */

export type { LedesItemDto, LedesLineDto, LedesResultDto } from '@portal/contracts';
export type LedesRunDetail = RunDetail<LedesResultDto>;

export interface HistoryPage {
  rows: HistoryItem[];
  meta: PaginationMeta;
}

/* ------------------------------------------------------------------ queries */

export const officesQuery = queryOptions({
  queryKey: queryKeys.ledes.offices(),
  queryFn: () => api<LedesOfficesResponse>('/ledes/offices').then((r) => r.offices),
  staleTime: 10 * 60_000,
});

export const ledesUsersQuery = queryOptions({
  queryKey: queryKeys.ledes.agents(),
  queryFn: () => api<LedesAgentsResponse>('/user_ledes').then((r) => r.users),
  staleTime: 60_000,
});

export function clientNameQuery(idClient: string) {
  return queryOptions({
    queryKey: queryKeys.ledes.clientName(idClient),
    queryFn: () => api<IdClientNameResponse>('/user/id_client/name', { method: 'POST', body: { id_client: idClient } }).then((r) => r.name),
    staleTime: 10 * 60_000,
    retry: false,
  });
}

export function runQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.ledes.run(id),
    queryFn: ({ signal }) =>
      api<LedesRunResponse>(apiPath`/ledes/runs/${id}`, { signal }).then(
        (r): LedesRunDetail => ({ run: r.run, result: r.result }),
      ),
    staleTime: 5_000,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });
}

/** A later page of a finished run's findings, from `fromLine` (the previous page's `page.next_line`). */
export function runPageQuery(id: string, fromLine: number) {
  return queryOptions({
    queryKey: queryKeys.ledes.runPage(id, fromLine),
    queryFn: ({ signal }) =>
      api<LedesRunResponse>(apiPath`/ledes/runs/${id}`, { signal, query: { from_line: fromLine } }).then(
        (r): LedesRunDetail => ({ run: r.run, result: r.result }),
      ),
    staleTime: 60_000,
  });
}

const EMPTY_META = (page: number, limit: number): PaginationMeta => ({ currentPage: page, totalPages: 1, pageSize: limit, total: 0 });

/** The history calls answer 204 when there is nothing: an empty page. */
async function historyCall(path: string, query: Record<string, string | number>, signal?: AbortSignal): Promise<HistoryPage> {
  const r = await api<HistoryPageResponse | undefined>(path, { query, signal });
  const page = Number(query.page);
  const limit = Number(query.limit);
  return r ? { rows: r.data, meta: r.meta } : { rows: [], meta: EMPTY_META(page, limit) };
}

export function userHistoryQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: queryKeys.ledes.history({ page, limit }),
    queryFn: ({ signal }) => historyCall('/historique', { page, limit }, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

export interface AdminHistoryParams {
  /** 'all', or one user's id. */
  owner: string;
  search: string;
  page: number;
  limit: number;
  sort: LedesHistorySort;
  order: SortOrder;
}

/** Everyone's files, sorted and paged by the server: the admin log without a search, `/searchHistorique` with one. */
export function adminHistoryQuery(params: AdminHistoryParams) {
  const search = params.search.trim();
  const { page, limit, sort, order } = params;
  return queryOptions({
    queryKey: queryKeys.ledes.adminHistory({ ...params, search }),
    queryFn: ({ signal }) =>
      search
        ? historyCall('/searchHistorique', { search_query: search, page, limit, sort, order }, signal)
        : historyCall(apiPath`/historique/admin/${params.owner}`, { page, limit, sort, order }, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/* ------------------------------------------------------------------ multipart and blobs */

export interface UploadInput {
  files: File[];
  type: LedesType;
  office: string;
  /** Admin only: the user the files are checked for, and the two options. */
  userId?: string | undefined;
  sendHistory?: boolean | undefined;
  sendServer?: boolean | undefined;
  idClient?: string | undefined;
  clientDestinataire?: string | undefined;
}

export interface UploadControl {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: UploadProgress) => void) | undefined;
}

/** POST /ledes/file/{type}/{office}: the runs come back at once, in progress. */
export async function uploadLedes(input: UploadInput, control: UploadControl = {}): Promise<LedesRunDto[]> {
  const form = new FormData();
  form.append('type', input.type);
  form.append('office', input.office);
  if (input.sendHistory !== undefined) form.append('send_history', String(input.sendHistory));
  if (input.sendServer !== undefined) form.append('send_server', String(input.sendServer));
  if (input.userId) form.append('user_id', input.userId);
  if (input.idClient) form.append('id_client', input.idClient);
  if (input.clientDestinataire) form.append('client_destinataire', input.clientDestinataire);
  // Files last: the server reads the text fields before the parts it stores.
  for (const file of input.files) form.append('file', file, file.name);
  const body = await apiUpload<Partial<LedesUploadResponse>>(apiPath`/ledes/file/${input.type}/${input.office}`, form, {
    signal: control.signal,
    onProgress: control.onProgress,
    timeoutMs: LEDES_UPLOAD_TIMEOUT_MS,
  });
  if (!body.runs) throw new ApiError({ status: 200, code: 'bad_response', message: '' });
  return body.runs;
}

/** POST /ledes/file/download: saves the blob under the Content-Disposition name. */
/** The words of a failed LEDES download. */
export const LEDES_DOWNLOAD_FAILURE = (): Message => msg('ledes:admin.downloadError');

export function downloadLedesFile(filePath: string): Promise<string> {
  return downloadStoredFile({ path: '/ledes/file/download', method: 'POST', body: { file_path: filePath } }, filePath);
}
