import type { AnnuityFileDto, AnnuityFilesResponse, RunState } from '@portal/contracts';
import type { FileRules } from '../../lib/files.ts';

/**
 * Pure rules of the annuities upload and file list: accepted files, status, progress and cache
 * patching of the live `annuities:file:updated` events. No React, no DOM: unit-tested.
 */

/** The spec's page sizes of the file list (default 5). */
export const FILE_PAGE_SIZES = [5, 10, 15] as const;
export type FilePageSize = (typeof FILE_PAGE_SIZES)[number];
export const DEFAULT_FILE_PAGE_SIZE: FilePageSize = 5;
/** Page-number window of the spec (7 numbers: the current page and 3 on each side). */
export const FILE_PAGE_SIBLINGS = 3;
/** The file list's search waits this long after the last key. */
export const FILE_SEARCH_DEBOUNCE_MS = 300;
/** Without live events (socket down), a list showing a file in progress is read again this often. */
export const FILE_POLL_MS = 3000;

/** One spreadsheet of at most 25 MB (the engine's cap, also enforced by the API with a 413). */
export const ANNUITY_FILE_RULES: FileRules = { extensions: ['xlsx', 'xls'], maxFiles: 1, maxBytes: 25 * 1024 * 1024 };

export type FileStatus = 'done' | 'running' | 'error';

export function fileStatus(state: RunState): FileStatus {
  return state === 'Done' ? 'done' : state === 'Error' ? 'error' : 'running';
}

/** Rows stored so far in percent, or null while the total is unknown (indeterminate bar). */
export function progressPercent(file: Pick<AnnuityFileDto, 'rows_done' | 'rows_total'>): number | null {
  if (file.rows_total === null || file.rows_total <= 0) return null;
  return Math.min(100, Math.floor((file.rows_done / file.rows_total) * 100));
}

/** Only a finished file opens its patents or gives its export (spec §4). */
export function canOpen(file: Pick<AnnuityFileDto, 'is_done'>): boolean {
  return file.is_done === 'Done';
}

/** The name shown for a file: its title when it has one, else the uploaded name. */
export function displayName(file: Pick<AnnuityFileDto, 'title' | 'name_file_import'>): string {
  return file.title?.trim() || file.name_file_import;
}

/**
 * Puts a pushed file into one cached list page. The owner of a page is never touched (a user's event
 * carries no owner; an admin's list keeps the one it read). Answers whether the page listed it.
 */
export function patchFilePage(page: AnnuityFilesResponse, dto: AnnuityFileDto): { page: AnnuityFilesResponse; found: boolean } {
  const index = page.data.findIndex((f) => f._id === dto._id);
  if (index < 0) return { page, found: false };
  const before = page.data[index]!;
  // Events of one file may arrive out of order (progress after Done): a finished row stays finished.
  if (before.is_done !== 'in_progress' && dto.is_done === 'in_progress') return { page, found: true };
  const merged: AnnuityFileDto = { ...dto, ...(before.owner && !dto.owner ? { owner: before.owner } : {}) };
  const data = page.data.slice();
  data[index] = merged;
  return { page: { ...page, data }, found: true };
}

/** A list page still waiting for a file: polled when live events do not flow. */
export function pageHasRunning(page: AnnuityFilesResponse | undefined): boolean {
  return page?.data.some((f) => f.is_done === 'in_progress') ?? false;
}
