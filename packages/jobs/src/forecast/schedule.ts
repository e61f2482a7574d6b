import { addDays, computeSchedule, dayFromYmd, formatIsoDate, officeOfCountry, parseIsoDate, surchargeOn, ymdFromDay, type Annuity, type Currency, type Day, type Office, type Origin } from '@portal/annuities/core';
import { originOf } from '../patents/rows.ts';

/*
 * The forecast's two readings of the engine (decision 201), pure: the rows kept with a patent (every unpaid annuity
 * priced on its due date, the day an annuity paid on time is paid), and the live reading of a patent whose first
 * unpaid annuity is already due (priced on today, with its surcharge when in grace), which the request computes.
 */

/** What the engine reads of a patent's record. */
export interface ForecastInput {
  readonly pays: string | null;
  readonly origine: string | null;
  readonly dateDepot: string | null;
  readonly quantieme: number | null;
}

export interface StoredAnnuity {
  readonly number: number;
  readonly due: string;
  readonly noSurchargeEnd: string;
  readonly graceEnd: string;
  readonly officialMinor: number | null;
  readonly currency: Currency;
  /** The engine's annuity (what `costBreakdown` prices). */
  readonly annuity: Annuity;
}

export interface StoredSchedule {
  readonly office: Office;
  readonly origin: Origin;
  /** The record names its annuity: the rows start there and one already due is unpaid. */
  readonly unpaidKnown: boolean;
  /** The first unpaid annuity's due date (kept or not). */
  readonly firstDue: string;
  readonly annuities: readonly StoredAnnuity[];
}

/** One annuity's share of a forecast: its payment day, the official fee and the surcharge, in the office's currency. */
export interface ForecastPart {
  readonly number: number;
  readonly office: Office;
  readonly currency: Currency;
  readonly payDay: string;
  readonly officialMinor: number | null;
  readonly surchargeMinor: number;
  /** The engine's annuity (what `costBreakdown` prices on `payDay`). */
  readonly annuity: Annuity;
}

/** The engine's office and origin for a record, and its inputs; null when it cannot compute a schedule. */
function rightOf(input: ForecastInput): { office: Office; origin: Origin; filing: Day; lastPaid: number | null } | null {
  const office = officeOfCountry(input.pays);
  if (office === null || input.dateDepot === null) return null;
  const filing = parseIsoDate(input.dateDepot);
  if (filing === null) return null;
  const q = input.quantieme;
  return { office, origin: originOf(office, input.origine), filing, lastPaid: q !== null && q >= 1 ? q - 1 : null };
}

/** The last day rows are kept for a refresh on `day`: the end of the sixth calendar year after it. */
export function storedThroughOf(day: Day): Day {
  return dayFromYmd(ymdFromDay(day).year + 6, 12, 31);
}

/**
 * The unpaid annuities of a patent, each priced on its due date (the engine run as of the day before filing, so no
 * annuity is past due): from the record's annuity on when it names one, else every annuity (the request then keeps those
 * due after today, which the engine counts as unpaid). Null when the engine cannot compute the schedule.
 */
export function storedScheduleOf(input: ForecastInput): StoredSchedule | null {
  const right = rightOf(input);
  if (right === null) return null;
  const result = computeSchedule({ office: right.office, origin: right.origin, filing: right.filing, lastPaid: right.lastPaid }, addDays(right.filing, -1));
  if (!result.ok) return null;
  const unpaidKnown = right.lastPaid !== null;
  const from = right.lastPaid === null ? 0 : right.lastPaid + 1;
  const annuities: StoredAnnuity[] = [];
  for (const a of result.value.annuities) {
    if (a.number < from) continue;
    annuities.push({
      number: a.number,
      due: formatIsoDate(a.due),
      noSurchargeEnd: formatIsoDate(a.noSurchargeEnd),
      graceEnd: formatIsoDate(a.graceEndLatest),
      officialMinor: a.feeMinor,
      currency: a.currency,
      annuity: a,
    });
  }
  if (annuities.length === 0) return null;
  return { office: result.value.office, origin: result.value.origin, unpaidKnown, firstDue: annuities[0]!.due, annuities };
}

/**
 * The engine's schedule of a patent as of `today`: every unpaid annuity (from the next one on) with its planned payment
 * day, its official fee that day and the surcharge owed if paid then. Nothing for a lapsed right or one the engine cannot
 * compute. The forecast reads patents whose first unpaid annuity is already due this way; the test reads every patent.
 */
export function liveParts(input: ForecastInput, today: Day): ForecastPart[] {
  const right = rightOf(input);
  if (right === null) return [];
  const result = computeSchedule({ office: right.office, origin: right.origin, filing: right.filing, lastPaid: right.lastPaid }, today);
  if (!result.ok || result.value.lapsed || result.value.next === null) return [];
  const next = result.value.next.number;
  const parts: ForecastPart[] = [];
  for (const a of result.value.annuities) {
    if (a.number < next) continue;
    parts.push({
      number: a.number,
      office: a.office,
      currency: a.currency,
      payDay: formatIsoDate(a.paymentDay),
      officialMinor: a.feeMinor,
      surchargeMinor: surchargeOn(a, a.paymentDay) ?? 0,
      annuity: a,
    });
  }
  return parts;
}
