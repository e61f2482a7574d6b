import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  BulkInstructionResponse,
  PatentCreateBody,
  PatentEventDto,
  PatentListResponse,
  PatentProposalResponse,
  PatentCostsDto,
  PatentRecordDto,
  PatentLedgerYearDto,
  PatentScheduleResponse,
  PatentSort,
  PatentSubmissionDto,
  PaymentInstructionDto,
} from '@portal/contracts';
import { api, apiPath, apiUpload } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { bulkBody, type PatentPageSize, type Selection } from './model.ts';

export type PatentTab = 'unprocessed' | 'unvalidated';

/** What the filter panel applied (texts already checked: dates well formed, references joined by `;`). */
export interface PatentFilters {
  dates: string;
  references: string;
  /** `;`-separated instruction ids. */
  instruction: string;
  /** `;`-separated office codes. */
  office: string;
  /** `mismatch`: only the patents that differ from the computed schedule. */
  schedule: '' | 'mismatch';
}
export const NO_FILTERS: PatentFilters = { dates: '', references: '', instruction: '', office: '', schedule: '' };

export interface PatentListParams extends PatentFilters {
  tab: PatentTab;
  /** '' for the caller's portfolio, else an admin's client-code search. */
  code: string;
  sort: PatentSort;
  order: 'asc' | 'desc';
  page: number;
  limit: PatentPageSize;
  /** Keyset paging (decision 174): the next/previous cursor of the page the pager moved from; not part of the key (same rows as the page number). */
  cursor?: string | undefined;
}

/** GET /instruction_paiement: the four instructions (titles with their tooltip after a colon). */
export const instructionsQuery = queryOptions({
  queryKey: queryKeys.patents.instructions(),
  queryFn: ({ signal }) => api<{ success: true; instruction_paiement: PaymentInstructionDto[] }>('/instruction_paiement', { signal }).then((r) => r.instruction_paiement),
  staleTime: 60 * 60_000,
});

/** GET /brevet_eptane (or /brevet_eptane/admin/{code}): one server page of a tab, filtered and sorted by the server. */
export function patentListQuery({ cursor, ...params }: PatentListParams) {
  const code = params.code.trim();
  return queryOptions({
    queryKey: queryKeys.patents.list({ ...params, code }),
    queryFn: ({ signal }) =>
      api<PatentListResponse>(code ? apiPath`/brevet_eptane/admin/${code}` : '/brevet_eptane', {
        query: {
          tab: params.tab,
          dates: params.dates,
          references: params.references,
          instruction: params.instruction,
          office: params.office,
          schedule: params.schedule,
          sort: params.sort,
          order: params.order,
          page: params.page,
          limit: params.limit,
          cursor,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /brevet_eptane/{id}: the patent as it is now (the modal opens on the row and refreshes). */
/** GET /brevet_eptane/{id}: the record and the next annuity's cost parts (null until loaded or when none). */
export type PatentDetail = PatentRecordDto & { costs?: PatentCostsDto | null; ledger?: PatentLedgerYearDto[] };

export function patentDetailQuery(id: string, initial?: PatentRecordDto) {
  return queryOptions({
    queryKey: queryKeys.patents.detail(id),
    // The detail also carries the next annuity's cost part by part (issue 30 §1) and the ledger's years (decision 198), kept beside the record.
    queryFn: ({ signal }): Promise<PatentDetail> =>
      api<{ success: true; brevet_eptane: PatentRecordDto; costs?: PatentCostsDto | null; ledger?: PatentLedgerYearDto[] }>(apiPath`/brevet_eptane/${id}`, { signal }).then((r) => ({
        ...r.brevet_eptane,
        costs: r.costs ?? null,
        ledger: r.ledger ?? [],
      })),
    ...(initial ? { placeholderData: initial } : {}),
  });
}

/** PUT /brevet_eptane/many/update_instruction: all the chosen rows at once, or none (a 409 lists the refused ones). */
export function sendInstructions(selection: Selection): Promise<BulkInstructionResponse> {
  return api<BulkInstructionResponse>('/brevet_eptane/many/update_instruction', { method: 'PUT', body: bulkBody(selection) });
}

/** POST /file/send_email_for_new_case: the file mailed to support (with a copy to the sender). */
export function sendNewCase(file: File, options: { signal?: AbortSignal } = {}): Promise<unknown> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiUpload<unknown>('/file/send_email_for_new_case', form, { ...options, timeoutMs: 5 * 60_000 });
}

/** GET /brevet_eptane/{id}/schedule: the engine's annuities with their fees in euros. */
export function patentScheduleQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.patents.schedule(id),
    queryFn: ({ signal }) => api<PatentScheduleResponse>(apiPath`/brevet_eptane/${id}/schedule`, { signal }),
    retry: false,
  });
}

/** GET /brevet_eptane/{id}/events: the instruction's audit trail, newest first. */
/** The years of the patent's payment ledger (decision 191), oldest first: what GET /brevet_eptane/{id} says beside the record. */
export function patentEventsQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.patents.events(id),
    queryFn: ({ signal }) => api<{ success: true; events: PatentEventDto[] }>(apiPath`/brevet_eptane/${id}/events`, { signal }).then((r) => r.events),
    retry: false,
  });
}

export interface StaffListParams {
  search: string;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
}

function staffQuery(params: StaffListParams) {
  const search = params.search.trim();
  return { search, sort: params.sort, order: params.order, page: params.page, limit: params.limit };
}

/** GET /brevet_eptane/to_validate: instructions given and waiting for staff, searched, sorted and paged by the server. */
export function toValidateQuery(params: StaffListParams) {
  const query = staffQuery(params);
  return queryOptions({
    queryKey: queryKeys.patents.toValidate(query),
    queryFn: ({ signal }) => api<PatentListResponse>('/brevet_eptane/to_validate', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** PUT /brevet_eptane/validate-instruction: the checked rows with the versions read; all or none (409 lists the refused). */
export function validateInstructions(rows: { _id: string; version: number }[]): Promise<{ success: true; validated: number }> {
  return api<{ success: true; validated: number }>('/brevet_eptane/validate-instruction', { method: 'PUT', body: { patents: rows } });
}

/** GET /brevet_eptane/missing-information: patents with an empty application number, publication number, client reference or office. */
export function missingInfoQuery(params: StaffListParams) {
  const query = staffQuery(params);
  return queryOptions({
    queryKey: queryKeys.patents.missingInfo(query),
    queryFn: ({ signal }) => api<PatentListResponse>('/brevet_eptane/missing-information', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** PUT /brevet_eptane/update-missing-info/{idagenda}: the filled cells and the version read. */
export function fillMissingInfo(idagenda: string, body: Record<string, string | number>): Promise<{ success: true; brevet_eptane: PatentRecordDto }> {
  return api<{ success: true; brevet_eptane: PatentRecordDto }>(apiPath`/brevet_eptane/update-missing-info/${idagenda}`, { method: 'PUT', body });
}

/** POST /brevet_eptane/create: the patent is submitted for an admin's review. */
export function createPatent(body: PatentCreateBody): Promise<{ success: true; submission: PatentSubmissionDto }> {
  return api<{ success: true; submission: PatentSubmissionDto }>('/brevet_eptane/create', { method: 'POST', body });
}

/** GET /patent_submissions: the submissions of one status (admins). */
export function submissionsQuery(params: { status: string; page: number; limit: number }) {
  return queryOptions({
    queryKey: queryKeys.patents.submissions(params),
    queryFn: ({ signal }) => api<{ success: true; patent_submissions: PatentSubmissionDto[]; meta: PatentListResponse['meta'] }>('/patent_submissions', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function acceptSubmission(id: string): Promise<unknown> {
  return api<unknown>(apiPath`/patent_submissions/${id}/accept`, { method: 'PUT', body: {} });
}

export function rejectSubmission(id: string, reason: string): Promise<unknown> {
  return api<unknown>(apiPath`/patent_submissions/${id}/reject`, { method: 'PUT', body: { reason } });
}

/** GET /brevet_eptane/proposal: the engine's next annuity (due date, number, fee in euros) for the add form. */
export function proposalQuery(input: { pays: string; origine: string; date_depot: string }) {
  return queryOptions({
    queryKey: queryKeys.patents.proposal(input),
    queryFn: ({ signal }) =>
      api<PatentProposalResponse>('/brevet_eptane/proposal', { query: { pays: input.pays, date_depot: input.date_depot, ...(input.origine ? { origine: input.origine } : {}) }, signal }),
    staleTime: 5 * 60_000,
  });
}
