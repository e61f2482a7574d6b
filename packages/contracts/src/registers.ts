import { z } from 'zod';
import { isCleanText } from './text.ts';

/*
 * The register sync (issue 29 §3, decision 196): its runs, with their progress, and the discrepancies between the
 * portal's ledger and what the EP register says, with the staff's two actions.
 */

export const REGISTER_SYNC_STATES = ['in_progress', 'Done', 'Error'] as const;
export const REGISTER_SYNC_TRIGGERS = ['schedule', 'admin'] as const;

/** One sync run: patents done / total, paused until (a throttled answer), disabled (no OPS credentials); also the `registers:sync:updated` payload. */
export const registerSyncRunSchema = z.strictObject({
  _id: z.uuid(),
  trigger: z.enum(REGISTER_SYNC_TRIGGERS),
  day: z.string(),
  state: z.enum(REGISTER_SYNC_STATES),
  error_code: z.string().nullable(),
  total: z.number().int().nullable(),
  done: z.number().int(),
  found: z.number().int(),
  not_found: z.number().int(),
  failed: z.number().int(),
  discrepancies: z.number().int(),
  paused_until: z.iso.datetime().nullable(),
  pause_reason: z.string().nullable(),
  disabled: z.string().nullable(),
  created: z.iso.datetime(),
  finished: z.iso.datetime().nullable(),
});
export type RegisterSyncRunDto = z.infer<typeof registerSyncRunSchema>;

export const registerSyncListSchema = z.strictObject({
  /** False when OPS credentials are not configured: the sync does nothing and says so. */
  configured: z.boolean(),
  runs: z.array(registerSyncRunSchema),
});
export type RegisterSyncList = z.infer<typeof registerSyncListSchema>;

export const REGISTER_DISCREPANCY_KINDS = ['register_paid', 'register_lapsed', 'instruction_on_lapsed'] as const;
export const REGISTER_DISCREPANCY_STATUSES = ['open', 'accepted', 'kept'] as const;
export const LEDGER_STATE_VALUES = ['due', 'instructed', 'ordered', 'paid', 'confirmed', 'abandoned', 'lapsed'] as const;

export const registerDiscrepancySchema = z.strictObject({
  _id: z.uuid(),
  kind: z.enum(REGISTER_DISCREPANCY_KINDS),
  status: z.enum(REGISTER_DISCREPANCY_STATUSES),
  patent_key: z.string(),
  annuity_year: z.number().int(),
  record_id: z.uuid().nullable(),
  reference_client: z.string().nullable(),
  numero_publication: z.string().nullable(),
  numero_depot: z.string().nullable(),
  pays: z.string().nullable(),
  portal_state: z.enum(LEDGER_STATE_VALUES),
  register_on: z.string().nullable(),
  register_code: z.string(),
  register_url: z.string(),
  note: z.string().nullable(),
  resolved_at: z.iso.datetime().nullable(),
  created: z.iso.datetime(),
});
export type RegisterDiscrepancyDto = z.infer<typeof registerDiscrepancySchema>;

export const registerDiscrepancyQuerySchema = z.strictObject({
  status: z.enum(REGISTER_DISCREPANCY_STATUSES).default('open'),
  kind: z.enum(REGISTER_DISCREPANCY_KINDS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const registerDiscrepancyPageSchema = z.strictObject({
  data: z.array(registerDiscrepancySchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type RegisterDiscrepancyPage = z.infer<typeof registerDiscrepancyPageSchema>;

/** Keep the portal's state: a note is required (the audit says why). */
export const registerKeepBodySchema = z.strictObject({ note: z.string().trim().min(1).max(1000).refine(isCleanText, { error: 'validation_failed', abort: true }) });

export const registerSyncListResponse = z.strictObject({ success: z.literal(true), configured: z.boolean(), runs: z.array(registerSyncRunSchema) });
export const registerSyncStartResponse = z.strictObject({ success: z.literal(true), created: z.boolean(), run: registerSyncRunSchema });
export const registerDiscrepancyListResponse = z.strictObject({ success: z.literal(true), ...registerDiscrepancyPageSchema.shape });
export const registerDiscrepancyIdParams = z.strictObject({ id: z.uuid() });
export const registerDiscrepancyResponse = z.strictObject({ success: z.literal(true), discrepancy: registerDiscrepancySchema });
export const registerAcceptBodySchema = z.strictObject({});
