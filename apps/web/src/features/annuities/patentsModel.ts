/**
 * Pure helpers of the patents-by-file modal, the edit patent modal and the research screen (no React,
 * no i18n): wire dates to screen dates, the sort keys of the columns, the cache patches applied after
 * an edit or a bulk comment, and the chunking of large selections. Unit-tested in
 * apps/web/test/annuities-patents.test.ts.
 */
import type { AnnuityColour, AnnuityPatentDto, AnnuityPatentsResponse, AnnuityResearchResponse } from '@portal/contracts';
import { formatDay as formatWireDay, pageLanguage } from '../../lib/format.ts';

/* ------------------------------------------------------------------ constants (spec §9) */

/** Page sizes of the modal (30, 50, 100 or all; default 30). */
export const PATENT_PAGE_SIZES = [30, 50, 100, 'all'] as const;
export type PatentPageSize = (typeof PATENT_PAGE_SIZES)[number];
export const DEFAULT_PATENT_PAGE_SIZE: PatentPageSize = 30;
/** Page numbers shown around the current page: a window of 7 → 3 siblings on each side. */
const PAGE_WINDOW = 7;
export const PAGE_SIBLINGS = (PAGE_WINDOW - 1) / 2;
export const SEARCH_DEBOUNCE_MS = 500;
export const PAGINATION_DEBOUNCE_MS = 300;
/** How long the 'Text copied!' confirmation stays. */
export const COPY_CONFIRM_MS = 2000;
/** Above this many rows the table renders only the rows in view (virtualized). */
export const VIRTUALIZE_ABOVE = 100;
/** Research hits per page. */
export const RESEARCH_PAGE_SIZE = 30;
export const COLOURS = ['ok', 'nok', 'orange', 'no_date'] as const satisfies readonly AnnuityColour[];

/* ------------------------------------------------------------------ dates */

/** A wire day (YYYY-MM-DD only) in the page's language (decision 153); anything else (null, a timestamp, a bad value) gives ''. */
export const formatDay = (iso: string | null | undefined, lang: string = pageLanguage()): string =>
  iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? formatWireDay(iso, lang) : '';

/** One line of a row's "Why?" list: a key of the annuities namespace with its values. */
export interface StatusReason {
  key: string;
  values?: Record<string, string | number>;
  /** An engine code the locales do not know yet is shown as the code. */
  defaultValue?: string;
}

/**
 * Why a row has its status, in the order shown: the engine's reason codes, its review flags, the grace
 * period, the lapse (the missed annuity and the last day its grace allowed, both the engine's, stored
 * at check time), expiry. A row without a date always says something: rows checked before the reasons
 * covered every case get the general one.
 */
export function statusReasons(patent: AnnuityPatentDto, lang: string = pageLanguage()): StatusReason[] {
  const reasons: StatusReason[] = [
    ...patent.reasons.map((code) => ({ key: `reason.${code}`, defaultValue: code })),
    // The engine's review flags: computed, but a person should look (the export's legend says the same).
    ...patent.flags.map((code) => ({ key: `flag.${code}`, defaultValue: code })),
  ];
  if (patent.in_grace_with_surcharge) reasons.push({ key: 'patents.grace' });
  if (patent.dechu) {
    reasons.push(
      patent.missed_number !== null && patent.missed_lost_after !== null
        ? { key: 'patents.lapsedMissed', values: { number: patent.missed_number, date: formatDay(patent.missed_lost_after, lang) } }
        : { key: 'patents.lapsedUnknown' },
    );
  }
  if (patent.expired) reasons.push({ key: 'patents.expired' });
  if (reasons.length === 0 && patent.colour === 'no_date') reasons.push({ key: 'patents.noDateUnknown' });
  return reasons;
}

/** A date input's value ('' when empty) as the API's edit field: null clears it. */
export function dayOrNull(value: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

/* ------------------------------------------------------------------ the previous annuity number */

/**
 * The edit modal's check of the previous annuity number against the range the server sent with the
 * patent (its office's first year to 20): '' (cleared) is fine, anything else must be a whole number
 * in the range. The server checks the same; this only answers before the round trip.
 */
export function quantPrecedentError(value: string | number, range: AnnuityPatentDto['quant_range']): 'quant_range' | undefined {
  if (value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n >= range.first && n <= range.last ? undefined : 'quant_range';
}

/* ------------------------------------------------------------------ sorting */

/**
 * The sort key of each sortable column (the API's `sort`): the column of date_precedente_annuite
 * sorts with the spec's header name `date_predecent_annuite`.
 */
export const SORT_KEYS = {
  colour: 'colour',
  num_publication: 'num_publication',
  num_depot: 'num_depot',
  reference: 'reference',
  nom: 'nom',
  pays: 'pays',
  payeur: 'payeur',
  date_depot: 'date_depot',
  mois_date_depot: 'mois_date_depot',
  date_precedente_annuite: 'date_predecent_annuite',
  quant_precedent: 'quant_precedent',
  date_prochaine_annuite: 'date_prochaine_annuite',
  limite_date_prochaine_annuite: 'limite_date_prochaine_annuite',
} as const;
export type SortableColumn = keyof typeof SORT_KEYS;
export type PatentSortKey = (typeof SORT_KEYS)[SortableColumn];

export interface PatentSort {
  column: SortableColumn;
  order: 'asc' | 'desc';
}

/** A header click: a new column sorts ascending, the sorted one flips. */
export function nextSort(current: PatentSort | null, column: SortableColumn): PatentSort {
  if (current?.column === column) return { column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { column, order: 'asc' };
}

/** A colour filter button: clicking the active one clears it. */
export function toggleColour(current: AnnuityColour | null, clicked: AnnuityColour): AnnuityColour | null {
  return current === clicked ? null : clicked;
}

/* ------------------------------------------------------------------ selection */

/** What the table asks of a selection: is this row ticked, how many are. */
export interface SelectionView {
  has(id: string): boolean;
  readonly size: number;
}

/**
 * The "All" view's select-all (decision 178): every row of the current search and filter, loaded or
 * not, but the ones unticked after (`except`). `total` is the server's count for that filter.
 */
export function filterSelection(except: ReadonlySet<string>, total: number): SelectionView {
  return { has: (id) => !except.has(id), size: Math.max(0, total - except.size) };
}

/** A row's checkbox clicked while everything of the filter is selected: it joins or leaves the rows left out. */
export function toggleExcept(except: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(except);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** How often at most the "All" view fetches the windows of the rows in view while they move (a drag of the scrollbar). */
export const RANGE_THROTTLE_MS = 200;

/**
 * How many rows beyond the ones in the DOM the "All" view fetches on either side (rows). The DOM holds about 34 rows
 * (10 in view, 12 of overscan each side): with 30 ahead each side the rows to cover (≈ 94) fit in two windows of
 * ANNUITY_ALL_PAGE_SIZE (100), so a move asks for two windows at most, as it did with 250-row windows and 60 ahead.
 */
export const FETCH_AHEAD_ROWS = 30;

/**
 * The windows (1-based, `page` of `limit=all`) the "All" view needs to show rows `first`..`last`
 * (0-based, inclusive) with FETCH_AHEAD_ROWS more on either side, clamped to the result's `total`
 * rows. Jumping anywhere asks for the windows there directly, not for the ones in between.
 */
export function windowsFor(first: number, last: number, pageSize: number, total: number, ahead: number = FETCH_AHEAD_ROWS): number[] {
  if (total <= 0 || pageSize <= 0 || last < first) return [];
  const from = Math.max(0, Math.min(total - 1, first - ahead));
  const to = Math.max(0, Math.min(total - 1, last + ahead));
  const out: number[] = [];
  for (let n = Math.floor(from / pageSize) + 1; n <= Math.floor(to / pageSize) + 1; n++) out.push(n);
  return out;
}

/** Rows of the "All" view by window number (each window `pageSize` rows from row (n - 1) × pageSize). */
export type SparseWindows = ReadonlyMap<number, readonly AnnuityPatentDto[]>;

/** Row `index` (0-based, in the whole result) of the windows loaded so far; undefined while its window is not. */
export function sparseRow(windows: SparseWindows, pageSize: number, index: number): AnnuityPatentDto | undefined {
  if (index < 0 || pageSize <= 0) return undefined;
  return windows.get(Math.floor(index / pageSize) + 1)?.[index % pageSize];
}

/** Splits ids into calls of at most `size` (the API's ANNUITY_BULK_MAX_IDS). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The header checkbox over the rows shown: all, some (indeterminate) or none of them selected. */
export function selectionState(shownIds: readonly string[], selected: SelectionView): 'all' | 'some' | 'none' {
  if (shownIds.length === 0 || selected.size === 0) return 'none';
  let count = 0;
  for (const id of shownIds) if (selected.has(id)) count++;
  return count === 0 ? 'none' : count === shownIds.length ? 'all' : 'some';
}

/** Clicking the header checkbox: selects every row shown, or (all already selected) deselects them; other pages' picks stay. */
export function toggleAllShown(shownIds: readonly string[], selected: ReadonlySet<string>): Set<string> {
  const next = new Set(selected);
  if (selectionState(shownIds, selected) === 'all') for (const id of shownIds) next.delete(id);
  else for (const id of shownIds) next.add(id);
  return next;
}

/* ------------------------------------------------------------------ cache patches */

type Counts = NonNullable<AnnuityPatentsResponse['file']['counts']>;

/** The file's colour counts once one patent went from `from` to `to` (what the server did in the same transaction). */
export function moveCount(counts: Counts | null, from: AnnuityColour, to: AnnuityColour): Counts | null {
  if (!counts || from === to) return counts;
  return { ...counts, [from]: Math.max(0, counts[from] - 1), [to]: counts[to] + 1 };
}

/**
 * One cached page of a file's patents after the edit of `patent`: the row replaced in place (same
 * position, even when a colour filter no longer matches, so the user sees the change), the file's
 * counts moved and its export marked stale. A page without that patent keeps its counts patched and
 * its rows as they are. Returns the same object when nothing of this file is touched.
 */
export function patchPatentPage(page: AnnuityPatentsResponse, patent: AnnuityPatentDto, previousColour: AnnuityColour | undefined): AnnuityPatentsResponse {
  if (page.file._id !== patent.file_id) return page;
  const index = page.patents.findIndex((p) => p._id === patent._id);
  const from = previousColour ?? (index >= 0 ? page.patents[index]!.colour : patent.colour);
  const patents = index >= 0 ? page.patents.map((p, i) => (i === index ? patent : p)) : page.patents;
  return { ...page, patents, file: { ...page.file, counts: moveCount(page.file.counts, from, patent.colour), export_stale: true } };
}

/** One cached page after a bulk comment on `ids`: their comment replaced in place. */
export function commentPatentPage(page: AnnuityPatentsResponse, ids: ReadonlySet<string>, comment: string): AnnuityPatentsResponse {
  if (!page.patents.some((p) => ids.has(p._id))) return page;
  const commentaire = comment === '' ? null : comment;
  return {
    ...page,
    patents: page.patents.map((p) => (ids.has(p._id) ? { ...p, commentaire, edited: true } : p)),
    file: { ...page.file, export_stale: true },
  };
}

/** One cached research page after the edit of `patent`: the hit's patent replaced. */
export function patchResearchPage(page: AnnuityResearchResponse, patent: AnnuityPatentDto): AnnuityResearchResponse {
  if (!page.data.some((h) => h.patent._id === patent._id)) return page;
  return { ...page, data: page.data.map((h) => (h.patent._id === patent._id ? { ...h, patent } : h)) };
}

/** One cached research page after a bulk comment. */
export function commentResearchPage(page: AnnuityResearchResponse, ids: ReadonlySet<string>, comment: string): AnnuityResearchResponse {
  if (!page.data.some((h) => ids.has(h.patent._id))) return page;
  const commentaire = comment === '' ? null : comment;
  return { ...page, data: page.data.map((h) => (ids.has(h.patent._id) ? { ...h, patent: { ...h.patent, commentaire, edited: true } } : h)) };
}

/** What a patent is called in labels (buttons, checkboxes): its reference, else its numbers, else its row. */
export function patentLabel(p: Pick<AnnuityPatentDto, 'reference' | 'num_publication' | 'num_depot' | 'row_number'>): string {
  return p.reference || p.num_publication || p.num_depot || `#${p.row_number}`;
}
