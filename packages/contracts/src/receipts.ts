import { z } from 'zod';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';

/**
 * Payment receipts (récépissés), spec §2 "Receipts", §3 "Receipt", §7 "Receipts": an upload (one PDF
 * or a zip of PDFs, `receipt_uploads`) read by the `receipts` queue into one receipt per PDF.
 */

/** An upload's size cap (one PDF or a zip of PDFs). */
export const RECEIPT_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
export const RECEIPT_EXTENSIONS = ['pdf', 'zip'] as const;
/** Bounds of a zip (reliability-security.md §2.2): entries, inflated bytes in all and per entry. */
export const RECEIPT_ZIP_LIMITS = { maxEntries: 1_000, maxInflatedBytes: 200 * 1024 * 1024, maxEntryBytes: 20 * 1024 * 1024, maxManifestBytes: 2 * 1024 * 1024 } as const;
/** Refused entries kept per upload, with their reason. */
export const RECEIPT_KEPT_REFUSALS = 100;
/** Names of the manifest inside a zip (at its root, any case). */
export const RECEIPT_MANIFEST_NAMES = ['manifest.csv', 'manifest.xlsx'] as const;

/** Why an entry of an upload was not made into a receipt. */
export const RECEIPT_REFUSALS = ['nested_archive', 'not_pdf', 'unsafe_entry_name', 'entry_too_large', 'corrupt_entry', 'encrypted_entry'] as const;
export type ReceiptRefusal = (typeof RECEIPT_REFUSALS)[number];
/** Why a whole upload ended in Error (nothing was made of it). */
export const RECEIPT_UPLOAD_ERRORS = ['too_many_entries', 'archive_too_large', 'malformed_archive', 'unreadable_manifest', 'processing_failed', 'interrupted'] as const;

export const RECEIPT_UPLOAD_STATES = ['in_progress', 'Done', 'Error'] as const;
export const RECEIPT_SOURCES = ['manifest', 'pdf_text', 'none'] as const;

export const receiptRefusalSchema = z.strictObject({ entry: z.string(), code: z.string() });

/** One upload run: state, live progress, the receipts made and the entries refused; also the `receipts:upload:updated` payload. */
export const receiptUploadSchema = z.strictObject({
  _id: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  state: z.enum(RECEIPT_UPLOAD_STATES),
  error_code: z.string().nullable(),
  entries_total: z.number().int().nullable(),
  entries_done: z.number().int(),
  receipts_created: z.number().int(),
  refused_count: z.number().int(),
  refused: z.array(receiptRefusalSchema),
  created: z.iso.datetime(),
  finished: z.iso.datetime().nullable(),
});
export type ReceiptUploadDto = z.infer<typeof receiptUploadSchema>;

/** One patent a receipt names, as the matcher read it (decision 198). */
export const receiptMatchCandidateSchema = z.strictObject({
  record_id: z.uuid(),
  idagenda: z.string().nullable(),
  reference_client: z.string().nullable(),
  numero_depot: z.string().nullable(),
  numero_publication: z.string().nullable(),
  pays: z.string(),
  year: z.number().int().nullable(),
  year_printed: z.boolean(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  evidence: z.array(z.string()),
  confidence: z.enum(['sure', 'ambiguous']),
});
export type ReceiptMatchCandidateDto = z.infer<typeof receiptMatchCandidateSchema>;

/** Spec §3 "Receipt": reference_client, reference_inpi, the provider's reference, date_ordre_paiement, path. */
export const receiptSchema = z.strictObject({
  _id: z.uuid(),
  reference_client: z.string().nullable(),
  reference_inpi: z.string().nullable(),
  /** The payment provider's reference. */
  reference_provider: z.string().nullable(),
  date_ordre_paiement: z.string().nullable(),
  /** The download's `file_path` (an opaque key issued by the server). */
  path: z.string(),
  file_name: z.string(),
  size: z.number().int(),
  source: z.enum(RECEIPT_SOURCES),
  /** Some reference is missing: a person completes it. */
  needs_completion: z.boolean(),
  pdf_error: z.string().nullable(),
  patent: z.strictObject({ _id: z.uuid(), idagenda: z.string(), ReferenceClient: z.string().nullable() }).nullable(),
  upload_id: z.uuid(),
  created: z.iso.datetime(),
  /** The matcher's verdict (decision 192): sure (linked), ambiguous or none (unlinked, for staff); null for a receipt read before it. */
  match_confidence: z.enum(['sure', 'ambiguous', 'none']).nullable().optional(),
  /** What the matcher read (decision 198): each patent the receipt names, its year, amount, currency and evidence; absent before it. */
  match_candidates: z.array(receiptMatchCandidateSchema).optional(),
});
export type ReceiptDto = z.infer<typeof receiptSchema>;

const positiveInt = (max: number) =>
  text()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

export const RECEIPT_SORTS = ['created', 'reference_client', 'reference_inpi', 'reference_provider', 'date_ordre_paiement', 'file_name'] as const;
export type ReceiptSort = (typeof RECEIPT_SORTS)[number];
export const RECEIPT_PAGE_SIZES = [10, 20, 50, 100] as const;

export const receiptListQuery = z.strictObject({
  /** Substring of a reference (client, INPI, provider) or of the file name. */
  search: text().trim().max(200).optional(),
  /** `1`: only the receipts whose references are to be completed. */
  to_complete: z.enum(['0', '1']).optional(),
  /** `1`: only the receipts linked to no patent (the matcher was not sure, decision 192): staff's queue. */
  unlinked: z.enum(['0', '1']).optional(),
  sort: z.enum(RECEIPT_SORTS).default('created'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: positiveInt(1_000_000).default(1),
  limit: positiveInt(100).default(20),
});
export type ReceiptListQuery = z.output<typeof receiptListQuery>;
export const receiptListResponse = z.strictObject({ success: z.literal(true), recepisse: z.array(receiptSchema), meta: paginationMetaSchema });
export const receiptIdParams = z.strictObject({ id: z.uuid() });
export const receiptResponse = z.strictObject({ success: z.literal(true), recepisse: receiptSchema });
/** Any text up to 2 KiB: an unknown key (NUL and traversal forms included) is the same 404 as any other (UP-14). */
export const receiptDownloadQuery = z.strictObject({ file_path: z.string().min(1).max(2048) });
export const receiptUploadFields = z.strictObject({});
/** Spec §7: "returns a boolean result" (`result`); the upload's id and state let the screen follow it live. */
export const receiptUploadResponse = z.strictObject({ success: z.literal(true), result: z.boolean(), upload: receiptUploadSchema });
export const receiptUploadsQuery = z.strictObject({ page: positiveInt(100_000).default(1), limit: positiveInt(50).default(5) });
export const receiptUploadsResponse = z.strictObject({ success: z.literal(true), uploads: z.array(receiptUploadSchema), meta: paginationMetaSchema });
/** The receipts of one patent (the detail modal). */
export const patentReceiptsResponse = z.strictObject({ success: z.literal(true), recepisse: z.array(receiptSchema) });

/** POST /receipts/{id}/link (staff, decision 192): the patent record a receipt pays, and the annuity year when it is not the record's own. */
export const receiptLinkBody = z.strictObject({
  patent_id: z.uuid(),
  year: z.number().int().min(0).max(100).optional(),
});
export type ReceiptLinkBody = z.infer<typeof receiptLinkBody>;
export const receiptLinkResponse = z.strictObject({ success: z.literal(true), recepisse: receiptSchema });
