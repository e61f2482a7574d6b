import { z } from 'zod';
import { patentCostsSchema } from './costs.ts';
import {
  PAYMENT_LEDGER_SOURCES,
  PAYMENT_LEDGER_STATES,
  INSTRUCTION_SOURCES,
  INSTRUCTION_STATUSES,
  PATENT_BULK_MAX_ROWS,
  PATENT_DEADLINE_STATES,
  PATENT_LOCK_CODES,
  PATENT_MISSING_FIELDS,
  PATENT_MISSING_PAGE_SIZE,
  PATENT_PAGE_MAX,
  PATENT_SCHEDULE_MISMATCH_CODES,
  PATENT_SCHEDULE_REASONS,
  PATENT_SORTS,
  PATENT_SUBMISSION_STATUSES,
  PATENT_TABS,
  PATENT_TEXT_MAX,
  PATENT_TO_VALIDATE_PAGE_SIZE,
  PATENT_TO_VALIDATE_SORTS,
} from './constants.ts';
import { paginationMetaSchema, patentListMetaSchema } from './pagination.ts';
import { costNumber, freeText, identifierText, numberMatchesOffice, requiredIdentifier } from './patent-input.ts';
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

/**
 * Where a patent's annuity stands today, computed on the server by the annuity engine from the record's
 * office, origin, filing and due dates (issue 25: the web does no date arithmetic). `state`: before_due,
 * due (past the due date, still without surcharge: DE's two months, GB's one, ES's three), grace (the
 * surcharge runs) or past_grace (after `lost_after`). Each period end has two edges: the *pay by* date
 * (`no_surcharge_end`, `grace_end`: reminders, colours, the agent's limit) and the latest the law may allow
 * (`no_surcharge_end_latest`, `lost_after`); they differ only where a rule is unverified (`extension_unverified`).
 */
export const patentDeadlineSchema = z.strictObject({
  state: z.enum(PATENT_DEADLINE_STATES),
  no_surcharge_end: isoDay,
  no_surcharge_end_latest: isoDay,
  grace_end: isoDay,
  lost_after: isoDay,
  extension_unverified: z.boolean(),
  closing_days_provisional: z.boolean(),
});
export type PatentDeadlineDto = z.infer<typeof patentDeadlineSchema>;

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
  /** The engine's deadlines of this annuity (null without a due date or an office the engine knows). */
  deadline: patentDeadlineSchema.nullable(),
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
  /** The record disagrees with the computed schedule: how, and the engine's annuity (number, due date) it should name; null when it agrees or cannot be checked. */
  schedule_mismatch: z.strictObject({ code: z.enum(PATENT_SCHEDULE_MISMATCH_CODES), Quantieme: z.number().int(), DateEcheance: isoDay }).nullable(),
  /** Sent back with an update: a change made meanwhile by someone else makes it a 409. */
  version: z.number().int().min(1),
  created: z.iso.datetime(),
  updated: z.iso.datetime(),
  /** The payment ledger's state of this record's annuity year (decision 191); null when the ledger has no row for it yet. */
  ledger_state: z.enum(PAYMENT_LEDGER_STATES).nullable().optional(),
  /** The open renewal call this annuity belongs to (issue 30 §3) and its "instruct before" date, computed by the server; null when in none. Lists only. */
  renewal_call: z.strictObject({ _id: z.uuid(), instruct_before: isoDay }).nullable().optional(),
});
export type PatentRecordDto = z.infer<typeof patentRecordSchema>;

/** One year of a patent's payment ledger (decision 191): its state, since when and from which source; the payment and its receipt once paid. */
export const patentLedgerYearSchema = z.strictObject({
  year: z.number().int(),
  state: z.enum(PAYMENT_LEDGER_STATES),
  source: z.enum(PAYMENT_LEDGER_SOURCES).nullable(),
  state_at: z.iso.datetime(),
  paid_on: isoDay.nullable(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  receipt: z.strictObject({ _id: z.uuid(), file_name: z.string() }).nullable(),
});
export type PatentLedgerYearDto = z.infer<typeof patentLedgerYearSchema>;

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
  /** `mismatch`: only the records that disagree with the computed schedule. */
  schedule: z.enum(['mismatch']).optional(),
  sort: z.enum(PATENT_SORTS).default('DateEcheance'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(PATENT_PAGE_MAX).default(20),
  /** Keyset paging (decision 174): a `next_cursor` or `previous_cursor` of the page read; `page` still numbers the page asked for. */
  cursor: text().regex(/^[A-Za-z0-9_-]{1,700}$/).optional(),
});
export type PatentListQuery = z.output<typeof patentListQuery>;
export const patentListResponse = z.strictObject({ success: z.literal(true), brevet_eptane: z.array(patentRecordSchema), meta: patentListMetaSchema });
export type PatentListResponse = z.infer<typeof patentListResponse>;

/** A client code as the back office writes them. */
export const patentClientCodeParams = z.strictObject({ code: text().trim().min(1).max(50) });
export const patentIdParams = z.strictObject({ id: z.uuid() });
export const patentResponse = z.strictObject({
  success: z.literal(true),
  brevet_eptane: patentRecordSchema,
  /** GET /brevet_eptane/{id} only: every year of the patent's payment ledger, oldest first (decision 191). */
  ledger: z.array(patentLedgerYearSchema).optional(),
  /** GET /brevet_eptane/{id} only: the next annuity's cost part by part (issue 30 §1); null when the engine cannot schedule it. */
  costs: patentCostsSchema.nullable().optional(),
});

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
  /** The patent's id when the request named it by id (PUT /brevet_eptane/validate-instruction). */
  _id: z.string().optional(),
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

const version = z.number().int().min(1).max(2 ** 31 - 1);
/** A text cell a form may send empty: trimmed, and '' is null. */
const optionalText = (max: number) =>
  text()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value === '' || value === undefined ? null : value));
const countryCode = text()
  .trim()
  .regex(/^[A-Za-z]{2,3}$/)
  .transform((value) => value.toUpperCase());
const optionalDay = z
  .union([z.literal(''), text().refine(isIsoDay, { error: 'invalid_date_format' })])
  .nullish()
  .transform((value) => (value === '' || value === undefined ? null : value));

/* ---------- Patents with missing information (admins) ---------- */

/** GET /brevet_eptane/missing-information: patents whose application number, publication number or client reference is empty. */
export const missingInformationQuery = z.strictObject({
  search: text().trim().max(200).optional(),
  sort: z.enum(PATENT_MISSING_FIELDS).default('ReferenceClient'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(PATENT_PAGE_MAX).default(PATENT_MISSING_PAGE_SIZE),
  /** Keyset paging (decision 174): a `next_cursor` or `previous_cursor` of the page read; `page` still numbers the page asked for. */
  cursor: text().regex(/^[A-Za-z0-9_-]{1,700}$/).optional(),
});
export type MissingInformationQuery = z.output<typeof missingInformationQuery>;
/** Same shape as the portfolio list: `{ success, brevet_eptane, meta }`. */
export const missingInformationResponse = patentListResponse;

export const patentAgendaParams = z.strictObject({ idagenda: text().trim().min(1).max(50) });

/**
 * PUT /brevet_eptane/update-missing-info/{idagenda}: the cells the admin filled, with the version read.
 * Only fields empty today may be given; one filled meanwhile is the 409 `patent_field_filled`.
 */
export const missingInfoBody = z
  .strictObject({
    noDepot: requiredIdentifier(PATENT_TEXT_MAX.number).optional(),
    NoPublication: requiredIdentifier(PATENT_TEXT_MAX.number).optional(),
    ReferenceClient: requiredIdentifier(PATENT_TEXT_MAX.reference).optional(),
    Pays: countryCode.optional(),
    version,
  })
  .refine((body) => PATENT_MISSING_FIELDS.some((field) => body[field] !== undefined), { error: 'missing_info_empty' })
  // Against the country given with them; without one, the API checks against the record's.
  .refine(...numberMatchesOffice('noDepot', 'application', (body) => body.Pays))
  .refine(...numberMatchesOffice('NoPublication', 'publication', (body) => body.Pays));
export type MissingInfoBody = z.output<typeof missingInfoBody>;

/* ---------- Patents to validate (admin_test, admins) ---------- */

/** GET /brevet_eptane/to_validate: instructions given (status processed) waiting for staff, 10 per page, default sort noDepot. */
export const toValidateQuery = z.strictObject({
  search: text().trim().max(200).optional(),
  sort: z.enum(PATENT_TO_VALIDATE_SORTS).default('noDepot'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(PATENT_PAGE_MAX).default(PATENT_TO_VALIDATE_PAGE_SIZE),
  /** Keyset paging (decision 174): a `next_cursor` or `previous_cursor` of the page read; `page` still numbers the page asked for. */
  cursor: text().regex(/^[A-Za-z0-9_-]{1,700}$/).optional(),
});
export type ToValidateQuery = z.output<typeof toValidateQuery>;
/**
 * Rows are full patent records: noDepot, NoPublication, ReferenceClient, id_instruction (title from
 * GET /instruction_paiement in the locale), DonneurOrdre, DonneurOrdreAn and the version to send back.
 */
export const toValidateResponse = patentListResponse;

/** PUT /brevet_eptane/validate-instruction: all rows or none (409 `instructions_not_validated` lists the refused ones by `_id`). */
export const validateInstructionBody = z.strictObject({
  patents: z
    .array(z.strictObject({ _id: z.uuid(), version }))
    .min(1)
    .max(PATENT_BULK_MAX_ROWS),
});
export type ValidateInstructionBody = z.output<typeof validateInstructionBody>;
export const validateInstructionResponse = z.strictObject({
  success: z.literal(true),
  validated: z.number().int().min(0),
  brevet_eptane: z.array(patentRecordSchema),
});

/* ---------- Audit trail and annuity schedule of one patent ---------- */

export const patentEventSchema = z.strictObject({
  _id: z.uuid(),
  /** Null for the back-office sync, or once the user is deleted. */
  user: z.strictObject({ _id: z.uuid(), name: z.string() }).nullable(),
  old_instruction: z.number().int().nullable(),
  new_instruction: z.number().int().nullable(),
  old_status: z.enum(INSTRUCTION_STATUSES),
  new_status: z.enum(INSTRUCTION_STATUSES),
  source: z.enum(INSTRUCTION_SOURCES),
  created: z.iso.datetime(),
});
export type PatentEventDto = z.infer<typeof patentEventSchema>;
/** GET /brevet_eptane/{id}/events: newest first. */
export const patentEventsResponse = z.strictObject({ success: z.literal(true), events: z.array(patentEventSchema) });

export const patentScheduleAnnuitySchema = z.strictObject({
  number: z.number().int(),
  due_date: isoDay,
  /** Last day without surcharge, and the last day with it (the right lapses after). */
  no_surcharge_end: isoDay,
  grace_end: isoDay,
  /** The same ends with every extension that may apply (equal to the above unless `extension_unverified`): lapsed only after `lost_after`. */
  no_surcharge_end_latest: isoDay,
  lost_after: isoDay,
  extension_unverified: z.boolean(),
  closing_days_provisional: z.boolean(),
  /** Official fee in the office's currency, and in euros with the rate of `rate_date` (null: no table, or no rate). */
  fee: z.number().nullable(),
  currency: z.string(),
  fee_eur: z.number().nullable(),
  rate_date: isoDay.nullable(),
  /**
   * The fee is the office's amount in force on `payment_date`, the planned payment day (the due date; today for
   * an annuity unpaid past it), from the table `fee_table`; `fee_verified` false: no official text read gives that
   * amount for that day (docs/annuity-rules.md "Fee tables").
   */
  payment_date: isoDay,
  fee_table: z.string(),
  fee_verified: z.boolean(),
});
/** GET /brevet_eptane/{id}/schedule: the engine's schedule; a patent it cannot schedule has no annuities and a `reason`. */
export const patentScheduleResponse = z.strictObject({
  success: z.literal(true),
  reason: z.enum(PATENT_SCHEDULE_REASONS).nullable(),
  office: z.string().nullable(),
  expiry_date: isoDay.nullable(),
  next_number: z.number().int().nullable(),
  annuities: z.array(patentScheduleAnnuitySchema),
  /** Sum of the `fee_eur` of the annuities not yet due (null if one has none). */
  total_remaining_eur: z.number().nullable(),
});
export type PatentScheduleResponse = z.infer<typeof patentScheduleResponse>;

/* ---------- Submitted patents (add-patent form) and their review ---------- */

/** POST /brevet_eptane/create (spec §7 names). The country is required; the rest may be empty (the admin completes them). */
export const patentCreateBody = z
  .strictObject({
    numero_depot: identifierText(PATENT_TEXT_MAX.number),
    numero_publication: identifierText(PATENT_TEXT_MAX.number),
    date_depot: optionalDay,
    reference_client: identifierText(PATENT_TEXT_MAX.reference),
    reference_cabinet: identifierText(PATENT_TEXT_MAX.reference),
    date_echeance_annuites: optionalDay,
    pays: text({ error: 'country_required' }).trim().regex(/^[A-Za-z]{2,3}$/, { error: 'country_required' }).transform((value) => value.toUpperCase()),
    origine: freeText(PATENT_TEXT_MAX.origin),
    instruction_paiement: instructionIdSchema.nullish().transform((value) => value ?? null),
    quantieme: z.number().int().min(0).max(100).nullish().transform((value) => value ?? null),
    cout: costNumber().nullish().transform((value) => value ?? null),
  })
  // Numbers in the format of the chosen office (issue 25 §3).
  .refine(...numberMatchesOffice('numero_depot', 'application', (body) => body.pays))
  .refine(...numberMatchesOffice('numero_publication', 'publication', (body) => body.pays));
export type PatentCreateBody = z.output<typeof patentCreateBody>;

/** GET /brevet_eptane/proposal: what the engine proposes for the add form, from the office, origin and filing date. */
export const patentProposalQuery = z.strictObject({
  pays: countryCode,
  origine: optionalText(50),
  date_depot: text().refine(isIsoDay, { error: 'invalid_date_format' }),
});
/** The next annuity's due date, number and fee in euros; each null when the engine cannot tell (reason: its code). */
export const patentProposalResponse = z.strictObject({
  success: z.literal(true),
  date_echeance_annuites: isoDay.nullable(),
  quantieme: z.number().int().nullable(),
  cout: z.number().nullable(),
});
export type PatentProposalResponse = z.infer<typeof patentProposalResponse>;

export const patentSubmissionSchema = z.strictObject({
  _id: z.uuid(),
  status: z.enum(PATENT_SUBMISSION_STATUSES),
  numero_depot: z.string().nullable(),
  numero_publication: z.string().nullable(),
  date_depot: isoDay.nullable(),
  reference_client: z.string().nullable(),
  reference_cabinet: z.string().nullable(),
  date_echeance_annuites: isoDay.nullable(),
  pays: z.string().nullable(),
  origine: z.string().nullable(),
  instruction_paiement: z.number().int().nullable(),
  quantieme: z.number().int().nullable(),
  cout: z.number().nullable(),
  submitted_by: z.strictObject({ _id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  reason: z.string().nullable(),
  reviewed_at: z.iso.datetime().nullable(),
  /** The patent record an accepted submission became. */
  patent_id: z.uuid().nullable(),
  created: z.iso.datetime(),
});
export type PatentSubmissionDto = z.infer<typeof patentSubmissionSchema>;
export const patentCreateResponse = z.strictObject({ success: z.literal(true), submission: patentSubmissionSchema });

export const patentSubmissionsQuery = z.strictObject({
  status: z.enum(PATENT_SUBMISSION_STATUSES).default('pending'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(PATENT_PAGE_MAX).default(20),
});
export const patentSubmissionsResponse = z.strictObject({ success: z.literal(true), patent_submissions: z.array(patentSubmissionSchema), meta: paginationMetaSchema });
export const patentSubmissionIdParams = z.strictObject({ id: z.uuid() });
/** PUT /patent_submissions/{id}/accept: the cabinet and client code of the new record (default: the submitter's first ones). */
export const acceptSubmissionBody = z.strictObject({
  cabinet: z.uuid().optional(),
  code_client: text().trim().min(1).max(50).optional(),
});
export const acceptSubmissionResponse = z.strictObject({ success: z.literal(true), submission: patentSubmissionSchema, brevet_eptane: patentRecordSchema });
export const rejectSubmissionBody = z.strictObject({
  reason: text({ error: 'reason_required' }).trim().min(1, { error: 'reason_required' }).max(2000),
});
export const rejectSubmissionResponse = patentCreateResponse;

/* ---------- Admin edit of a record ---------- */

export const patentEditParams = z.strictObject({ _id: z.uuid() });
/** PUT /brevet_eptane/update/{_id} (admins): the fields to change (absent: unchanged, null: cleared) and the version read. */
export const patentEditBody = z
  .strictObject({
    ReferenceClient: identifierText(PATENT_TEXT_MAX.reference).optional(),
    nosref: identifierText(PATENT_TEXT_MAX.reference).optional(),
    noDepot: identifierText(PATENT_TEXT_MAX.number).optional(),
    NoPublication: identifierText(PATENT_TEXT_MAX.number).optional(),
    Pays: countryCode.optional(),
    Origine: freeText(PATENT_TEXT_MAX.origin).optional(),
    Depot: optionalDay.optional(),
    Expiration: optionalDay.optional(),
    DateEcheance: optionalDay.optional(),
    Quantieme: z.number().int().min(0).max(100).nullable().optional(),
    cost: costNumber().nullable().optional(),
    TitreAnglais: freeText(PATENT_TEXT_MAX.title).optional(),
    TitreFrancais: freeText(PATENT_TEXT_MAX.title).optional(),
    DonneurOrdre: freeText(PATENT_TEXT_MAX.party).optional(),
    DonneurOrdreAn: freeText(PATENT_TEXT_MAX.party).optional(),
    id_instruction: instructionIdSchema.nullable().optional(),
    DateAcquit: optionalDay.optional(),
    DatePaiementOffice: optionalDay.optional(),
    DateReponseACourrier: optionalDay.optional(),
    DatePaiementClient: optionalDay.optional(),
    version,
  })
  // Against the country given with them; without one, the API checks against the record's.
  .refine(...numberMatchesOffice('noDepot', 'application', (body) => body.Pays))
  .refine(...numberMatchesOffice('NoPublication', 'publication', (body) => body.Pays));
export type PatentEditBody = z.output<typeof patentEditBody>;

/* ---------- New case (contact-us banner) ---------- */

/** POST /file/send_email_for_new_case: multipart `file` (NEW_CASE_EXTENSIONS, at most NEW_CASE_MAX_BYTES) and no text field; mailed to support with the file, and a copy to the sender. */
export const newCaseFields = z.strictObject({});
export const newCaseResponse = z.strictObject({ success: z.literal(true) });

/* ---------- Live updates ---------- */

/** `patents:changed`: which patents changed and why; clients refetch what they show (no patent data travels). */
export const patentsChangedEventSchema = z.strictObject({ ids: z.array(z.uuid()), source: z.enum(INSTRUCTION_SOURCES) });
export type PatentsChangedEvent = z.infer<typeof patentsChangedEventSchema>;
