import { z } from 'zod';
import { text } from './text.ts';

/** The dimensions of the LEDES spend analytics (issue 31 §2), in the order the screen shows them. */
export const SPEND_DIMENSIONS = ['law_firm', 'client', 'matter', 'timekeeper', 'task', 'month'] as const;
export type SpendDimension = (typeof SPEND_DIMENSIONS)[number];
/** Groups returned per dimension, largest spend first; `others` carries the rest. */
export const SPEND_TOP = 50;

const month = text().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'analytics_bad_month' });
const code = text().trim().max(20);

/** GET /api/ledes/analytics: a period of months (inclusive) and one value per dimension, all optional. */
export const spendAnalyticsQuery = z
  .strictObject({
    from: month.optional(),
    to: month.optional(),
    law_firm: code.optional(),
    client: code.optional(),
    matter: code.optional(),
    timekeeper: code.optional(),
    task: code.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'analytics_bad_period', path: ['to'] });
export type SpendAnalyticsQuery = z.infer<typeof spendAnalyticsQuery>;

/** Amounts are exact decimal strings (4 decimals), summed by the database; the screen formats them. */
const amount = z.string().regex(/^-?\d+\.\d{4}$/);
export const spendFigures = z.strictObject({
  /** Σ LINE_ITEM_TOTAL of the accepted files' lines. */
  spend: amount,
  /** Σ LINE_ITEM_TOTAL of the refused files' lines. */
  refused: amount,
  /** Σ of the guideline findings' total over the cap (decision 206), accepted and refused files alike. */
  over_guidelines: amount,
  /** Lines of accepted files. */
  lines: z.number().int(),
});
export type SpendFigures = z.infer<typeof spendFigures>;
export const spendGroup = spendFigures.extend({ key: z.string(), label: z.string().nullable() });
export type SpendGroup = z.infer<typeof spendGroup>;

const spendDimension = z.strictObject({ top: z.array(spendGroup), others: spendFigures.nullable(), count: z.number().int() });
export const spendAnalyticsResponse = z.strictObject({
  success: z.literal(true),
  totals: spendFigures,
  /** Per dimension: the SPEND_TOP largest groups by spend (then refused), the sum of the rest, how many groups. */
  groups: z.strictObject({
    law_firm: spendDimension,
    client: spendDimension,
    matter: spendDimension,
    timekeeper: spendDimension,
    task: spendDimension,
    month: spendDimension,
  }),
});
export type SpendAnalyticsResponse = z.infer<typeof spendAnalyticsResponse>;

/** GET /api/ledes/analytics/export: the same filters, and the file's format. */
export const spendExportQuery = z
  .strictObject({
    from: month.optional(),
    to: month.optional(),
    law_firm: code.optional(),
    client: code.optional(),
    matter: code.optional(),
    timekeeper: code.optional(),
    task: code.optional(),
    format: z.enum(['xlsx', 'csv']).default('xlsx'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'analytics_bad_period', path: ['to'] });
