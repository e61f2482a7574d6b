import { z } from 'zod';
import { FIRST_RESULT_LINE, LEDES_MAX_FILES, LEDES_MAX_WAIT_SECONDS, LEDES_TYPES, RUN_STATES } from './constants.ts';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';


const yesNo = z.enum(['true', 'false', 'yes', 'no', '1', '0', 'oui', 'non']).transform((v) => ['true', 'yes', '1', 'oui'].includes(v));
const waitSeconds = text()
  .regex(/^\d{1,3}$/)
  .transform(Number)
  .pipe(z.number().int().min(0).max(LEDES_MAX_WAIT_SECONDS));

/**
 * The path of POST /api/ledes/file/{type}/{office}. The original client may send the word
 * 'undefined' in either segment and the real value in the body, so the segments are free words
 * here; the service checks type and office in the spec's order (file, type, office, user).
 */
export const ledesUploadParams = z.strictObject({ type: text().max(20), office: text().max(20) });
export const ledesUploadQuery = z.strictObject({ wait: waitSeconds.optional() });

/** The multipart text fields of POST /api/ledes/file/{type}/{office}, before the files. */
export const ledesUploadFields = z.strictObject({
  type: text().max(20).optional(),
  office: text().max(20).optional(),
  send_history: yesNo.optional(),
  send_server: yesNo.optional(),
  // An admin's chosen user; an empty field is no choice. Not an id: the spec's "choose a user".
  user_id: z.union([z.literal('').transform(() => undefined), z.uuid({ error: 'missing_id_user' })]).optional(),
  id_client: text().trim().max(64).optional(),
  client_destinataire: text().trim().max(200).optional(),
  wait: waitSeconds.optional(),
});

/**
 * The upload form's choices as the screen checks them before sending, with the codes of the
 * server's own checks (error_file, missing_type, missing_office); the admin's user is checked by the
 * screen, which knows the role.
 */
export const ledesUploadChoice = z.object({
  files: z.array(z.unknown()).min(1, { error: 'error_file' }).max(LEDES_MAX_FILES, { error: 'too_many_files' }),
  type: z.enum(LEDES_TYPES, { error: 'missing_type' }),
  office: text({ error: 'missing_office' }).min(1, { error: 'missing_office' }).max(20),
});

/**
 * The one string that is not text: an opaque storage key. Every unknown key, NUL or traversal
 * included, answers the same 404 (UP-14), so the key is checked by its own strict pattern
 * (`isValidKey`) before any lookup instead of the clean-text rule.
 */
export const ledesDownloadBody = z.strictObject({ file_path: z.string().min(1).max(2048) });

/** Paging of the history lists; the spec answers 'meta' missing (400) without page and limit. */
const pageNumber = (max: number) =>
  text({ error: (issue) => (issue.input === undefined ? 'meta_missing' : 'validation_failed') })
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));
/**
 * The columns a history list may be sorted by (a whitelist: nothing else reaches ORDER BY). Office
 * and type sort by their label in the caller's language, state by the badge order.
 */
export const LEDES_HISTORY_SORTS = ['date', 'name', 'provider', 'office', 'type', 'state'] as const;
export type LedesHistorySort = (typeof LEDES_HISTORY_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** Server-side sorting of a paged list; newest first when absent. */
const historySort = {
  sort: z.enum(LEDES_HISTORY_SORTS).default('date'),
  order: z.enum(SORT_ORDERS).default('desc'),
};
export const historyPageQuery = z.strictObject({ page: pageNumber(1_000_000), limit: pageNumber(600), ...historySort });
export const historySearchQuery = z.strictObject({
  search_query: text().max(200).default(''),
  page: pageNumber(1_000_000),
  limit: pageNumber(600),
  ...historySort,
});
export type HistoryPageQuery = z.input<typeof historyPageQuery>;
/** `all` (or the admin's own id, as the original client sends it) for everyone, or one user's id. */
export const adminHistoryParams = z.strictObject({ id: z.union([z.literal('all'), z.uuid()]) });
export const runIdParams = z.strictObject({ id: z.uuid() });
/** A run's result is paged by line: `from_line` is the previous page's `page.next_line`. */
export const ledesRunQuery = z.strictObject({
  from_line: text()
    .regex(/^-?\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().int().min(FIRST_RESULT_LINE).max(2 ** 31 - 1))
    .optional(),
});

export const ledesOfficeSchema = z.strictObject({ code: z.string(), label_en: z.string(), label_fr: z.string() });
export type LedesOfficeDto = z.infer<typeof ledesOfficeSchema>;
export const ledesOfficesResponse = z.strictObject({ success: z.literal(true), offices: z.array(ledesOfficeSchema) });
export type LedesOfficesResponse = z.infer<typeof ledesOfficesResponse>;

/** A run as the screens follow it live; also the payload of the `ledes:run` socket event. */
export const ledesRunSchema = z.strictObject({
  _id: z.uuid(),
  name: z.string(),
  filename: z.string(),
  state: z.enum(RUN_STATES),
  accepted: z.boolean().nullable(),
  lines_checked: z.number().int().min(0),
  office: z.string(),
  type: z.enum(LEDES_TYPES),
  owner_id: z.uuid(),
  created: z.iso.datetime(),
  finished: z.iso.datetime().nullable(),
  delivered: z.boolean(),
  /** The treated workbook is stored and offered for download: written right after Done (decision 182), so a Done run is published again once it is. */
  treated: z.boolean(),
  error_code: z.string().nullable(),
  /** The client's guideline versions the invoices were checked against (issue 31 §1); absent or empty: none applied. */
  guidelines: z.array(z.strictObject({ id: z.uuid(), version: z.number().int().min(1), effective_from: z.iso.date() })).optional(),
});
export type LedesRunDto = z.infer<typeof ledesRunSchema>;

/** A line of a result: a 0-based data line, or the whole 'file', or its 'header'. */
export const lineRefSchema = z.union([z.number().int().min(0), z.literal('file'), z.literal('header')]);
export type LineRef = z.infer<typeof lineRefSchema>;

/** One finding as stored and shown (spec entity "Ledes result per file"). */
export const ledesItemSchema = z.strictObject({
  _id: z.string(),
  code_ledes: z.string(),
  created: z.string(),
  libelle_en: z.string(),
  libelle_fr: z.string(),
  champ: z.string(),
  /** The values that decided the finding, when one did: what the file holds, what was expected, found − expected. */
  found: z.string().optional(),
  expected: z.string().optional(),
  difference: z.string().optional(),
  /** Client guidelines (GDL-1xx): the total over the cap, and the rule's reference in the client's set. */
  over: z.string().optional(),
  reference: z.string().optional(),
});
export type LedesItemDto = z.infer<typeof ledesItemSchema>;
export const ledesLineSchema = z.strictObject({ line: lineRefSchema, items: z.array(ledesItemSchema) });
export type LedesLineDto = z.infer<typeof ledesLineSchema>;

/** The spec's result entity; `format_ok` is capped, `format_ok_total` counts every error-free line. */
export const ledesResultSchema = z.strictObject({
  filename: z.string(),
  format_ok: z.array(ledesLineSchema),
  errors: z.array(ledesLineSchema),
  warnings: z.array(ledesLineSchema),
  format_ok_total: z.number().int().min(0),
  /** Where this page of findings starts, and where the next one does (null: the last page). */
  page: z.strictObject({ from_line: z.number().int(), next_line: z.number().int().nullable() }),
  /** The whole run's counts, whatever the page: error and warning findings, refused data lines. */
  totals: z.strictObject({ errors: z.number().int().min(0), warnings: z.number().int().min(0), refused_lines: z.number().int().min(0) }),
});
export type LedesResultDto = z.infer<typeof ledesResultSchema>;

export const ledesRunResponse = z.strictObject({ success: z.literal(true), run: ledesRunSchema, result: ledesResultSchema.nullable() });
export type LedesRunResponse = z.infer<typeof ledesRunResponse>;

/** The upload's answer: the runs at once, and their results too when `wait` saw them all finish. */
export const ledesUploadResponse = z.strictObject({
  success: z.literal(true),
  runs: z.array(ledesRunSchema),
  ledes: z.array(ledesResultSchema).optional(),
});
export type LedesUploadResponse = z.infer<typeof ledesUploadResponse>;

/** The spec's history item, with the file's findings summarised as line numbers. */
export const historyItemSchema = z.strictObject({
  _id: z.uuid(),
  name: z.string(),
  /** The uploaded file's own name (the history name without its date prefix). */
  filename: z.string(),
  created: z.iso.datetime(),
  state: z.enum(RUN_STATES),
  accepted: z.boolean().nullable(),
  lines_checked: z.number().int().min(0),
  /** Data lines without error (capped list) and lines with an error, as 0-based numbers. */
  format_ok: z.array(z.number().int()),
  error: z.array(z.number().int()),
  format_ok_count: z.number().int(),
  error_count: z.number().int().min(0),
  path: z.string(),
  path_treated: z.string().nullable(),
  office: z.string(),
  type: z.enum(LEDES_TYPES),
  user_info: z.strictObject({ _id: z.uuid(), company_agent: z.string(), email: z.string() }),
  delivered: z.boolean(),
});
export type HistoryItem = z.infer<typeof historyItemSchema>;

/** A history page; an empty history is a 204 without a body instead. */
export const historyPageResponse = z.strictObject({ success: z.literal(true), data: z.array(historyItemSchema), meta: paginationMetaSchema });
export type HistoryPageResponse = z.infer<typeof historyPageResponse>;
