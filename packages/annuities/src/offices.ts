import type { Currency, Office } from './types.ts';

/** How the late-payment surcharge is computed (annuities.md §1 "Surcharge", §7 "Late"). */
export type SurchargeRule =
  | { readonly type: 'percent'; readonly percent: number }
  /** A fixed amount, chosen by annuity number (BE: 85 for years 3–10, 230 for 11–20). */
  | { readonly type: 'flat'; readonly currency: Currency; readonly bands: ReadonlyArray<{ readonly fromYear: number; readonly amountMinor: number }> }
  /** ES: percentages by period after the due date (months counted from the due date). */
  | { readonly type: 'stepped_percent'; readonly steps: ReadonlyArray<{ readonly untilMonths: number; readonly percent: number }> }
  /** GB: an amount per late month after the surcharge-free month, capped. */
  | { readonly type: 'per_late_month'; readonly currency: Currency; readonly amountMinor: number; readonly maxMinor: number };

export interface OfficeProfile {
  readonly office: Office;
  readonly firstYear: number;
  readonly currency: Currency;
  /** Surcharge-free months after the end of the due month (DE 2, ES 3, GB 1, others 0). */
  readonly noSurchargeMonths: number;
  /** Months after the due date until the grace period ends (ES 3 + 3 + 3). */
  readonly graceMonths: number;
  /** Earliest payment, in months before the due date; null when the office sets no limit. */
  readonly payableFromMonths: number | null;
  readonly surcharge: SurchargeRule;
  /** Line of annuities.md the profile comes from, for traceability. */
  readonly source: string;
}

const PERCENT_50: SurchargeRule = { type: 'percent', percent: 50 };

export const PROFILES: Readonly<Record<Office, OfficeProfile>> = {
  EP: { office: 'EP', firstYear: 3, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: 3, surcharge: PERCENT_50, source: 'annuities.md §1 EP, line 23' },
  UP: { office: 'UP', firstYear: 2, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: 3, surcharge: PERCENT_50, source: 'annuities.md §1 UP, line 24' },
  BE: {
    office: 'BE', firstYear: 3, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: 6,
    surcharge: { type: 'flat', currency: 'EUR', bands: [{ fromYear: 3, amountMinor: 8500 }, { fromYear: 11, amountMinor: 23000 }] },
    source: 'annuities.md §1 BE, line 25',
  },
  DE: {
    office: 'DE', firstYear: 3, currency: 'EUR', noSurchargeMonths: 2, graceMonths: 6, payableFromMonths: 12,
    surcharge: { type: 'flat', currency: 'EUR', bands: [{ fromYear: 1, amountMinor: 5000 }] },
    source: 'annuities.md §1 DE, line 26',
  },
  ES: {
    office: 'ES', firstYear: 3, currency: 'EUR', noSurchargeMonths: 3, graceMonths: 9, payableFromMonths: 0,
    surcharge: { type: 'stepped_percent', steps: [{ untilMonths: 6, percent: 25 }, { untilMonths: 9, percent: 50 }] },
    source: 'annuities.md §1 ES, line 27',
  },
  FR: { office: 'FR', firstYear: 2, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: 12, surcharge: PERCENT_50, source: 'annuities.md §1 FR, line 28' },
  GB: {
    office: 'GB', firstYear: 5, currency: 'GBP', noSurchargeMonths: 1, graceMonths: 6, payableFromMonths: 3,
    surcharge: { type: 'per_late_month', currency: 'GBP', amountMinor: 2400, maxMinor: 12000 },
    source: 'annuities.md §1 GB, line 29',
  },
  IT: {
    office: 'IT', firstYear: 5, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: null,
    surcharge: { type: 'flat', currency: 'EUR', bands: [{ fromYear: 1, amountMinor: 10000 }] },
    source: 'annuities.md §1 IT, line 30',
  },
  NL: { office: 'NL', firstYear: 4, currency: 'EUR', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: null, surcharge: PERCENT_50, source: 'annuities.md §1 NL, line 31' },
  SE: { office: 'SE', firstYear: 3, currency: 'SEK', noSurchargeMonths: 0, graceMonths: 6, payableFromMonths: 6, surcharge: { type: 'percent', percent: 20 }, source: 'annuities.md §1 SE, line 32' },
};

/** States where a unitary patent replaces the national validation (annuities.md §3 UP, lines 137-139). */
export const UNITARY_STATES: ReadonlySet<Office> = new Set<Office>(['BE', 'DE', 'FR', 'IT', 'NL', 'SE']);
