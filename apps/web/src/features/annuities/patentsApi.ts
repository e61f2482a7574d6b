import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  ANNUITY_BULK_MAX_IDS,
  type AnnuityColour,
  type AnnuityPatentDto,
  type AnnuityPatentsResponse,
  type AnnuityResearchResponse,
} from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';
import { queryKeys, type AnnuityPatentKeyParams } from '../../lib/queryKeys.ts';
import {
  chunk,
  commentPatentPage,
  commentResearchPage,
  DEFAULT_PATENT_PAGE_SIZE,
  patchPatentPage,
  patchResearchPage,
  RESEARCH_PAGE_SIZE,
  type PatentPageSize,
  type PatentSortKey,
} from './patentsModel.ts';

/** The fields of the edit patent modal as the API takes them (null clears a field, absent keeps it). */
export interface PatentEdit {
  date_precedente_annuite?: string | null | undefined;
  date_prochaine_annuite?: string | null | undefined;
  quant_precedent?: number | null | undefined;
  limite_date_prochaine_annuite?: string | null | undefined;
}

export interface PatentPageParams {
  page: number;
  limit: PatentPageSize;
  search: string;
  sort: PatentSortKey | null;
  order: 'asc' | 'desc';
  colour: AnnuityColour | null;
}

export const DEFAULT_PATENT_PAGE: PatentPageParams = { page: 1, limit: DEFAULT_PATENT_PAGE_SIZE, search: '', sort: null, order: 'asc', colour: null };

function keyParams(p: PatentPageParams): AnnuityPatentKeyParams {
  return { page: p.limit === 'all' ? 1 : p.page, limit: p.limit, search: p.search.trim(), sort: p.sort ?? '', order: p.order, colour: p.colour ?? '' };
}

/** GET /brevets/file/{id}: one page of a Done file's patents, searched, filtered and sorted by the server. */
export function patentPageQuery(fileId: string, params: PatentPageParams) {
  const k = keyParams(params);
  return queryOptions({
    queryKey: queryKeys.annuities.patentPage(fileId, k),
    queryFn: ({ signal }) =>
      api<AnnuityPatentsResponse>(apiPath`/brevets/file/${fileId}`, {
        query: { page: k.page, limit: k.limit, search: k.search, sort: k.sort, order: k.order, colour: k.colour },
        signal,
      }),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * The "All" view (decision 178): GET /brevets/file/{id}?limit=all&page=n answers window n of
 * meta.pageSize rows, with meta.total. Each window is cached under its own key, so the table fetches
 * the windows covering the rows in view, wherever the user jumps (no answer holds the whole file).
 * No placeholder data: a window shown in place of another would put the wrong rows at those positions.
 */
export function patentWindowQuery(fileId: string, params: Omit<PatentPageParams, 'page' | 'limit'>, n: number) {
  const k = keyParams({ ...params, page: 1, limit: 'all' });
  return queryOptions({
    queryKey: queryKeys.annuities.patentWindow(fileId, k, n),
    queryFn: ({ signal }) =>
      api<AnnuityPatentsResponse>(apiPath`/brevets/file/${fileId}`, {
        query: { page: n, limit: 'all', search: k.search, sort: k.sort, order: k.order, colour: k.colour },
        signal,
      }),
    staleTime: 30_000,
  });
}

const isPatentPage = (v: unknown): v is AnnuityPatentsResponse => !!v && typeof v === 'object' && 'patents' in v && 'file' in v;

/** The ids of every cached window of one search, sort and filter of the "All" view (loaded rows, in view or not). */
export function cachedWindowIds(client: QueryClient, fileId: string, params: Omit<PatentPageParams, 'page' | 'limit'>): string[] {
  const k = keyParams({ ...params, page: 1, limit: 'all' });
  return client
    .getQueriesData<AnnuityPatentsResponse>({ queryKey: queryKeys.annuities.patentWindows(fileId, k) })
    .flatMap(([, data]) => (isPatentPage(data) ? data.patents.map((p) => p._id) : []));
}

/** PUT /brevets/file/{id}/comment: the comment on every row of the search and filter but `except` (the "All" view's select-all). */
export async function commentFilePatents(
  fileId: string,
  filter: { search: string; colour: AnnuityColour | null; except: readonly string[] },
  comment: string,
): Promise<number> {
  const search = filter.search.trim();
  const r = await api<{ success: true; updated: number }>(apiPath`/brevets/file/${fileId}/comment`, {
    method: 'PUT',
    body: { ...(search ? { search } : {}), ...(filter.colour ? { colour: filter.colour } : {}), except: [...filter.except], comment },
  });
  return r.updated;
}

/** GET /annuite/research: hits across every Done file the caller may read. */
export function researchQuery(q: string, page: number) {
  const trimmed = q.trim();
  return queryOptions({
    queryKey: queryKeys.annuities.research({ q: trimmed, page, limit: RESEARCH_PAGE_SIZE }),
    queryFn: ({ signal }) => api<AnnuityResearchResponse>('/annuite/research', { query: { q: trimmed, page, limit: RESEARCH_PAGE_SIZE }, signal }),
    enabled: trimmed.length > 0,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

export async function savePatent(id: string, edit: PatentEdit): Promise<AnnuityPatentDto> {
  const r = await api<{ success: true; patent: AnnuityPatentDto }>(apiPath`/brevets/annuite/${id}`, { method: 'PUT', body: edit });
  return r.patent;
}

/** PUT /brevets/annuites/many, in calls of at most ANNUITY_BULK_MAX_IDS ids, one after the other. Returns how many were updated. */
export async function commentPatents(ids: readonly string[], comment: string, size = ANNUITY_BULK_MAX_IDS): Promise<number> {
  let updated = 0;
  for (const part of chunk(ids, size)) {
    const r = await api<{ success: true; updated: number }>('/brevets/annuites/many', { method: 'PUT', body: { ids: part, comment } });
    updated += r.updated;
  }
  return updated;
}

/** A cached page or window of the "All" view, patched by `patch`. */
const patchCached = (patch: (page: AnnuityPatentsResponse) => AnnuityPatentsResponse) => (v: unknown) => (isPatentPage(v) ? patch(v) : v);
const isResearchPage = (v: unknown): v is AnnuityResearchResponse => !!v && typeof v === 'object' && 'data' in v && 'meta' in v;

/** Puts an edited patent in every cached page of its file and every research page, in place (no refetch). */
export async function applyPatentEdit(client: QueryClient, patent: AnnuityPatentDto, previousColour: AnnuityColour): Promise<void> {
  client.setQueriesData({ queryKey: queryKeys.annuities.patents(patent.file_id) }, patchCached((page) => patchPatentPage(page, patent, previousColour)));
  client.setQueriesData<AnnuityResearchResponse>({ queryKey: queryKeys.annuities.researches() }, (page) => (isResearchPage(page) ? patchResearchPage(page, patent) : page));
  // The file list shows the counts and the export's freshness: read again when next shown.
  await client.invalidateQueries({ queryKey: queryKeys.annuities.files(), refetchType: 'none' });
}

/** Puts a bulk comment in every cached page of the file and every research page. */
export async function applyBulkComment(client: QueryClient, fileId: string, ids: ReadonlySet<string>, comment: string): Promise<void> {
  client.setQueriesData({ queryKey: queryKeys.annuities.patents(fileId) }, patchCached((page) => commentPatentPage(page, ids, comment)));
  client.setQueriesData<AnnuityResearchResponse>({ queryKey: queryKeys.annuities.researches() }, (page) =>
    isResearchPage(page) ? commentResearchPage(page, ids, comment) : page,
  );
  await client.invalidateQueries({ queryKey: queryKeys.annuities.files(), refetchType: 'none' });
}
