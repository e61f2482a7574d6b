import { z } from 'zod';
import { PATENT_COST_MAX, PATENT_TEXT_MAX } from './constants.ts';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';

/**
 * The portfolio's back-office loop (issue 11): imports of the back office's export (`/patent_imports`),
 * the integration's sync (`PUT /brevet_eptane/sync`), the exports of validated instructions
 * (`/patent_exports`) and the agents' reminders (`/patent_reminders`).
 */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const pageParam = (max: number, fallback: number) =>
  text()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .default(fallback);

/** Rows of a sync batch at most (and of one upsert statement). */
export const PATENT_SYNC_MAX_ROWS = 1000;
/** Refused rows kept with their row number and reason, per import. */
export const PATENT_IMPORT_KEPT_REJECTIONS = 100;
/** An import file's size cap (xlsx or CSV). */
export const PATENT_IMPORT_MAX_BYTES = 25 * 1024 * 1024;
export const PATENT_IMPORT_EXTENSIONS = ['xlsx', 'csv'] as const;

/**
 * The columns of an import and of a sync row: the record view's wire names. `cabinet` is the firm's
 * name (created when unknown, decision 106), `currency` the cost's currency (EUR when absent).
 */
export const PATENT_PORTFOLIO_FIELDS = [
  'idagenda',
  'idbrevet',
  'code_client',
  'cabinet',
  'ReferenceClient',
  'nosref',
  'noDepot',
  'NoPublication',
  'Pays',
  'Origine',
  'Depot',
  'Expiration',
  'DateEcheance',
  'Quantieme',
  'cost',
  'currency',
  'TitreAnglais',
  'TitreFrancais',
  'DonneurOrdre',
  'DonneurOrdreAn',
  'DateAcquit',
  'DatePaiementOffice',
  'DateReponseACourrier',
  'DatePaiementClient',
  'id_instruction',
] as const;
export type PatentPortfolioField = (typeof PATENT_PORTFOLIO_FIELDS)[number];

/** Why a row of an import or a sync was refused. */
export const PATENT_ROW_REJECTIONS = [
  'missing_idagenda',
  'missing_client_code',
  'missing_cabinet',
  'missing_country',
  'invalid_date',
  'invalid_number',
  'value_too_long',
  'unknown_currency',
  'unknown_instruction',
  'duplicate_idagenda',
  // Issue 25 §3: the same input rules as the forms.
  'invalid_cost',
  'formula_not_allowed',
  'invalid_application_number',
  'invalid_publication_number',
] as const;
export type PatentRowRejection = (typeof PATENT_ROW_REJECTIONS)[number];

export const patentRowRejectionSchema = z.strictObject({ row: z.number().int(), code: z.enum(PATENT_ROW_REJECTIONS), field: z.string().optional() });
export type PatentRowRejectionDto = z.infer<typeof patentRowRejectionSchema>;

export const PATENT_IMPORT_STATES = ['in_progress', 'Done', 'Error'] as const;

/** One import: its state, live progress and counts; also the `patents:import:updated` payload. */
export const patentImportSchema = z.strictObject({
  _id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  state: z.enum(PATENT_IMPORT_STATES),
  error_code: z.string().nullable(),
  rows_total: z.number().int().nullable(),
  rows_done: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  /** Rows stored but flagged: they disagree with the computed schedule (`schedule_mismatch` on the record). */
  flagged: z.number().int(),
  rejections: z.array(patentRowRejectionSchema),
  uploaded_by: z.uuid().nullable(),
  created: z.iso.datetime(),
  finished: z.iso.datetime().nullable(),
});
export type PatentImportDto = z.infer<typeof patentImportSchema>;

export const patentImportUploadFields = z.strictObject({});
export const patentImportIdParams = z.strictObject({ id: z.uuid() });
export const patentPagedQuery = z.strictObject({ page: pageParam(100_000, 1), limit: pageParam(100, 20) });
export type PatentPagedQuery = z.output<typeof patentPagedQuery>;
export const patentImportResponse = z.strictObject({ success: z.literal(true), patent_import: patentImportSchema });
export const patentImportsResponse = z.strictObject({ success: z.literal(true), patent_imports: z.array(patentImportSchema), meta: paginationMetaSchema });

const cell = (max: number) => text().max(max).nullable().optional();
const dayCell = z.string().regex(ISO_DAY).nullable().optional();

/** One row of the integration's sync: the record view's fields; absent and null are the same (no value). */
export const patentSyncRowSchema = z.strictObject({
  idagenda: text().trim().min(1).max(PATENT_TEXT_MAX.idagenda),
  idbrevet: cell(PATENT_TEXT_MAX.idbrevet),
  code_client: text().trim().min(1).max(PATENT_TEXT_MAX.clientCode),
  cabinet: text().trim().min(1).max(PATENT_TEXT_MAX.cabinet),
  ReferenceClient: cell(PATENT_TEXT_MAX.reference),
  nosref: cell(PATENT_TEXT_MAX.reference),
  // Checked per row by the import's rules (prepareRow): office format, formula prefixes.
  noDepot: cell(PATENT_TEXT_MAX.number),
  NoPublication: cell(PATENT_TEXT_MAX.number),
  Pays: text().trim().min(1).max(PATENT_TEXT_MAX.country),
  Origine: cell(PATENT_TEXT_MAX.origin),
  Depot: dayCell,
  Expiration: dayCell,
  DateEcheance: dayCell,
  Quantieme: z.number().int().min(0).max(100).nullable().optional(),
  cost: z.number().min(0).max(PATENT_COST_MAX).nullable().optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).nullable().optional(),
  TitreAnglais: cell(PATENT_TEXT_MAX.title),
  TitreFrancais: cell(PATENT_TEXT_MAX.title),
  DonneurOrdre: cell(PATENT_TEXT_MAX.party),
  DonneurOrdreAn: cell(PATENT_TEXT_MAX.party),
  DateAcquit: dayCell,
  DatePaiementOffice: dayCell,
  DateReponseACourrier: dayCell,
  DatePaiementClient: dayCell,
  /** Present: the back office sets (or, with null, clears) the instruction; absent: the portal's stays. */
  id_instruction: z.number().int().min(1).max(1000).nullable().optional(),
});
export type PatentSyncRow = z.infer<typeof patentSyncRowSchema>;
export const patentSyncBody = z.strictObject({ brevet_eptane: z.array(patentSyncRowSchema).min(1).max(PATENT_SYNC_MAX_ROWS) });
export const patentSyncResponse = z.strictObject({
  success: z.literal(true),
  inserted: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
  /** Rows stored but flagged: they disagree with the computed schedule. */
  flagged: z.number().int(),
  rejections: z.array(patentRowRejectionSchema),
});

/** One export batch of validated instructions. */
export const patentExportBatchSchema = z.strictObject({
  _id: z.uuid(),
  name: z.string(),
  patent_count: z.number().int(),
  created: z.iso.datetime(),
});
export type PatentExportBatchDto = z.infer<typeof patentExportBatchSchema>;
export const patentExportsResponse = z.strictObject({ success: z.literal(true), patent_exports: z.array(patentExportBatchSchema), meta: paginationMetaSchema });
export const patentExportIdParams = z.strictObject({ id: z.uuid() });
export const patentExportDownloadQuery = z.strictObject({ format: z.enum(['xlsx', 'csv']).default('xlsx') });
/** A trigger answers at once: the export runs in the `patent-export` queue. */
export const patentJobTriggerResponse = z.strictObject({ success: z.literal(true), queued: z.literal(true) });
export const patentTriggerBody = z.strictObject({});
