import { z } from 'zod';
import { text } from './text.ts';

/* Costs broken down and dated (issue 30 §1, decision 199): the parts of an annuity's cost and the admin tables behind them. */

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRealDay = (s: string) => ISO_DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
const isoDay = z.string().regex(ISO_DAY);
/** A request's day: a real calendar day between 1990 and 2100 (a fee table's date, not a free string). */
const dayInput = text({ error: 'validation_failed' }).refine((s) => isRealDay(s) && s >= '1990-01-01' && s <= '2100-12-31', { error: 'validation_failed' });
const currencyCode = text({ error: 'validation_failed' }).regex(/^[A-Z]{3}$/, { error: 'validation_failed' });
/** An amount in major units with at most 2 decimals (a fee, 0 to 1,000,000). */
const amountInput = z
  .number({ error: 'validation_failed' })
  .min(0, { error: 'validation_failed' })
  .max(1_000_000, { error: 'validation_failed' })
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { error: 'validation_failed' });

export const COST_PART_KINDS = ['official_fee', 'surcharge', 'agent_fee', 'service_fee', 'margin'] as const;
export const COST_OFFICES = ['EP', 'UP', 'BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE'] as const;

export const costPartSchema = z.strictObject({
  kind: z.enum(COST_PART_KINDS),
  /** In `currency`, major units. */
  amount: z.number(),
  currency: z.string(),
  /** In euros at the ECB rate of `rates` for that currency; null without a rate. */
  amount_eur: z.number().nullable(),
  /** The fee table's id (`SE-2023-03-18`), the surcharge's rule, the admin row's id, or the margin's row and basis points. */
  ref: z.string(),
  valid_from: isoDay.nullable(),
  valid_until: isoDay.nullable(),
  /** official_fee and surcharge: the table is verified and in force that day; admin rows: true. */
  verified: z.boolean(),
});
export type CostPartDto = z.infer<typeof costPartSchema>;

export const costRateSchema = z.strictObject({
  currency: z.string(),
  /** Units of the currency for 1 EUR, as the ECB published it. */
  per_eur: z.string(),
  /** The ECB's day of that rate: the payment day or the last published before it. */
  day: isoDay,
  source: z.literal('ECB'),
});

/** The next annuity's cost, part by part (GET /brevet_eptane/{id} `costs`). */
export const patentCostsSchema = z.strictObject({
  annuity: z.number().int(),
  due_date: isoDay,
  payment_date: isoDay,
  parts: z.array(costPartSchema),
  rates: z.array(costRateSchema),
  /** Sum of the parts in euros; null when one has no rate. */
  total_eur: z.number().nullable(),
  /** The payment day is past the last day of grace: nothing can be paid. */
  lapsed: z.boolean(),
});
export type PatentCostsDto = z.infer<typeof patentCostsSchema>;

export const agentFeeSchema = z.strictObject({
  _id: z.uuid(),
  office: z.enum(COST_OFFICES),
  amount: z.number(),
  currency: z.string(),
  valid_from: isoDay,
  valid_until: isoDay.nullable(),
  note: z.string().nullable(),
});
export type AgentFeeDto = z.infer<typeof agentFeeSchema>;

export const serviceFeeSchema = z.strictObject({
  _id: z.uuid(),
  cabinet: z.strictObject({ _id: z.uuid(), name: z.string() }),
  amount: z.number(),
  currency: z.string(),
  /** The cabinet's margin in percent of the parts before it (official fee, surcharge, agent's fee); null: none. */
  margin_percent: z.number().nullable(),
  valid_from: isoDay,
  valid_until: isoDay.nullable(),
  note: z.string().nullable(),
});
export type ServiceFeeDto = z.infer<typeof serviceFeeSchema>;

const validity = {
  valid_from: dayInput,
  valid_until: dayInput.nullable().optional(),
  note: text({ error: 'validation_failed' }).max(200, { error: 'text_too_long' }).nullable().optional(),
};
const untilAfterFrom = (b: { valid_from: string; valid_until?: string | null }) => b.valid_until == null || b.valid_until >= b.valid_from;

export const agentFeeBody = z
  .strictObject({ office: z.enum(COST_OFFICES, { error: 'validation_failed' }), amount: amountInput, currency: currencyCode, ...validity })
  .refine(untilAfterFrom, { error: 'validation_failed', path: ['valid_until'] });
export const serviceFeeBody = z
  .strictObject({
    cabinet_id: z.uuid({ error: 'validation_failed' }),
    amount: amountInput,
    currency: currencyCode,
    margin_percent: z.number({ error: 'validation_failed' }).min(0, { error: 'validation_failed' }).max(100, { error: 'validation_failed' }).refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { error: 'validation_failed' }).nullable().optional(),
    ...validity,
  })
  .refine(untilAfterFrom, { error: 'validation_failed', path: ['valid_until'] });

export const costRowIdParams = z.strictObject({ id: z.uuid({ error: 'validation_failed' }) });

export const feeTableSummarySchema = z.strictObject({
  id: z.string(),
  office: z.string(),
  currency: z.string(),
  valid_from: isoDay,
  valid_until: isoDay.nullable(),
  verified: z.boolean(),
  note: z.string(),
  checked_on: isoDay.nullable(),
  checked_note: z.string().nullable(),
  sources: z.array(z.strictObject({ title: z.string(), url: z.string(), official: z.boolean() })),
});

export const ecbImportSchema = z.strictObject({
  _id: z.uuid(),
  file_name: z.string(),
  format: z.enum(['csv', 'xml']),
  first_day: isoDay,
  last_day: isoDay,
  days: z.number().int(),
  rates: z.number().int(),
  /** Rates new or changed by this file. */
  written: z.number().int(),
  created: z.string(),
});
export type EcbImportDto = z.infer<typeof ecbImportSchema>;

export const costTablesResponse = z.strictObject({
  success: z.literal(true),
  agent_fees: z.array(agentFeeSchema),
  service_fees: z.array(serviceFeeSchema),
  cabinets: z.array(z.strictObject({ _id: z.uuid(), name: z.string() })),
  fee_tables: z.array(feeTableSummarySchema),
  ecb: z.strictObject({
    imports: z.array(ecbImportSchema),
    /** The newest rate of each currency stored. */
    latest: z.array(z.strictObject({ currency: z.string(), day: isoDay, per_eur: z.string() })),
  }),
});
export type CostTablesResponse = z.infer<typeof costTablesResponse>;

export const agentFeeResponse = z.strictObject({ success: z.literal(true), agent_fee: agentFeeSchema });
export const serviceFeeResponse = z.strictObject({ success: z.literal(true), service_fee: serviceFeeSchema });
export const ecbImportResponse = z.strictObject({ success: z.literal(true), ecb_import: ecbImportSchema });
export const ecbImportFields = z.strictObject({});
export const RATE_FILE_EXTENSIONS = ['csv', 'xml'] as const;
/** 16 MiB: the ECB's whole history in XML is about 7 MiB. */
export const RATE_FILE_MAX_BYTES = 16 * 1024 * 1024;
export const costRowDeletedResponse = z.strictObject({ success: z.literal(true), deleted: z.uuid() });
