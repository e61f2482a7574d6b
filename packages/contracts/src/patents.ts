import { z } from 'zod';
import { INSTRUCTION_STATUSES, PATENT_BULK_MAX_ROWS, PATENT_LOCK_CODES, PATENT_PAGE_MAX, PATENT_SORTS, PATENT_TABS } from './constants.ts';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';

/** The agents' patent portfolio (`brevet_eptane`) and payment instructions (`instruction_paiement`), spec §3, §4, §7. */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day written YYYY-MM-DD (2026-02-30 is refused). */
export function isIsoDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
const isoDay = z.string().regex(ISO_DAY);

const positiveInt = (max: number) =>
  text()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** Values separated by `;` (spec §5 filters): trimmed, empty ones dropped, at most `max` of them. */
const semicolonList = (item: z.ZodType<string, string>, max: number) =>
  text()
    .max(2000)
    .transform((value) => value.split(';').map((part) => part.trim()).filter((part) => part !== ''))
    .pipe(z.array(item).max(max));

/** An instruction id as the back office numbers them (1 to 4 today); whether it exists is the server's 400 `unknown_instruction`. */
export const instructionIdSchema = z.number().int().min(1).max(1000);

/** A payment instruction: each title carries its tooltip after a colon; the third ends with next year. */
export const paymentInstructionSchema = z.strictObject({
  _id: z.number().int(),
  titre_fr: z.string(),
  titre_en: z.string(),
});
export type PaymentInstructionDto = z.infer<typeof paymentInstructionSchema>;
export const instructionIdParams = z.strictObject({ id: text().regex(/^\d{1,4}$/).transform(Number) });
export const paymentInstructionsResponse = z.strictObject({ success: z.literal(true), instruction_paiement: z.array(paymentInstructionSchema) });
export const paymentInstructionResponse = z.strictObject({ success: z.literal(true), instruction_paiement: paymentInstructionSchema });

/** The spec's "Patent (annuity/record view)", one spelling per field; `locked` says why the instruction cannot change (null: it can). */
export const patentRecordSchema = z.strictObject({
  _id: z.uuid(),
  idagenda: z.string(),
  idbrevet: z.string().nullable(),
  code_client: z.string(),
  cabinet: z.strictObject({ _id: z.uuid(), name: z.string() }),
  ReferenceClient: z.string().nullable(),
  nosref: z.string().nullable(),
  noDepot: z.string().nullable(),
  NoPublication: z.string().nullable(),
  Pays: z.string(),
  Origine: z.string().nullable(),
  Depot: isoDay.nullable(),
  Expiration: isoDay.nullable(),
  DateEcheance: isoDay.nullable(),
  /** Due date minus 7 days: past it, the instruction cannot change. */
  DateLimite: isoDay.nullable(),
  Quantieme: z.number().int().nullable(),
  /** In euros. */
  cost: z.number().nullable(),
  TitreAnglais: z.string().nullable(),
  TitreFrancais: z.string().nullable(),
  DonneurOrdre: z.string().nullable(),
  DonneurOrdreAn: z.string().nullable(),
  id_instruction: z.number().int().nullable(),
  instruction: z.strictObject({ id_instruction: z.number().int().nullable(), traitement_instruction: z.enum(INSTRUCTION_STATUSES) }),
  DateAcquit: isoDay.nullable(),
  DatePaiementOffice: isoDay.nullable(),
  DateReponseACourrier: isoDay.nullable(),
  DatePaiementClient: isoDay.nullable(),
  exported_at: z.iso.datetime().nullable(),
  locked: z.enum(PATENT_LOCK_CODES).nullable(),
  /** Sent back with an update: a change made meanwhile by someone else makes it a 409. */
  version: z.number().int().min(1),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
});
export type PatentRecordDto = z.infer<typeof patentRecordSchema>;

/** GET /brevet_eptane and /brevet_eptane/admin/{code}: one tab, filtered, searched, sorted and paged by the server. */
export const patentListQuery = z.strictObject({
  tab: z.enum(PATENT_TABS).default('unprocessed'),
  /** Spec §5: one due date, or `from;to` (inclusive), YYYY-MM-DD. */
  dates: text()
    .max(100)
    .refine((value) => {
      const parts = value.split(';');
      return parts.length <= 2 && parts.every(isIsoDay);
    }, { error: 'invalid_date_format' })
    .transform((value) => value.split(';').sort())
    .optional(),
  /** `;`-separated, each matched by substring on the client reference, the application number or the publication number. */
  references: semicolonList(text().max(100), 50).optional(),
  /** `;`-separated instruction ids. */
  instruction: semicolonList(text().regex(/^\d{1,4}$/), 10).transform((ids) => ids.map(Number)).optional(),
  /** `;`-separated office (country) codes. */
  office: semicolonList(text().regex(/^[A-Za-z]{2,3}$/), 50).transform((codes) => codes.map((c) => c.toUpperCase())).optional(),
  search: text().trim().max(200).optional(),
  sort: z.enum(PATENT_SORTS).default('DateEcheance'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(PATENT_PAGE_MAX).default(20),
});
export type PatentListQuery = z.output<typeof patentListQuery>;
export const patentListResponse = z.strictObject({ success: z.literal(true), brevet_eptane: z.array(patentRecordSchema), meta: paginationMetaSchema });
export type PatentListResponse = z.infer<typeof patentListResponse>;

/** A client code as the back office writes them. */
export const patentClientCodeParams = z.strictObject({ code: text().trim().min(1).max(50) });
export const patentIdParams = z.strictObject({ id: z.uuid() });
export const patentResponse = z.strictObject({ success: z.literal(true), brevet_eptane: patentRecordSchema });

/** PUT /brevet_eptane/update/instruction_paiement/{id}: the instruction, and the version the screen read. */
export const patentInstructionBody = z.strictObject({
  instruction_paiement: instructionIdSchema,
  version: z.number().int().min(1).max(2 ** 31 - 1),
});

/** A row of the bulk update as the screen holds it (spec §7), plus the version it read. */
export const bulkInstructionRowSchema = z.strictObject({
  idagenda: text().min(1).max(50),
  ReferenceClient: text().max(200).nullable().optional(),
  noDepot: text().max(100).nullable().optional(),
  NoPublication: text().max(100).nullable().optional(),
  Pays: text().max(10).nullable().optional(),
  DateEcheance: text().max(30).nullable().optional(),
  instructionBeingUpdated: instructionIdSchema,
  version: z.number().int().min(1).max(2 ** 31 - 1),
});
export type BulkInstructionRow = z.infer<typeof bulkInstructionRowSchema>;

/**
 * PUT /brevet_eptane/many/update_instruction. `patents` are applied all together or not at all;
 * `not_updated` is what the screen could not send (locked rows it had selected): validated, not applied.
 */
export const bulkInstructionBody = z.strictObject({
  patents: z.array(bulkInstructionRowSchema).min(1).max(PATENT_BULK_MAX_ROWS),
  not_updated: z.array(bulkInstructionRowSchema.partial({ instructionBeingUpdated: true, version: true })).max(PATENT_BULK_MAX_ROWS).default([]),
});

/** A row the bulk update refused, with the reason's code and its text in the caller's language. */
export const refusedInstructionRowSchema = z.strictObject({
  idagenda: z.string(),
  ReferenceClient: z.string().nullable(),
  noDepot: z.string().nullable(),
  NoPublication: z.string().nullable(),
  Pays: z.string().nullable(),
  DateEcheance: z.string().nullable(),
  instructionBeingUpdated: z.number().int(),
  code: z.string(),
  reason: z.string(),
});
export type RefusedInstructionRow = z.infer<typeof refusedInstructionRowSchema>;

/** All rows applied (a refusal is the 409 `instructions_refused`, whose envelope lists them in `not_updated`). */
export const bulkInstructionResponse = z.strictObject({
  success: z.literal(true),
  updated: z.number().int().min(0),
  brevet_eptane: z.array(patentRecordSchema),
});
export type BulkInstructionResponse = z.infer<typeof bulkInstructionResponse>;
