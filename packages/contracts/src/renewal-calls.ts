import { z } from 'zod';
import { paginationMetaSchema } from './pagination.ts';
import { text } from './text.ts';

/**
 * Renewal calls per client (issue 30 §3, decision 202): the annuities of a client code falling due in its
 * cabinet's window, with "instruct before" dates and amounts computed by the server, and the steps first call →
 * reminder → last call, mailed to the client's agents. Staff read, preview, send now and hold them.
 */

export const RENEWAL_CALL_STEP_VALUES = ['first_call', 'reminder', 'last_call'] as const;
export const RENEWAL_CALL_STATES = ['open', 'closed', 'all'] as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** An amount as a decimal string in its currency's units ("136.00"): no floats on the wire. */
const amount = z.string().regex(/^-?\d+\.\d{2}$/);

export const renewalCallTotalSchema = z.strictObject({ currency: z.string(), amount });
/** One visible part of a cost: the official fee and the surcharge from the engine; other parts (agent's fee, service fee) when configured. */
/** A part of a line's cost as the patent's detail shows it (official fee, surcharge, agent's fee, service fee, margin), with its euros at the ECB rate (null without a rate). */
export const renewalCallPartSchema = z.strictObject({ part: z.string(), currency: z.string(), amount, amount_eur: amount.nullable() });

export const renewalCallSchema = z.strictObject({
  _id: z.uuid(),
  cabinet: z.string(),
  client_code: z.string(),
  opened_on: day,
  closed_on: day.nullable(),
  held: z.boolean(),
  /** The last step sent; null before the first call. */
  step: z.enum(RENEWAL_CALL_STEP_VALUES).nullable(),
  /** The next step and the day it is due, as the server computes it; null when none is left. */
  next_step: z.enum(RENEWAL_CALL_STEP_VALUES).nullable(),
  next_step_on: day.nullable(),
  /** The earliest "instruct before" of the open items. */
  instruct_before: day.nullable(),
  /** Whether that day has passed (the server's today): the screen says so rather than showing a day the reader may take for still ahead. */
  instruct_before_passed: z.boolean(),
  open_items: z.number().int(),
  items: z.number().int(),
  totals: z.array(renewalCallTotalSchema),
});
export type RenewalCallDto = z.infer<typeof renewalCallSchema>;

export const renewalCallLineSchema = z.strictObject({
  patent_id: z.uuid(),
  reference_client: z.string().nullable(),
  pays: z.string(),
  numero_depot: z.string().nullable(),
  quantieme: z.number().int().nullable(),
  due_date: day,
  instruct_before: day,
  in_grace: z.boolean(),
  /** The currency of `total` (EUR: the parts summed at the ECB rate), or the office's when no total is known. */
  currency: z.string().nullable(),
  parts: z.array(renewalCallPartSchema),
  total: amount.nullable(),
});
export type RenewalCallLineDto = z.infer<typeof renewalCallLineSchema>;

export const renewalCallStepSchema = z.strictObject({ step: z.enum(RENEWAL_CALL_STEP_VALUES), sent_on: day, items: z.number().int(), mails: z.number().int(), by_staff: z.boolean() });

const positiveInt = (max: number) =>
  text()
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

export const renewalCallsQuery = z.strictObject({
  state: z.enum(RENEWAL_CALL_STATES).default('open'),
  client_code: text().trim().min(1).max(100).optional(),
  page: positiveInt(100_000).default(1),
  limit: positiveInt(100).default(20),
});
export type RenewalCallsQuery = z.output<typeof renewalCallsQuery>;
export const renewalCallsResponse = z.strictObject({ success: z.literal(true), calls: z.array(renewalCallSchema), meta: paginationMetaSchema });
export type RenewalCallsResponse = z.output<typeof renewalCallsResponse>;
export const renewalCallIdParams = z.strictObject({ id: z.uuid() });
/** The preview: the call, its open lines priced today, the totals and the steps sent (the audit trail). */
export const renewalCallResponse = z.strictObject({
  success: z.literal(true),
  call: renewalCallSchema,
  lines: z.array(renewalCallLineSchema),
  steps: z.array(renewalCallStepSchema),
});
export type RenewalCallResponse = z.output<typeof renewalCallResponse>;
export const renewalCallSendBody = z.strictObject({});
export const renewalCallSendResponse = z.strictObject({ success: z.literal(true), step: z.enum(RENEWAL_CALL_STEP_VALUES), mails: z.number().int(), call: renewalCallSchema });
export type RenewalCallSendResponse = z.output<typeof renewalCallSendResponse>;
export const renewalCallHoldBody = z.strictObject({ held: z.boolean() });
export const renewalCallHoldResponse = z.strictObject({ success: z.literal(true), call: renewalCallSchema });
export type RenewalCallHoldResponse = z.output<typeof renewalCallHoldResponse>;

/** A cabinet's call settings (issue 30 §3): the window, the "instruct before" margin and the reminder, in days; the defaults until staff save them. */
export const renewalCallSettingsSchema = z.strictObject({
  cabinet_id: z.uuid(),
  cabinet: z.string(),
  window_days: z.number().int(),
  margin_days: z.number().int(),
  reminder_days: z.number().int(),
  /** False while the cabinet uses the defaults (no row saved). */
  saved: z.boolean(),
  updated_at: z.string().nullable(),
  /** The staff member who saved them last (email), when known. */
  updated_by: z.string().nullable(),
});
export type RenewalCallSettingsDto = z.infer<typeof renewalCallSettingsSchema>;
export const renewalCallSettingsResponse = z.strictObject({ success: z.literal(true), settings: z.array(renewalCallSettingsSchema) });
export type RenewalCallSettingsResponse = z.output<typeof renewalCallSettingsResponse>;
export const renewalCallSettingsParams = z.strictObject({ cabinetId: z.uuid() });
/** The bounds the database checks too: a window of 7 to 366 days; a margin and a reminder of 0 to 180 days, the reminder inside the window. */
export const RENEWAL_CALL_SETTINGS_BOUNDS = { window_days: [7, 366], margin_days: [0, 180], reminder_days: [0, 180] } as const;
export const renewalCallSettingsBody = z
  .strictObject({
    window_days: z.number().int().min(7).max(366),
    margin_days: z.number().int().min(0).max(180),
    reminder_days: z.number().int().min(0).max(180),
  })
  .refine((s) => s.margin_days < s.window_days, { error: 'renewal_call_margin_outside_window', path: ['margin_days'] });
export type RenewalCallSettingsBody = z.output<typeof renewalCallSettingsBody>;
export const renewalCallSettingsSaveResponse = z.strictObject({ success: z.literal(true), settings: renewalCallSettingsSchema });
export type RenewalCallSettingsSaveResponse = z.output<typeof renewalCallSettingsSaveResponse>;

export const renewalCallRunBody = z.strictObject({});
/** The day's run now: `outcome` is the job's (completed, or still running past the wait: `queued`). */
export const renewalCallRunResponse = z.strictObject({ success: z.literal(true), day, outcome: z.enum(['completed', 'failed', 'timeout', 'unknown', 'queued']) });
export type RenewalCallRunResponse = z.output<typeof renewalCallRunResponse>;
