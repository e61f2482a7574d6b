import { z } from 'zod';
import { text } from './text.ts';

/**
 * The renewal budget (issue 30 §2, decision 201): what keeping the portfolio alive costs per year and per month of the
 * next 12 months, per office in the office's currency, each figure the sum of its parts. `parts` holds today the
 * official fee and the surcharge in the office's currency; `eur` every part of the patent's detail in euros.
 */

export const FORECAST_MAX_YEARS = 5;
export const FORECAST_ORIGIN_FILTERS = ['national', 'ep_validated', 'unitary', 'ep_application'] as const;
export const FORECAST_OFFICES = ['EP', 'UP', 'BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE'] as const;

const boundedInt = (min: number, max: number) =>
  text()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const forecastQuery = z.strictObject({
  /** Calendar years counted from the current one (which counts from today). */
  years: boundedInt(1, FORECAST_MAX_YEARS).default(FORECAST_MAX_YEARS),
  cabinet: z.uuid().optional(),
  client_code: text().trim().min(1).max(100).optional(),
  office: z.enum(FORECAST_OFFICES).optional(),
  origin: z.enum(FORECAST_ORIGIN_FILTERS).optional(),
  /** What if: every annuity of a patent older than this many years (annuity number above it) is abandoned. */
  abandon_older_than: boundedInt(1, 20).optional(),
});
export type ForecastQuery = z.output<typeof forecastQuery>;

/** A figure and its parts, in major units of its currency (sums of whole minor units, so exact to the cent). */
export const forecastPartsSchema = z.strictObject({ official: z.number(), surcharge: z.number() });
/**
 * The same annuities priced as the patent's detail prices each one (`costBreakdown`, decisions 199 and 217), in euros at the
 * ECB rate of the payment day (the last published before it): official fee, surcharge, agent's fee, service fee, margin
 * and their total, each the sum of the annuities' parts.
 */
export const forecastEurSchema = z.strictObject({
  official: z.number(),
  surcharge: z.number(),
  agent_fee: z.number(),
  service_fee: z.number(),
  margin: z.number(),
  total: z.number(),
  /** Annuities with a part that has no ECB rate: their parts without a rate count 0 here. */
  unconverted: z.number().int(),
});
export type ForecastEur = z.output<typeof forecastEurSchema>;
export const forecastFigureSchema = z.strictObject({
  currency: z.string(),
  total: z.number(),
  parts: forecastPartsSchema,
  eur: forecastEurSchema,
  /** Annuities counted (priced or not). */
  annuities: z.number().int(),
});
export type ForecastFigure = z.output<typeof forecastFigureSchema>;

export const forecastOfficeFigureSchema = forecastFigureSchema.extend({ office: z.string() });
export type ForecastOfficeFigure = z.output<typeof forecastOfficeFigureSchema>;

/** One period (a calendar year, or a month `YYYY-MM`): per office, and the totals per currency. */
export const forecastPeriodSchema = z.strictObject({
  period: z.string(),
  /** The period's first and last days counted (the current one starts the day after today). */
  from: z.string(),
  to: z.string(),
  offices: z.array(forecastOfficeFigureSchema),
  totals: z.array(forecastFigureSchema),
  /** Every currency's annuities of the period in euros, part by part (the all-in cost the screen shows in one currency). */
  eur: forecastEurSchema,
});
export type ForecastPeriod = z.output<typeof forecastPeriodSchema>;

export const forecastResponse = z.strictObject({
  success: z.literal(true),
  /** The day the forecast is computed for (the server's). */
  today: z.string(),
  years: z.array(forecastPeriodSchema),
  months: z.array(forecastPeriodSchema),
  /** Per currency over the years asked. */
  totals: z.array(forecastFigureSchema),
  /** Every annuity of the years asked in euros, part by part. */
  eur: forecastEurSchema,
  /** Offices with at least one annuity in the years, in the order of the chart. */
  offices: z.array(z.string()),
  /** Annuities counted without an official fee (no table gives one): in `annuities`, not in the amounts. */
  unpriced: z.number().int(),
  abandon_older_than: z.number().int().nullable(),
  /**
   * True while the rows of patents changed in bulk (an import) are still being rebuilt in the background: the figures
   * of those patents are the ones from before the change. The screen says so and asks again.
   */
  updating: z.boolean(),
});
export type ForecastResponse = z.output<typeof forecastResponse>;

export const FORECAST_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
/** The export: the same filters, and the file's format. */
export const forecastExportQuery = forecastQuery.extend({ format: z.enum(FORECAST_EXPORT_FORMATS).default('xlsx') });
export type ForecastExportQuery = z.output<typeof forecastExportQuery>;
/** The export's columns: every figure with each of its parts. */
export const FORECAST_EXPORT_COLUMNS = ['period_kind', 'period', 'from', 'to', 'office', 'currency', 'official', 'surcharge', 'total', 'annuities', 'official_eur', 'surcharge_eur', 'agent_fee_eur', 'service_fee_eur', 'margin_eur', 'total_eur', 'unconverted'] as const;
