/**
 * Pure helpers of the LEDES screens (no React, no i18n): history names, displayed line numbers,
 * run state → badge, the upload checks in the spec's order, client choice, live-update merging.
 * Unit-tested in apps/web/test/ledes.test.ts.
 */
import { addFiles as addFilesChecked, formatBytes, hasExtension, type FileLike, type FileRules } from '../../lib/files.ts';
import { LEDES_EXTENSIONS, LEDES_MAX_FILE_BYTES, LEDES_MAX_FILES, LEDES_TYPES, type HistoryItem, type LedesItemDto, type LedesRunDto, type LedesType, type LineRef } from '@portal/contracts';

/* ------------------------------------------------------------------ constants (spec §9) */

/** History page size of the user's file view. */
export const USER_HISTORY_PAGE_SIZE = 500;
/** The admin log's default page size (one of LEDES_HISTORY_PAGE_SIZES). */
export const ADMIN_HISTORY_DEFAULT_PAGE_SIZE = 600;
/** Page numbers shown around the current page: 7 → 3 siblings on each side. */
const PAGE_WINDOW = 7;
export const PAGE_SIBLINGS = (PAGE_WINDOW - 1) / 2;
export const SEARCH_DEBOUNCE_MS = 500;
export const PAGINATION_DEBOUNCE_MS = 300;
/** Upload time-out of the original client. */
export const LEDES_UPLOAD_TIMEOUT_MS = 120_000;
/** Refetch interval while live updates are interrupted. */
export const POLL_INTERVAL_MS = 3000;

/* ------------------------------------------------------------------ history names */

export interface HistoryName {
  /** The day (YYYY-MM-DD) of the first three parts, '' when they are not a date; the screens format it (lib/format.ts). */
  date: string;
  /** Parts from the seventh onward joined with '_' (the original file name); the whole name otherwise. */
  label: string;
}

/**
 * A run is Done when its verdict is stored; its treated workbook follows a moment later (decision 182), and a
 * workbook that failed is written again by the sweep. Until `path_treated` is known, the history says it is coming.
 */
export function treatedPending(run: HistoryItem): boolean {
  return run.state === 'Done' && run.path_treated === null;
}

/**
 * History entry names are `YYYY_MM_DD_HH_MM_SS_<original name>`: split on underscores, parts 1-3 give
 * the date and the parts from the 7th onward give the label (the original name may contain '_').
 */
export function splitHistoryName(name: string): HistoryName {
  const parts = name.split('_');
  const [y = '', m = '', d = ''] = parts;
  const date = /^\d{4}$/.test(y) && /^\d{2}$/.test(m) && /^\d{2}$/.test(d) ? `${y}-${m}-${d}` : '';
  const label = parts.length >= 7 ? parts.slice(6).join('_') : name;
  return { date, label: label || name };
}

/* ------------------------------------------------------------------ line numbers */

export type { LineRef };

/** Numeric lines are shown as value + 1; 'file' and 'header' stay words (translated by the screen). */
export function displayLine(line: LineRef): number | 'file' | 'header' {
  return typeof line === 'number' ? line + 1 : line;
}

/** Sort rank: file-level findings first, then the header, then data lines in order. */
function lineRank(line: LineRef): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}

/** Displayed numbers of 0-based lines as compact ranges: [0,1,2,4] → "1–3, 5". */
export function lineRanges(lines: readonly number[], max = 40): { text: string; truncated: boolean } {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let i = 0;
  while (i < sorted.length && ranges.length < max) {
    const start = sorted[i]!;
    let end = start;
    while (i + 1 < sorted.length && sorted[i + 1] === end + 1) end = sorted[++i]!;
    ranges.push(start === end ? String(start + 1) : `${start + 1}–${end + 1}`);
    i++;
  }
  return { text: ranges.join(', '), truncated: i < sorted.length };
}

/* ------------------------------------------------------------------ run state → badge */

export type RunStatus = 'in_progress' | 'accepted' | 'refused' | 'error';

export interface RunStatusInput {
  state: LedesRunDto['state'];
  accepted?: boolean | null | undefined;
  /** History items carry counts; used only when `accepted` is missing. */
  error_count?: number | undefined;
}

/** Accepted (green) or refused (red) once Done; in progress (orange) before; error (red) when the check failed. */
export function runStatus(run: RunStatusInput): RunStatus {
  if (run.state === 'in_progress') return 'in_progress';
  if (run.state === 'Error') return 'error';
  if (run.accepted === true) return 'accepted';
  if (run.accepted === false) return 'refused';
  return (run.error_count ?? 0) > 0 ? 'refused' : 'accepted';
}

const STATUS_COLOR: Record<RunStatus, string> = {
  in_progress: 'orange',
  accepted: 'teal',
  refused: 'red',
  error: 'red',
};

export function statusBadge(run: RunStatusInput): { status: RunStatus; color: string } {
  const status = runStatus(run);
  return { status, color: STATUS_COLOR[status] };
}

/* ------------------------------------------------------------------ upload checks */

export type UploadField = 'file' | 'type' | 'office' | 'user';
export type UploadCheck = 'error_file' | 'missing_type' | 'missing_office' | 'missing_id_user';

export const CHECK_FIELD: Record<UploadCheck, UploadField> = {
  error_file: 'file',
  missing_type: 'type',
  missing_office: 'office',
  missing_id_user: 'user',
};

export interface UploadDraft {
  files: readonly unknown[];
  type: string | null | undefined;
  office: string | null | undefined;
  isAdmin: boolean;
  userId: string | null | undefined;
}

/** The spec's order (file, type, office, user); stops at the first failure. */
export function firstUploadError(draft: UploadDraft): UploadCheck | null {
  if (draft.files.length === 0) return 'error_file';
  if (!draft.type || !(LEDES_TYPES as readonly string[]).includes(draft.type)) return 'missing_type';
  if (!draft.office) return 'missing_office';
  if (draft.isAdmin && !draft.userId) return 'missing_id_user';
  return null;
}

export function isLedesType(value: string | null | undefined): value is LedesType {
  return !!value && (LEDES_TYPES as readonly string[]).includes(value);
}

/** The LEDES upload's file rules (the shared upload component checks them before sending). */
export const LEDES_FILE_RULES: FileRules = { extensions: LEDES_EXTENSIONS, maxFiles: LEDES_MAX_FILES, maxBytes: LEDES_MAX_FILE_BYTES };

/** Case-insensitive check against LEDES_EXTENSIONS. */
export function hasLedesExtension(filename: string): boolean {
  return hasExtension(filename, LEDES_EXTENSIONS);
}

/** Adds picked or dropped files under the LEDES rules: accepted extensions, no exact duplicates, at most LEDES_MAX_FILES. */
export function addFiles<F extends FileLike>(current: readonly F[], incoming: readonly F[], max = LEDES_MAX_FILES) {
  const outcome = addFilesChecked(current, incoming, { ...LEDES_FILE_RULES, maxFiles: max });
  return { files: outcome.files, wrongExtension: outcome.wrongType, overflow: outcome.overflow, tooLarge: outcome.tooLarge };
}

export { formatBytes };

/* ------------------------------------------------------------------ client choice */

export type ClientDecision = { kind: 'none' } | { kind: 'single'; idClient: string } | { kind: 'choose'; idClients: string[] };

/** One id_client is used as is; more than one must be chosen in the modal before submitting. */
export function clientDecision(idClients: readonly string[] | null | undefined): ClientDecision {
  const ids = [...new Set((idClients ?? []).map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) return { kind: 'none' };
  if (ids.length === 1) return { kind: 'single', idClient: ids[0]! };
  return { kind: 'choose', idClients: ids };
}

/* ------------------------------------------------------------------ result page parameters */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `?runs=a,b` → distinct run ids (uuids only, at most 20). */
export function parseRunIds(value: string | null | undefined): string[] {
  if (!value) return [];
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => UUID.test(s));
  return [...new Set(ids)].slice(0, 20);
}

export function resultPath(ids: readonly string[]): string {
  return `/result-ledes?runs=${ids.map(encodeURIComponent).join(',')}`;
}

/* ------------------------------------------------------------------ downloads */

export { filenameFromDisposition, lastSegment } from '../../lib/files.ts';

/* ------------------------------------------------------------------ live updates */

/** A run as the result screen holds it. */
export interface RunDetail<R = unknown> {
  run: LedesRunDto;
  result: R | null;
}

/**
 * Merges a pushed run into the known one. A finished run never goes back to in progress (a late
 * progress event), and the lines-checked count never decreases while in progress.
 */
export function mergeRun(known: LedesRunDto, incoming: LedesRunDto): LedesRunDto {
  if (known._id !== incoming._id) return known;
  if (known.state !== 'in_progress' && incoming.state === 'in_progress') return known;
  if (incoming.state === 'in_progress' && known.state === 'in_progress') {
    return { ...known, ...incoming, lines_checked: Math.max(known.lines_checked, incoming.lines_checked) };
  }
  return { ...known, ...incoming };
}

/** A history row as the API sends it (the run summary fields come along). */

/** Patches a history row from a pushed run; returns the same array when the run is not listed. */
export function patchHistoryRows(rows: readonly HistoryItem[], run: LedesRunDto): { rows: HistoryItem[]; found: boolean } {
  let found = false;
  const next = rows.map((row) => {
    if (row._id !== run._id) return row;
    found = true;
    if (row.state !== 'in_progress' && run.state === 'in_progress') return row;
    return { ...row, state: run.state, accepted: run.accepted, delivered: run.delivered, lines_checked: run.lines_checked };
  });
  return { rows: found ? next : (rows as HistoryItem[]), found };
}

/* ------------------------------------------------------------------ findings */

export type FindingItem = Pick<LedesItemDto, '_id' | 'code_ledes' | 'champ' | 'libelle_en' | 'libelle_fr' | 'found' | 'expected' | 'difference' | 'over' | 'reference'>;

const PLAIN_NUMBER = /^-?(\d+)(?:\.(\d+))?$/;

/**
 * A finding's value for the screen: an amount or a count in the reader's number format with exactly its
 * decimals (705.50 → "705,50" in French); anything else (a code, a token) as it is, or null for a number
 * too long to show exactly.
 */
export function formatFindingValue(value: string, locale: string): { kind: 'number' | 'text'; text: string } {
  const m = PLAIN_NUMBER.exec(value);
  if (!m || m[1]!.length + (m[2]?.length ?? 0) > 15) return { kind: 'text', text: value };
  const decimals = m[2]?.length ?? 0;
  return { kind: 'number', text: new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(Number(value)) };
}

/** One row per item of a line, with a sort rank that puts file and header findings first. */
export interface Finding extends FindingItem {
  key: string;
  line: LineRef;
  rank: number;
}

export function flattenFindings(lines: readonly { line: LineRef; items: readonly FindingItem[] }[]): Finding[] {
  const rows: Finding[] = [];
  for (const l of lines) {
    for (const item of l.items) rows.push({ ...item, key: `${String(l.line)}:${item._id}`, line: l.line, rank: lineRank(l.line) });
  }
  return rows.sort((a, b) => a.rank - b.rank);
}

