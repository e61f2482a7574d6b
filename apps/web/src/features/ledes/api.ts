import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ErrorEnvelope,
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
  PaginationMeta,
} from '@portal/contracts';
import { api, apiPath, ApiError, API_BASE, API_KEY, type ClientErrorCode } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { filenameFromDisposition, lastSegment, LEDES_UPLOAD_TIMEOUT_MS, type RunDetail } from './model.ts';

/* ------------------------------------------------------------------ result entity (types from @portal/contracts) */

export type { LedesItemDto, LedesLineDto, LedesResultDto } from '@portal/contracts';
export type LedesRunDetail = RunDetail<LedesResultDto>;

export interface HistoryPage {
  rows: HistoryItem[];
  meta: PaginationMeta;
}

/* ------------------------------------------------------------------ query keys */

export const ledesKeys = {
  all: ['ledes'] as const,
  offices: ['ledes', 'offices'] as const,
  users: ['ledes', 'users'] as const,
  run: (id: string) => ['ledes', 'run', id] as const,
  histories: ['ledes', 'history'] as const,
  userHistory: (page: number, limit: number) => ['ledes', 'history', 'user', { page, limit }] as const,
  adminHistory: (adminId: string, search: string, page: number, limit: number) =>
    ['ledes', 'history', 'admin', { adminId, search, page, limit }] as const,
  clientName: (idClient: string) => ['ledes', 'client-name', idClient] as const,
};

/* ------------------------------------------------------------------ queries */

export const officesQuery = queryOptions({
  queryKey: ledesKeys.offices,
  queryFn: () => api<LedesOfficesResponse>('/ledes/offices').then((r) => r.offices),
  staleTime: 10 * 60_000,
});

export const ledesUsersQuery = queryOptions({
  queryKey: ledesKeys.users,
  queryFn: () => api<LedesAgentsResponse>('/user_ledes').then((r) => r.users),
  staleTime: 60_000,
});

export function clientNameQuery(idClient: string) {
  return queryOptions({
    queryKey: ledesKeys.clientName(idClient),
    queryFn: () => api<IdClientNameResponse>('/user/id_client/name', { method: 'POST', body: { id_client: idClient } }).then((r) => r.name),
    staleTime: 10 * 60_000,
    retry: false,
  });
}

export function runQuery(id: string) {
  return queryOptions({
    queryKey: ledesKeys.run(id),
    queryFn: ({ signal }) =>
      api<LedesRunResponse>(apiPath`/ledes/runs/${id}`, { signal }).then(
        (r): LedesRunDetail => ({ run: r.run, result: r.result }),
      ),
    staleTime: 5_000,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });
}

const EMPTY_META = (page: number, limit: number): PaginationMeta => ({ currentPage: page, totalPages: 1, pageSize: limit, total: 0 });

/** The history calls answer 204 when there is nothing: an empty page. */
async function historyCall(path: string, page: number, limit: number, signal?: AbortSignal): Promise<HistoryPage> {
  const r = await api<HistoryPageResponse | undefined>(path, { signal }).catch((error: unknown) => {
    // The wrapper reads an empty 204 body as a bad response.
    if (error instanceof ApiError && error.status === 204) return undefined;
    throw error;
  });
  return r ? { rows: r.data, meta: r.meta } : { rows: [], meta: EMPTY_META(page, limit) };
}

export function userHistoryQuery(page: number, limit: number) {
  return queryOptions({
    queryKey: ledesKeys.userHistory(page, limit),
    queryFn: ({ signal }) => historyCall(`/historique?page=${page}&limit=${limit}`, page, limit, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/** Everyone's files: the admin log without a search, `/searchHistorique` with one. */
export function adminHistoryQuery(adminId: string, search: string, page: number, limit: number) {
  const q = search.trim();
  const path = q
    ? `/searchHistorique?search_query=${encodeURIComponent(q)}&page=${page}&limit=${limit}`
    : `${apiPath`/historique/admin/${adminId}`}?page=${page}&limit=${limit}`;
  return queryOptions({
    queryKey: ledesKeys.adminHistory(adminId, q, page, limit),
    queryFn: ({ signal }) => historyCall(path, page, limit, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

/* ------------------------------------------------------------------ raw calls (multipart, blobs) */

function rawHeaders(): Record<string, string> {
  return { Accept: 'application/json', 'x-api-key': API_KEY, 'Accept-Language': currentLanguage() };
}

async function failure(response: Response): Promise<ApiError> {
  let payload: Partial<ErrorEnvelope> | undefined;
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    payload = undefined;
  }
  const code = (payload?.code as ClientErrorCode | undefined) ?? (response.status >= 500 ? 'internal_error' : 'bad_response');
  return new ApiError({ status: response.status, code, message: payload?.message ?? '', fields: payload?.fields });
}

/** The upload took longer than the 120 s the original client allowed. */
export class UploadTimeoutError extends Error {
  constructor() {
    super('LEDES upload timed out');
    this.name = 'UploadTimeoutError';
  }
}

async function rawFetch(path: string, init: RequestInit, timeoutMs?: number): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs)
    : undefined;
  try {
    return await fetch(`${API_BASE}${path}`, { ...init, credentials: 'include', signal: controller.signal });
  } catch {
    if (timedOut) throw new UploadTimeoutError();
    throw new ApiError({ status: 0, code: 'network_error', message: '' });
  } finally {
    clearTimeout(timer);
  }
}

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

/** POST /ledes/file/{type}/{office}: the runs come back at once, in progress. */
export async function uploadLedes(input: UploadInput): Promise<LedesRunDto[]> {
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
  const response = await rawFetch(apiPath`/ledes/file/${input.type}/${input.office}`, { method: 'POST', headers: rawHeaders(), body: form }, LEDES_UPLOAD_TIMEOUT_MS);
  if (!response.ok) throw await failure(response);
  const body = (await response.json()) as Partial<LedesUploadResponse>;
  if (!body.success || !body.runs) throw new ApiError({ status: response.status, code: 'bad_response', message: '' });
  return body.runs;
}

/** POST /ledes/file/download: saves the blob under the Content-Disposition name. */
export async function downloadLedesFile(filePath: string): Promise<string> {
  const response = await rawFetch('/ledes/file/download', {
    method: 'POST',
    headers: { ...rawHeaders(), Accept: '*/*', 'Content-Type': 'application/json' },
    body: JSON.stringify({ file_path: filePath }),
  });
  if (!response.ok) throw await failure(response);
  const blob = await response.blob();
  const filename = filenameFromDisposition(response.headers.get('Content-Disposition'), lastSegment(filePath));
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return filename;
}
