import {
  addDays,
  dayFromYmd,
  daysInMonth,
  addMonths,
  addYears,
  isLastDayOfMonth,
  monthEnd,
  monthIndexOf,
  patentYear,
  ymdFromDay,
  type Day,
} from './calendar.ts';
import { periodEdges } from './holidays.ts';
import { feeOf, feeTablesOf, pickFeeTable, verifiedOn, type Fee, type FeeTable } from './fees.ts';
import { PROFILES, UNITARY_STATES, type OfficeProfile, type SurchargeRule } from './offices.ts';
import { fail, ok, type Result } from './reasons.ts';
import type { Colour, Currency, Office, Origin } from './types.ts';

export interface RightInput {
  readonly office: Office;
  readonly origin: Origin;
  /** Filing date; for EP, UP and validated rows the EP filing date (Euro-PCT: international filing date; divisional: the parent's). */
  readonly filing: Day;
  /** National grant, or publication of the mention of the European grant. */
  readonly grant?: Day | null;
  /** Number of the last annuity paid, when known. */
  readonly lastPaid?: number | null;
  /** Euro-PCT: start of the 31-month period (earliest priority date, else the international filing date). */
  readonly euroPctPeriodStart?: Day | null;
  /** EP divisional: the date the divisional itself was filed. */
  readonly divisionalFiling?: Day | null;
  /** UP: notification of the registration of unitary effect. */
  readonly unitaryRegistration?: Day | null;
}

export interface Annuity {
  /** The quantième: annuity k covers patent year k. */
  readonly number: number;
  readonly due: Day;
  /** Earliest accepted payment; null when the office sets no limit. */
  readonly payableFrom: Day | null;
  /** Last day the plain fee is surely enough (*pay by*: only verified extensions over closed days). */
  readonly noSurchargeEnd: Day;
  /** Last day the plain fee may be enough (every extension that may apply). */
  readonly noSurchargeEndLatest: Day;
  /** Last day to pay with the surcharge (*pay by*: reminders, colours, the agent's limit date). */
  readonly graceEnd: Day;
  /** Last day the law may allow a payment with the surcharge (*lost after*): the right lapses only after it. */
  readonly graceEndLatest: Day;
  /** The edges differ because the office's rule on closed days is not verified (holidays.ts). */
  readonly extensionUnverified: boolean;
  /** EPO: an end computed for a year whose closing days were not published. */
  readonly closingDaysProvisional: boolean;
  /**
   * The planned payment day the fee is priced on (the offices charge the amount in force on the day of
   * payment): the given payment day for the next annuity, else today for one still unpaid past its due
   * date, else its due date.
   */
  readonly paymentDay: Day;
  /** Official fee in minor units on `paymentDay`; null when no table gives one. */
  readonly feeMinor: number | null;
  readonly currency: Currency;
  /** Id of the fee table used (`office-validFrom`). */
  readonly feeTable: string;
  /** An official text gives that amount for that day (fees.ts `feeOf`); false: the best known amount. */
  readonly feeVerified: boolean;
  /** The office whose fees apply (UP when a unitary patent replaces a national row). */
  readonly office: Office;
  readonly surcharge: SurchargeRule;
}

/** What the caller knows of the payment; the fee is priced on the planned payment day (Annuity.paymentDay). */
export interface PaymentOptions {
  /** The day the next annuity is expected to be paid (an instruction's date, a planned payment run). */
  readonly paymentDay?: Day | null;
}

/** Facts a reviewer should look at; they do not stop the computation. */
export type ScheduleFlag =
  | 'grant_date_missing'
  | 'se_month_end_filing'
  | 'replaced_by_unitary'
  | 'gb_late_grant'
  | 'it_pending_application'
  /** The grant (or its mention) is dated on a filing anniversary: the sources disagree on its patent year. */
  | 'grant_on_anniversary'
  /** The next annuity's period ends on a day the office may be closed under a rule not verified: pay by and lost after differ. */
  | 'extension_unverified'
  /** EP/UP: the next annuity's period end moved over EPO closing days of a year whose list is not published yet. */
  | 'closing_days_provisional'
  /** No payment data (no last annuity paid): the next annuity is due soon or in grace and may be unpaid. */
  | 'payment_unknown';

export interface Schedule {
  /** Office whose rules were applied (UP when a unitary patent replaces a national row). */
  readonly office: Office;
  readonly origin: Origin;
  readonly filing: Day;
  /** Filing date + 20 years. */
  readonly expiry: Day;
  readonly annuities: readonly Annuity[];
  readonly previous: Annuity | null;
  readonly next: Annuity | null;
  /** Next due date minus 7 days (the spec's instruction lock). */
  readonly instructionLimit: Day | null;
  /** Last day to pay the next annuity, surcharge included (its grace end, *pay by*): the agent's limit. */
  readonly nextLimit: Day | null;
  /** The next annuity's grace end with every extension that may apply (*lost after*): lapsed only after it. */
  readonly nextLostAfter: Day | null;
  readonly inGraceWithSurcharge: boolean;
  readonly lapsed: boolean;
  /**
   * A lapsed right only: the annuity left unpaid past its last possible day, whose `number` is the
   * missed year and whose `graceEndLatest` (*lost after*) the day after which the right was lost.
   */
  readonly missed: Annuity | null;
  readonly expired: boolean;
  readonly colour: Colour;
  readonly flags: readonly ScheduleFlag[];
}

const LAST_YEAR = 20;
/**
 * Without payment data, an annuity due within this many days is shown red ("due, payment not known"):
 * the first reminder goes 30 days before the instruction limit, itself 7 days before the due date
 * (decision 109), so an agent is reminded of every annuity this window makes red.
 */
export const DUE_SOON_DAYS = 37;
const NO_FLAGS: readonly ScheduleFlag[] = Object.freeze([]);

/** `n` months after `d`, keeping month ends on month ends ("last day of the 6th month"). */
function monthsAfter(d: Day, n: number): Day {
  return isLastDayOfMonth(d) ? monthEnd(monthIndexOf(d) + n) : addMonths(d, n);
}

/**
 * The last day of "the period of three months beginning with" a day (UK drafting): the day is the
 * first of the period, so it ends the day before the same date three months on (1 Mar → 31 May).
 */
function threeMonthsBeginningWith(d: Day): Day {
  return addDays(addMonths(d, 3), -1);
}

function maxDay(a: Day, b: Day): Day {
  return a > b ? a : b;
}

function resolveOffice(input: RightInput): Result<{ office: Office; origin: Origin; replaced: boolean }> {
  const { office, origin } = input;
  if (office === 'EP') return origin === 'ep_application' ? ok({ office, origin, replaced: false }) : fail('origin_not_allowed');
  if (office === 'UP') return origin === 'unitary' ? ok({ office, origin, replaced: false }) : fail('origin_not_allowed');
  if (origin === 'ep_application') return fail('origin_not_allowed');
  if (origin === 'unitary') {
    // annuities.md §3 UP, lines 137-139: UP replaces BE/DE/FR/IT/NL/SE, never ES or GB.
    return UNITARY_STATES.has(office) ? ok({ office: 'UP', origin, replaced: true }) : fail('unitary_not_available');
  }
  return ok({ office, origin, replaced: false });
}

/**
 * The spec's row colour: a next date in the future is ok, today or past nok; only a previous date
 * orange; neither no_date. Also used when a user edits the dates of a checked row.
 */
export function scheduleColour(next: Day | null, previous: Day | null, today: Day): Colour {
  return next !== null ? (next > today ? 'ok' : 'nok') : previous !== null ? 'orange' : 'no_date';
}

/**
 * Every annuity of a right and the portal fields for `today` (annuities.md §2 and §9).
 * Pure: no clock, no I/O. Without `lastPaid`, annuities due on or before `today` count as paid.
 */
export function computeSchedule(input: RightInput, today: Day, options: PaymentOptions = {}): Result<Schedule> {
  const resolved = resolveOffice(input);
  if (!resolved.ok) return resolved;
  const { office, origin, replaced } = resolved.value;
  const { filing } = input;
  const grant = input.grant ?? null;
  const lastPaid = input.lastPaid ?? null;
  if (!Number.isInteger(filing) || !Number.isInteger(today)) return fail('invalid_date');
  if (grant !== null && grant < filing) return fail('grant_before_filing');
  if (lastPaid !== null && (!Number.isInteger(lastPaid) || lastPaid < 0 || lastPaid > LAST_YEAR)) return fail('invalid_last_paid');
  const paymentDay = options.paymentDay ?? null;
  if (paymentDay !== null && !Number.isInteger(paymentDay)) return fail('invalid_date');

  const profile = PROFILES[office];
  const f = ymdFromDay(filing);
  // Built only when needed: most rows have no flag, and this runs a million times a second.
  let flags: ScheduleFlag[] | null = null;
  if (replaced) flags = addFlag(flags, 'replaced_by_unitary');

  let first = profile.firstYear;
  let last = LAST_YEAR;
  const grantYear = grant === null ? 0 : patentYear(filing, grant);
  // annuities.md §2.1 line 62: patent year n starts on the (n-1)th anniversary, so a grant on the anniversary
  // opens the new year (the reading kept); some sources count that day in the old year: a person checks.
  if (grant !== null && grant !== filing && addYears(filing, grantYear - 1) === grant) flags = addFlag(flags, 'grant_on_anniversary');
  if (origin === 'ep_application') {
    // §2.2 line 59: the EPO collects up to the patent year in which the grant mention is published.
    if (grant !== null) last = Math.min(LAST_YEAR, grantYear);
  } else if (origin === 'ep_validated' || origin === 'unitary') {
    // §2.2 line 61: national (or UP) fees start with the next patent year.
    if (grant !== null) first = Math.max(first, grantYear + 1);
    else flags = addFlag(flags, 'grant_date_missing');
  } else if (office === 'GB' && grant === null) {
    // §2.3 GB line 79: no renewal fee while pending; computed as if granted in time.
    flags = addFlag(flags, 'grant_date_missing');
  }
  // §2.3 SE lines 92-95 [U]: the filing month is used; month-end filings need a human look.
  if (office === 'SE' && (f.day === daysInMonth(f.year, f.month) || (f.month === 2 && f.day === 28))) {
    flags = addFlag(flags, 'se_month_end_filing');
  }

  const ctx = buildContext(input, office, origin, grant, profile);
  if (ctx.gbLateDue !== null) flags = addFlag(flags, 'gb_late_grant');
  if (ctx.itPendingUntil !== null) flags = addFlag(flags, 'it_pending_application');

  const annuities: Annuity[] = [];
  const filingMonth = f.year * 12 + f.month - 1;
  const tables = feeTablesOf(office);
  const plan: PaymentPlan = { today, lastPaid, paymentDay, unpaidSeen: false };
  for (let k = first; k <= last; k++) annuities.push(annuity(k, filingMonth, profile, ctx, tables, plan));

  const expiry = dayFromYmd(f.year + LAST_YEAR, f.month, Math.min(f.day, daysInMonth(f.year + LAST_YEAR, f.month)));
  return ok(portalFields(office, origin, filing, expiry, annuities, lastPaid, today, flags ?? NO_FLAGS));
}

const NO_EXCEPTIONS: ExceptionContext = {
  grant: null,
  shiftsDueDates: false,
  euroPctEnd: null,
  divisionalFiling: null,
  art141End: null,
  gbEpFirstRenewal: null,
  gbLateDue: null,
  itPendingUntil: null,
  unitaryWindowEnd: null,
};

/**
 * An annuity of `office` falling due on `due` with the office's plain periods (no exception of §2.3):
 * for a stored record whose due date is all that is known. A due date that is not a month end keeps
 * its day of the month in the periods counted from it.
 */
export function annuityFromDue(office: Office, due: Day, number = 0): Annuity {
  const profile = PROFILES[office];
  const k = Math.max(number, profile.firstYear);
  // The k-th annuity falls due in the filing month 12 (k - 1) months on: a "filing month" that puts it in `due`'s month.
  const a = annuity(k, monthIndexOf(due) - 12 * (k - 1), profile, NO_EXCEPTIONS, feeTablesOf(office), null);
  if (a.due === due) return number > 0 ? a : { ...a, number: 0, feeMinor: null, feeVerified: false };
  // Not a month end: count the periods from the day itself.
  const plainEnd = profile.noSurchargeMonths === 0 ? due : monthsAfter(due, profile.noSurchargeMonths);
  const plain = periodEdges(office, plainEnd);
  const grace = periodEdges(office, monthsAfter(due, profile.graceMonths));
  return {
    ...a,
    number,
    due,
    noSurchargeEnd: plain.payBy,
    noSurchargeEndLatest: plain.lostAfter,
    graceEnd: maxDay(grace.payBy, plain.payBy),
    graceEndLatest: maxDay(grace.lostAfter, plain.lostAfter),
    extensionUnverified: plain.unverified || grace.unverified,
    closingDaysProvisional: plain.provisional || grace.provisional,
    ...priced(feeOf(feeTablesOf(office), k, due), due, number > 0),
  };
}

/** The fee fields of an annuity priced on `payDay` (no fee for an annuity whose number is not known). */
function priced(fee: Fee, payDay: Day, known = true) {
  return {
    paymentDay: payDay,
    feeMinor: known ? fee.feeMinor : null,
    currency: fee.currency,
    feeTable: fee.table.id,
    feeVerified: known && fee.feeMinor !== null && fee.verified,
  };
}

/** The facts that set each annuity's planned payment day (Annuity.paymentDay); `unpaidSeen` marks the next annuity passed. */
interface PaymentPlan {
  readonly today: Day;
  readonly lastPaid: number | null;
  readonly paymentDay: Day | null;
  unpaidSeen: boolean;
}

/** Paid as far as the portal knows: by the payment data, or without it once its last possible day has passed (§2.5). */
function isPaid(number: number, lostAfter: Day, lastPaid: number | null, today: Day): boolean {
  return lastPaid === null ? lostAfter < today : number <= lastPaid;
}

/** Per-right facts the exceptions of §2.3 need, computed once. */
interface ExceptionContext {
  readonly grant: Day | null;
  /** Any of the exceptions that move a due date is present. */
  readonly shiftsDueDates: boolean;
  readonly euroPctEnd: Day | null;
  readonly divisionalFiling: Day | null;
  readonly art141End: Day | null;
  /** Patents Rules 2007 r. 37(4): the first national renewal of a European patent (UK) mentioned late, and its renewal date. */
  readonly gbEpFirstRenewal: { readonly number: number; readonly renewalDate: Day } | null;
  readonly gbLateDue: Day | null;
  readonly itPendingUntil: Day | null;
  readonly unitaryWindowEnd: Day | null;
}

function buildContext(input: RightInput, office: Office, origin: Origin, grant: Day | null, profile: OfficeProfile): ExceptionContext {
  const filing = input.filing;
  const isEp = office === 'EP';
  const validated = origin === 'ep_validated' && grant !== null;
  let gbEpFirstRenewal: ExceptionContext['gbEpFirstRenewal'] = null;
  if (validated && office === 'GB') {
    // Patents Rules 2007 r. 37(4) (§2.3 GB line 83): when the grant is mentioned in the European Patent
    // Bulletin in the three months ending with the 4th anniversary or later, the first renewal date is
    // the later of the last day of the three months beginning with the mention and the anniversary
    // that opens the first national year (the earlier years were paid to the EPO, Art. 141 EPC).
    const number = Math.max(profile.firstYear, patentYear(filing, grant) + 1);
    const renewalDate = threeMonthsBeginningWith(grant);
    if (renewalDate > addYears(filing, number - 1)) gbEpFirstRenewal = { number, renewalDate };
  }
  // Patents Rules 2007 r. 37(3) (§2.3 GB line 82): granted in the three months ending with the 4th
  // anniversary or later (after 3 years 9 months): the first renewal date is the last day of the three
  // months beginning with the grant; its period runs from the grant to the end of that date's month.
  const gbLateDue =
    office === 'GB' && origin === 'national' && grant !== null && grant > addMonths(filing, 45) ? monthEnd(monthIndexOf(threeMonthsBeginningWith(grant))) : null;
  // §2.3 IT line 84: still pending at the end of the 4th year.
  const itPendingUntil = office === 'IT' && origin === 'national' && grant !== null && grant >= addYears(filing, 4) ? addMonths(grant, 4) : null;
  const euroPctEnd = isEp && input.euroPctPeriodStart ? addMonths(input.euroPctPeriodStart, 31) : null;
  const divisionalFiling = isEp && input.divisionalFiling ? input.divisionalFiling : null;
  return {
    grant,
    shiftsDueDates: euroPctEnd !== null || divisionalFiling !== null || gbLateDue !== null || gbEpFirstRenewal !== null,
    euroPctEnd,
    divisionalFiling,
    art141End: validated ? addMonths(grant, 2) : null,
    gbEpFirstRenewal,
    gbLateDue,
    itPendingUntil,
    unitaryWindowEnd: office === 'UP' && input.unitaryRegistration ? addMonths(input.unitaryRegistration, 3) : null,
  };
}

function addFlag(flags: ScheduleFlag[] | null, flag: ScheduleFlag): ScheduleFlag[] {
  if (flags === null) return [flag];
  flags.push(flag);
  return flags;
}

function annuity(k: number, filingMonth: number, profile: OfficeProfile, ctx: ExceptionContext, tables: readonly FeeTable[], plan: PaymentPlan | null): Annuity {
  // §2.1 line 46: due on the last day of the month containing the (k-1)th anniversary.
  let dueMonth = filingMonth + 12 * (k - 1);
  let due = monthEnd(dueMonth);
  let dueIsMonthEnd = true;
  let noSurchargeEnd = profile.noSurchargeMonths === 0 ? due : monthEnd(dueMonth + profile.noSurchargeMonths);
  let graceEnd = monthEnd(dueMonth + profile.graceMonths);

  /** The first renewal's period after a late GB grant or mention begins with it (r. 37(3)(b), (4)(b)). */
  let periodFromGrant: 'grant' | 'mention' | null = null;
  if (ctx.shiftsDueDates) {
    let shifted = false;
    if (ctx.euroPctEnd !== null && k === 3 && due < ctx.euroPctEnd) {
      // §2.3 line 75: the 3rd-year fee moves to the end of the 31-month period; grace runs from there.
      due = ctx.euroPctEnd;
      shifted = true;
    }
    if (ctx.divisionalFiling !== null) {
      // §2.3 line 76, Rule 51(3) EPC: fees already due fall due on the divisional's filing date;
      // those and the ones due within 4 months can be paid within those 4 months.
      const window = addMonths(ctx.divisionalFiling, 4);
      if (due <= ctx.divisionalFiling) {
        due = ctx.divisionalFiling;
        shifted = true;
      }
      if (due <= window) noSurchargeEnd = maxDay(noSurchargeEnd, window);
    }
    if (ctx.gbLateDue !== null && due <= ctx.gbLateDue) {
      // r. 37(3): the fees due by then fall due on the first renewal date, payable by that month's end.
      due = ctx.gbLateDue;
      shifted = true;
      periodFromGrant = 'grant';
    }
    if (ctx.gbEpFirstRenewal !== null && k === ctx.gbEpFirstRenewal.number) {
      // r. 37(4)(b): the renewal period ends with the last day of the month of the first renewal date;
      // the additional fee's months (s. 25(4) Patents Act 1977) run from there, like any renewal's.
      due = monthEnd(monthIndexOf(ctx.gbEpFirstRenewal.renewalDate));
      shifted = true;
      periodFromGrant = 'mention';
    }
    if (shifted) {
      dueMonth = monthIndexOf(due);
      dueIsMonthEnd = isLastDayOfMonth(due);
      noSurchargeEnd = maxDay(noSurchargeEnd, profile.noSurchargeMonths === 0 ? due : monthsAfter(due, profile.noSurchargeMonths));
      graceEnd = monthsAfter(due, profile.graceMonths);
    }
  }
  if (ctx.art141End !== null && due <= ctx.art141End) {
    // §2.2 line 63, Art. 141(2) EPC: a fee due within 2 months of the grant mention is payable within them.
    noSurchargeEnd = maxDay(noSurchargeEnd, ctx.art141End);
  }
  if (ctx.unitaryWindowEnd !== null && due <= ctx.unitaryWindowEnd) {
    // §2.3 line 97, Rule 13(4) UPR; the 6-month additional period still starts at the due date.
    noSurchargeEnd = maxDay(noSurchargeEnd, ctx.unitaryWindowEnd);
  }
  if (ctx.itPendingUntil !== null && due <= (ctx.grant as Day)) {
    // §2.3 IT line 84, Ministerial Decree of 2 April 2007 art. 4: fees that fell due while the application
    // was pending are paid within 4 months of the grant, or in the following 6 months with the late fee.
    noSurchargeEnd = maxDay(noSurchargeEnd, ctx.itPendingUntil);
    graceEnd = maxDay(graceEnd, addMonths(ctx.itPendingUntil, 6));
  }
  // annuities.md §2.4 and holidays.ts: a period ending on a day the office is closed runs to its next
  // open day, with two edges where the rule is not verified; the due date itself does not move.
  const plain = periodEdges(profile.office, noSurchargeEnd);
  const grace = periodEdges(profile.office, graceEnd);
  const graceEndPayBy = maxDay(grace.payBy, plain.payBy);
  const graceEndLatest = maxDay(grace.lostAfter, plain.lostAfter);

  let payableFrom: Day | null = null;
  if (profile.payableFromMonths !== null) {
    // §3 EP line 126: the 3rd-year EP fee may be paid 6 months early, the others 3.
    const early = profile.office === 'EP' && k === 3 ? 6 : profile.payableFromMonths;
    payableFrom = early === 0 ? due : dueIsMonthEnd ? monthEnd(dueMonth - early) : addMonths(due, -early);
    // r. 37(3)(b): from the grant itself; r. 37(4): never before the mention of grant.
    if (periodFromGrant !== null && ctx.grant !== null) payableFrom = periodFromGrant === 'grant' ? ctx.grant : maxDay(payableFrom, ctx.grant);
  }

  // The planned payment day: the caller's for the next annuity, today for one unpaid past its due date (it
  // cannot be paid earlier any more), else the due date; a paid annuity is priced on its due date (the day it
  // was paid is not known).
  let payDay = due;
  if (plan !== null && !isPaid(k, graceEndLatest, plan.lastPaid, plan.today)) {
    if (!plan.unpaidSeen && plan.paymentDay !== null) payDay = plan.paymentDay;
    else if (due < plan.today) payDay = plan.today;
    plan.unpaidSeen = true;
  }
  // Inline rather than feeOf + priced: this runs for every annuity of every schedule (bench/annuities.bench.ts).
  const table = pickFeeTable(tables, payDay);
  const feeMinor = table.amounts[k] ?? null;
  return {
    number: k,
    due,
    payableFrom,
    noSurchargeEnd: plain.payBy,
    noSurchargeEndLatest: plain.lostAfter,
    graceEnd: graceEndPayBy,
    graceEndLatest,
    extensionUnverified: plain.unverified || grace.unverified,
    closingDaysProvisional: plain.provisional || grace.provisional,
    paymentDay: payDay,
    feeMinor,
    currency: table.currency,
    feeTable: table.id,
    feeVerified: feeMinor !== null && verifiedOn(table, payDay),
    office: profile.office,
    surcharge: profile.surcharge,
  };
}

function portalFields(
  office: Office,
  origin: Origin,
  filing: Day,
  expiry: Day,
  annuities: readonly Annuity[],
  lastPaid: number | null,
  today: Day,
  shared: readonly ScheduleFlag[],
): Schedule {
  let flags = shared;
  let previous: Annuity | null = null;
  let next: Annuity | null = null;
  for (const a of annuities) {
    // Without payment data an annuity still payable (due, in grace, or not yet due) is not assumed paid
    // (annuities.md §2.5: "while an annuity is past due but still in grace, show that annuity as next
    // with red"); one whose last possible day has passed is assumed paid, never called lost.
    const paid = isPaid(a.number, a.graceEndLatest, lastPaid, today);
    if (paid) previous = a;
    else {
      next = a;
      break;
    }
  }
  // §2.4 line 114: past F + 20 years the right is expired, not lapsed.
  const expired = today > expiry;
  let lapsed = false;
  let missed: Annuity | null = null;
  if (expired) next = null;
  else if (next !== null && today > next.graceEndLatest) {
    // §2.5: red only while in grace; afterwards the right is lapsed and nothing is payable. Lapsed only
    // after the last day any extension may allow (issue 25), and only when payment data says unpaid.
    lapsed = true;
    missed = next;
    next = null;
  }
  const paymentUnknown = lastPaid === null && next !== null && next.due - today <= DUE_SOON_DAYS;
  const colour = paymentUnknown ? 'nok' : scheduleColour(next?.due ?? null, previous?.due ?? null, today);
  if (next !== null && (paymentUnknown || next.extensionUnverified || next.closingDaysProvisional)) {
    const more: ScheduleFlag[] = [...flags];
    if (next.extensionUnverified) more.push('extension_unverified');
    if (next.closingDaysProvisional) more.push('closing_days_provisional');
    if (paymentUnknown) more.push('payment_unknown');
    flags = more;
  }
  return {
    office,
    origin,
    filing,
    expiry,
    annuities,
    previous,
    next,
    instructionLimit: next === null ? null : addDays(next.due, -7),
    nextLimit: next === null ? null : next.graceEnd,
    nextLostAfter: next === null ? null : next.graceEndLatest,
    inGraceWithSurcharge: next !== null && today > next.noSurchargeEnd && today <= next.graceEndLatest,
    lapsed,
    missed,
    expired,
    colour,
    flags,
  };
}

/** The official fee of `annuity` if paid on `payDay` (the amount in force that day, fees.ts). */
export function feeOn(annuity: Annuity, payDay: Day): Fee {
  return feeOf(feeTablesOf(annuity.office), annuity.number, payDay);
}

/**
 * Surcharge owed when `annuity` is paid on `payDay`: 0 inside the plain window, null after the grace end.
 * A percentage is of the fee in force on `payDay` (the base the office charges that day), not of the fee
 * of the annuity's planned payment day.
 */
export function surchargeOn(annuity: Annuity, payDay: Day): number | null {
  if (payDay > annuity.graceEndLatest) return null;
  if (payDay <= annuity.noSurchargeEnd) return 0;
  const rule = annuity.surcharge;
  const fee = annuity.number > 0 ? (feeOn(annuity, payDay).feeMinor ?? 0) : 0;
  switch (rule.type) {
    case 'percent':
      return Math.round((fee * rule.percent) / 100);
    case 'flat': {
      let amount = 0;
      for (const band of rule.bands) if (annuity.number >= band.fromYear) amount = band.amountMinor;
      return amount;
    }
    case 'stepped_percent': {
      for (const step of rule.steps) {
        if (payDay <= monthsAfter(annuity.due, step.untilMonths)) return Math.round((fee * step.percent) / 100);
      }
      return null;
    }
    case 'per_late_month': {
      const lateMonths = monthIndexOf(payDay) - monthIndexOf(annuity.noSurchargeEnd);
      return Math.min(rule.maxMinor, lateMonths * rule.amountMinor);
    }
  }
}
