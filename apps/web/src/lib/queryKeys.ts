/**
 * Every TanStack Query key of the app, from one factory: `queryKeys.ledes.adminHistory(params)`.
 * Keys are hierarchical so that invalidating a prefix (`queryKeys.ledes.histories()`) reaches every
 * page below it. A new feature adds its own branch here; screens never write a key by hand.
 */

/** Paging and sorting of a list the server pages (and sorts). */
export interface PageParams {
  page: number;
  limit: number;
}
export interface SortParams<Column extends string = string> {
  sort: Column;
  order: 'asc' | 'desc';
}

export interface AdminHistoryKeyParams extends PageParams, SortParams {
  /** 'all' or one user's id. */
  owner: string;
  search: string;
}

export const queryKeys = {
  session: ['session'] as const,
  auth: {
    resetToken: (id: string, token: string) => ['auth', 'reset-token', { id, token }] as const,
  },
  account: {
    notifications: () => ['account', 'notifications'] as const,
  },
  mfa: {
    challenge: () => ['mfa', 'challenge'] as const,
    status: () => ['mfa', 'status'] as const,
  },
  users: {
    all: () => ['users'] as const,
    list: () => ['users', 'list'] as const,
    roles: () => ['users', 'roles'] as const,
    cabinets: () => ['users', 'cabinets'] as const,
  },
  ledes: {
    all: () => ['ledes'] as const,
    offices: () => ['ledes', 'offices'] as const,
    agents: () => ['ledes', 'agents'] as const,
    clientName: (idClient: string) => ['ledes', 'client-name', idClient] as const,
    run: (id: string) => ['ledes', 'run', id] as const,
    /** A later page of a finished run's findings (the first page is `run`). */
    runPage: (id: string, fromLine: number) => ['ledes', 'run', id, 'from', fromLine] as const,
    /** Prefix of every history page, the user's and the admin log's. */
    histories: () => ['ledes', 'history'] as const,
    history: (params: PageParams) => ['ledes', 'history', 'user', params] as const,
    adminHistory: (params: AdminHistoryKeyParams) => ['ledes', 'history', 'admin', params] as const,
  },
  receipts: {
    /** Prefix of every receipt list page (a finished upload invalidates them). */
    lists: () => ['receipts', 'list'] as const,
    list: (params: PageParams & SortParams & { search: string; toComplete: boolean }) => ['receipts', 'list', params] as const,
    /** Prefix of the caller's upload pages (a socket event patches or invalidates them). */
    uploadPages: () => ['receipts', 'uploads'] as const,
    uploads: (params: PageParams) => ['receipts', 'uploads', params] as const,
    ofPatent: (patentId: string) => ['receipts', 'patent', patentId] as const,
    /** Staff's queue of receipts linked to no patent (decision 198); under `list` so an upload's end reads it again. */
    unlinked: (params: PageParams) => ['receipts', 'list', 'unlinked', params] as const,
    patentSearch: (search: string) => ['receipts', 'patent-search', search] as const,
  },
  portfolio: {
    /** Prefix of every page of the portfolio imports (a socket event patches or invalidates them). */
    importPages: () => ['portfolio', 'imports'] as const,
    imports: (params: PageParams) => ['portfolio', 'imports', params] as const,
    exportPages: () => ['portfolio', 'exports'] as const,
    exports: (params: PageParams) => ['portfolio', 'exports', params] as const,
  },
  annuities: {
    all: () => ['annuities'] as const,
    /** Prefix of every page of the file list (a socket event invalidates or patches them). */
    files: () => ['annuities', 'files'] as const,
    fileList: (params: AnnuityFileListKeyParams) => ['annuities', 'files', params] as const,
    /** Prefix of every page of one file's patents. */
    patents: (fileId: string) => ['annuities', 'patents', fileId] as const,
    patentPage: (fileId: string, params: AnnuityPatentKeyParams) => ['annuities', 'patents', fileId, params] as const,
    /** Prefix of the "All" view's windows of one search, sort and filter (decision 178). */
    patentWindows: (fileId: string, params: AnnuityPatentKeyParams) => ['annuities', 'patents', fileId, params, 'window'] as const,
    /** Window `n` of them, each cached on its own so the view can jump to any (random access). */
    patentWindow: (fileId: string, params: AnnuityPatentKeyParams, n: number) => ['annuities', 'patents', fileId, params, 'window', n] as const,
    /** Prefix of every research page (an edit or a comment patches them all). */
    researches: () => ['annuities', 'research'] as const,
    research: (params: AnnuityResearchKeyParams) => ['annuities', 'research', params] as const,
  },
  patents: {
    all: () => ['patents'] as const,
    instructions: () => ['patents', 'instructions'] as const,
    /** Prefix of every page of the portfolio (both tabs, any client code). */
    lists: () => ['patents', 'list'] as const,
    list: (params: PatentListKeyParams) => ['patents', 'list', params] as const,
    detail: (id: string) => ['patents', 'detail', id] as const,
    schedule: (id: string) => ['patents', 'schedule', id] as const,
    events: (id: string) => ['patents', 'events', id] as const,
    toValidate: (params: Record<string, string | number>) => ['patents', 'to-validate', params] as const,
    missingInfo: (params: Record<string, string | number>) => ['patents', 'missing-info', params] as const,
    submissions: (params: Record<string, string | number>) => ['patents', 'submissions', params] as const,
    proposal: (params: Record<string, string>) => ['patents', 'proposal', params] as const,
  },
} as const;

export interface PatentListKeyParams extends PageParams, SortParams {
  tab: string;
  /** '' for the caller's own portfolio, else the client code an admin_test / admin searched. */
  code: string;
  dates: string;
  references: string;
  instruction: string;
  office: string;
}

export interface AnnuityFileListKeyParams extends PageParams, SortParams {
  search: string;
}
export interface AnnuityPatentKeyParams extends SortParams {
  page: number;
  /** 30, 50, 100 or 'all'. */
  limit: number | 'all';
  search: string;
  /** ok, nok, orange, no_date or '' for none. */
  colour: string;
}
export interface AnnuityResearchKeyParams extends PageParams {
  q: string;
}
