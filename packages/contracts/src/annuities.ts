import { z } from 'zod';
import { RUN_STATES } from './constants.ts';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';

/** Extensions accepted for an annuity spreadsheet (case-insensitive); the real type is checked from the bytes. */
export const ANNUITY_EXTENSIONS = ['xlsx', 'xls'] as const;
/** The spec's page sizes: 5 / 10 / 15 files (default 5), 30 / 50 / 100 / all patents (default 30). */
export const ANNUITY_FILE_PAGE_SIZES = [5, 10, 15] as const;
export const ANNUITY_PATENT_PAGE_SIZES = [30, 50, 100] as const;
/**
 * What `limit=all` means on the wire (decision 178): a window of this many rows, `page` counting windows,
 * `meta.pageSize` saying the size. The "All" view fetches the windows it scrolls to; no answer holds the whole file.
 */
export const ANNUITY_ALL_PAGE_SIZE = 100;
export const ANNUITY_BULK_MAX_IDS = 2000;
export const ANNUITY_COLOURS = ['ok', 'nok', 'orange', 'no_date'] as const;
export type AnnuityColour = (typeof ANNUITY_COLOURS)[number];
/** Sort keys of the patents-by-file table: the entity's fields, and the spec's `date_predecent_annuite` header name. */
export const ANNUITY_PATENT_SORTS = [
  'num_publication',
  'num_depot',
  'reference',
  'nom',
  'pays',
  'payeur',
  'date_depot',
  'mois_date_depot',
  'date_predecent_annuite',
  'date_precedente_annuite',
  'quant_precedent',
  'date_prochaine_annuite',
  'limite_date_prochaine_annuite',
  'colour',
] as const;
export type AnnuityPatentSort = (typeof ANNUITY_PATENT_SORTS)[number];
export const ANNUITY_FILE_SORTS = ['name', 'date'] as const;

const positiveInt = (max: number) =>
  text()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const order = z.enum(['asc', 'desc']);

/** The multipart text fields of POST /api/brevets/annuite (the file is the `file` part). */
export const annuityUploadFields = z.strictObject({ title: text().trim().max(200).optional(), file_name: text().trim().max(255).optional() });
export const annuityUploadResponse = z.strictObject({ success: z.literal(true), _id: z.uuid(), is_done: z.enum(RUN_STATES) });
export type AnnuityUploadResponse = z.infer<typeof annuityUploadResponse>;

/** Row counts per colour of a finished file. */
export const colourCountsSchema = z.strictObject({ ok: z.number().int(), nok: z.number().int(), orange: z.number().int(), no_date: z.number().int() });

/** The spec's "Annuities file", with progress, counts and the error reason; also the `annuities:file:updated` payload. */
export const annuityFileSchema = z.strictObject({
  _id: z.uuid(),
  title: z.string().nullable(),
  name_file_import: z.string(),
  name_file_export: z.string(),
  created: z.iso.datetime(),
  path_import: z.string(),
  /** Only once Done. */
  path_export: z.string().nullable(),
  is_done: z.enum(RUN_STATES),
  /** The engine's reason code (or processing_failed / interrupted) when Error; translated by the web under annuities:reason.*. */
  error_code: z.string().nullable(),
  /** That reason in the caller's language (the owner's, in socket events). */
  error_message: z.string().nullable(),
  rows_done: z.number().int().min(0),
  /** While running: the rows the engine expects after inspecting an xlsx (null before, and for an xls until Done); once Done, the rows read. */
  rows_total: z.number().int().min(0).nullable(),
  counts: colourCountsSchema.nullable(),
  /** The check's reference date (YYYY-MM-DD): "checked on". */
  reference_date: isoDay.nullable(),
  /** An edit or comment is not yet in the export; the queue is rewriting it. */
  export_stale: z.boolean(),
  owner: z.strictObject({ _id: z.uuid(), email: z.string(), company_agent: z.string() }).optional(),
});
export type AnnuityFileDto = z.infer<typeof annuityFileSchema>;

export const annuityFilesQuery = z.strictObject({
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(100).default(5),
  search: text().trim().max(200).optional(),
  sort: z.enum(ANNUITY_FILE_SORTS).default('date'),
  order: order.default('desc'),
});
export const annuityFilesResponse = z.strictObject({ success: z.literal(true), data: z.array(annuityFileSchema), meta: paginationMetaSchema });
export type AnnuityFilesResponse = z.infer<typeof annuityFilesResponse>;

/** An opaque storage key, checked by its own strict pattern before any lookup (same rule as the LEDES download). */
export const annuityDownloadQuery = z.strictObject({ file_path: z.string().min(1).max(2048) });

export const annuityIdParams = z.strictObject({ id: z.uuid() });

/** The spec's "Patent (file view)", plus what the engine computed (colour, reasons, flags, fee). */
export const annuityPatentSchema = z.strictObject({
  _id: z.uuid(),
  file_id: z.uuid(),
  row: z.number().int().min(0),
  sheet: z.string(),
  row_number: z.number().int(),
  num_publication: z.string().nullable(),
  num_depot: z.string().nullable(),
  reference: z.string().nullable(),
  nom: z.string().nullable(),
  pays: z.string().nullable(),
  payeur: z.string().nullable(),
  url: z.string().nullable(),
  publié: z.string().nullable(),
  dechu: z.boolean(),
  /** A lapsed row (`dechu`): the annuity left unpaid, its year number, and the last day its grace allowed (the engine's *lost after*); else null. */
  missed_number: z.number().int().nullable(),
  missed_lost_after: isoDay.nullable(),
  expired: z.boolean(),
  in_grace_with_surcharge: z.boolean(),
  office: z.string().nullable(),
  origin: z.string().nullable(),
  date_depot: isoDay.nullable(),
  mois_date_depot: z.number().int().nullable(),
  date_precedente_annuite: isoDay.nullable(),
  quant_precedent: z.number().int().nullable(),
  date_prochaine_annuite: isoDay.nullable(),
  next_number: z.number().int().nullable(),
  instruction_limit: isoDay.nullable(),
  limite_date_prochaine_annuite: isoDay.nullable(),
  /** The numbers quant_precedent may take for this patent's office and origin (the engine's: first year to 20); the edit modal's bounds. */
  quant_range: z.strictObject({ first: z.number().int().min(1), last: z.number().int().min(1) }),
  commentaire: z.string().nullable(),
  colour: z.enum(ANNUITY_COLOURS),
  reasons: z.array(z.string()),
  flags: z.array(z.string()),
  fee: z.string().nullable(),
  currency: z.string().nullable(),
  edited: z.boolean(),
  /**
   * The payment ledger's word on the row's next annuity (`next_number`) when the row is a portfolio patent the reader
   * may see and the ledger holds that year paid, confirmed by the register, or lapsed (decision 214); else null. When
   * set, `colour` says it: paid or confirmed is `ok`, lapsed is `orange` (no annuity due), never `nok`.
   */
  ledger: z
    .strictObject({
      state: z.enum(['paid', 'confirmed', 'lapsed']),
      year: z.number().int(),
      paid_on: isoDay.nullable(),
      source: z.string().nullable(),
      receipt_id: z.uuid().nullable(),
      receipt_file: z.string().nullable(),
    })
    .nullable(),
});
export type AnnuityPatentDto = z.infer<typeof annuityPatentSchema>;
export type AnnuityPatentLedger = NonNullable<AnnuityPatentDto['ledger']>;

export const annuityPatentsQuery = z.strictObject({
  page: positiveInt(1_000_000).default(1),
  limit: z.union([z.literal('all'), text().regex(/^(30|50|100)$/).transform(Number)]).default(30),
  search: text().trim().max(200).optional(),
  sort: z.enum(ANNUITY_PATENT_SORTS).optional(),
  order: order.default('asc'),
  colour: z.enum(ANNUITY_COLOURS).optional(),
});
export const annuityPatentsResponse = z.strictObject({
  success: z.literal(true),
  file: annuityFileSchema,
  patents: z.array(annuityPatentSchema),
  meta: paginationMetaSchema,
});
export type AnnuityPatentsResponse = z.infer<typeof annuityPatentsResponse>;

/**
 * The edit patent modal: the four editable fields (null clears one). The previous annuity number must
 * be a whole number in the patent's office range (first year to 20): the range depends on the stored
 * row, so the server checks it there and refuses it with `annuity_number_out_of_range` and the range.
 */
export const annuityPatentEditBody = z.strictObject({
  date_precedente_annuite: isoDay.nullable().optional(),
  date_prochaine_annuite: isoDay.nullable().optional(),
  quant_precedent: z
    .number('annuity_number_out_of_range')
    .describe("The number of the last annuity paid: from the office's first year (FR and UP 2, NL 4, GB and IT 5, others 3) to 20")
    .nullable()
    .optional(),
  limite_date_prochaine_annuite: isoDay.nullable().optional(),
});
export const annuityPatentEditResponse = z.strictObject({ success: z.literal(true), patent: annuityPatentSchema });

export const annuityBulkCommentBody = z.strictObject({
  // Bounded by the JSON body limit (100 kB): about 2,500 ids; the web sends larger selections in chunks.
  ids: z.array(z.uuid()).min(1).max(ANNUITY_BULK_MAX_IDS),
  comment: text().max(2000),
});
/**
 * The bulk comment over every row of a file that matches the modal's current search and colour filter
 * (the "All" view's select-all, decision 178), except the rows the user unticked after.
 */
export const annuityFileCommentBody = z.strictObject({
  search: text().trim().max(200).optional(),
  colour: z.enum(ANNUITY_COLOURS).optional(),
  except: z.array(z.uuid()).max(ANNUITY_BULK_MAX_IDS).default([]),
  comment: text().max(2000),
});
export const annuityBulkCommentResponse = z.strictObject({ success: z.literal(true), updated: z.number().int().min(0) });

/** /annuities/research: one search across the patents of every Done file the caller may read. */
export const annuityResearchQuery = z.strictObject({
  q: text().trim().min(1).max(200),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(100).default(30),
});
export const annuityResearchResponse = z.strictObject({
  success: z.literal(true),
  data: z.array(
    z.strictObject({
      patent: annuityPatentSchema,
      file: z.strictObject({ _id: z.uuid(), title: z.string().nullable(), name_file_import: z.string(), reference_date: isoDay.nullable() }),
    }),
  ),
  meta: paginationMetaSchema,
});
export type AnnuityResearchResponse = z.infer<typeof annuityResearchResponse>;
