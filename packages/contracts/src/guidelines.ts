import { z } from 'zod';
import { text } from './text.ts';

/**
 * A client's billing guidelines (issue 31 §1): the same shapes as `@portal/ledes`'s `GuidelineRule`, validated
 * here for the API and the admin screen's form alike.
 */
const amount = text().trim().regex(/^\d{1,9}(\.\d{1,4})?$/, { error: 'validation_failed' });
const day = z.iso.date();
const ref = text().trim().min(1).max(40);
const severity = z.enum(['error', 'warning']);
const code = text().trim().toUpperCase().regex(/^[A-Z]\d{3}$/, { error: 'validation_failed' });
const base = { ref, severity };

export const guidelineRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('max_rate'), ...base, classification: text().trim().min(1).max(10), max: amount, from: day.optional(), to: day.optional() }),
  z.strictObject({ kind: z.literal('max_units_per_day'), ...base, max: amount }),
  z.strictObject({ kind: z.literal('block_billing'), ...base, min_tasks: z.number().int().min(2).max(20), min_units: amount }),
  z.strictObject({ kind: z.literal('code'), ...base, code, matters: z.array(text().trim().min(1).max(20)).min(1).max(100).optional() }),
  z.strictObject({ kind: z.literal('expense_cap'), ...base, code, max_unit_cost: amount }),
  z.strictObject({ kind: z.literal('receipt'), ...base, code, above: amount.optional() }),
  z.strictObject({ kind: z.literal('max_billing_period'), ...base, max_days: z.number().int().min(1).max(3660) }),
  z.strictObject({ kind: z.literal('max_upload_delay'), ...base, max_days: z.number().int().min(0).max(3660) }),
  z.strictObject({ kind: z.literal('duplicate_line'), ...base }),
]);
export type GuidelineRuleDto = z.infer<typeof guidelineRuleSchema>;
export const GUIDELINE_RULE_KINDS = ['max_rate', 'max_units_per_day', 'block_billing', 'code', 'expense_cap', 'receipt', 'max_billing_period', 'max_upload_delay', 'duplicate_line'] as const;
/** Rules per version: a client's set is a document of tens of rules, not thousands. */
export const GUIDELINE_MAX_RULES = 300;

export const guidelineClientParams = z.strictObject({ id_client: text().trim().min(1).max(64) });

/** A new version of a client's set: its first day in force (an ISO date) and its rules. */
export const guidelineVersionBody = z.strictObject({
  effective_from: day,
  rules: z.array(guidelineRuleSchema).min(1).max(GUIDELINE_MAX_RULES),
  note: text().trim().max(500).optional(),
});
export type GuidelineVersionBody = z.infer<typeof guidelineVersionBody>;

export const guidelineVersionSchema = z.strictObject({
  id: z.uuid(),
  id_client: z.string(),
  version: z.number().int().min(1),
  effective_from: day,
  rules: z.array(guidelineRuleSchema),
  note: z.string().nullable(),
  created: z.iso.datetime(),
});
export type GuidelineVersionDto = z.infer<typeof guidelineVersionSchema>;

export const guidelineClientsResponse = z.strictObject({
  success: z.literal(true),
  clients: z.array(z.strictObject({ id_client: z.string(), versions: z.number().int().min(1), latest_effective_from: day })),
});
export const guidelineVersionsResponse = z.strictObject({ success: z.literal(true), id_client: z.string(), versions: z.array(guidelineVersionSchema) });
export type GuidelineVersionsResponse = z.infer<typeof guidelineVersionsResponse>;
export const guidelineVersionResponse = z.strictObject({ success: z.literal(true), version: guidelineVersionSchema });

/** "What would this version have refused?": the set as edited, against the client's last `last` checked files. */
export const guidelinePreviewBody = z.strictObject({
  rules: z.array(guidelineRuleSchema).min(1).max(GUIDELINE_MAX_RULES),
  last: z.number().int().min(1).max(50).default(10),
});
export const GUIDELINE_PREVIEW_FINDINGS = 20;
export const guidelinePreviewFindingSchema = z.strictObject({
  line: z.union([z.number().int(), z.literal('file'), z.literal('header')]),
  code: z.string(),
  severity: severity,
  champ: z.string(),
  libelle_en: z.string(),
  libelle_fr: z.string(),
  found: z.string().optional(),
  expected: z.string().optional(),
  difference: z.string().optional(),
  over: z.string().optional(),
  reference: z.string().optional(),
});
export const guidelinePreviewResponse = z.strictObject({
  success: z.literal(true),
  /** The oldest of the files asked for, left unchecked when the preview's time budget ran out (0: all checked). */
  unchecked: z.number().int().min(0),
  /** The preview's time budget, in seconds. */
  budget_seconds: z.number().positive(),
  runs: z.array(
    z.strictObject({
      run_id: z.uuid(),
      filename: z.string(),
      created: z.iso.datetime(),
      /** The verdict the file had. */
      accepted_then: z.boolean().nullable(),
      /** Refused by this version's errors alone (the file's other findings left aside). */
      refused_by_guidelines: z.boolean(),
      errors: z.number().int().min(0),
      warnings: z.number().int().min(0),
      /** The first GUIDELINE_PREVIEW_FINDINGS guideline findings, in line order. */
      findings: z.array(guidelinePreviewFindingSchema),
    }),
  ),
});
export type GuidelinePreviewResponse = z.infer<typeof guidelinePreviewResponse>;
