import type { Day } from './calendar.ts';
import { annuityFromDue, computeSchedule, type Annuity } from './schedule.ts';
import type { Office, Origin } from './types.ts';

/**
 * A stored annuity record (the back office's portfolio row, an import line, an added patent): the
 * office and origin of the right, its filing date when known, and the annuity the record claims.
 */
export interface RecordClaim {
  readonly office: Office;
  readonly origin: Origin;
  readonly filing: Day | null;
  readonly grant?: Day | null;
  /** The annuity number (quantième) the record claims, when it gives one. */
  readonly number: number | null;
  /** The due date the record claims, when it gives one. */
  readonly due: Day | null;
}

/**
 * How a record disagrees with the computed schedule:
 * - `due_differs`: the engine puts annuity `number` at `due`, not at the record's date;
 * - `no_annuity_due_then`: no annuity of the right falls due on the record's date; `number`/`due` is the nearest one;
 * - `number_out_of_range`: the right has no annuity with the record's number (`number`/`due`: the first or last it has).
 */
export type RecordDisagreementCode = 'due_differs' | 'no_annuity_due_then' | 'number_out_of_range';

export interface RecordDisagreement {
  readonly code: RecordDisagreementCode;
  /** The engine's annuity: what the record should say. */
  readonly number: number;
  readonly due: Day;
}

export type RecordCheck =
  /** The record agrees with the engine; `annuity` is the engine's annuity it names. */
  | { readonly status: 'agrees'; readonly annuity: Annuity }
  | { readonly status: 'disagrees'; readonly disagreement: RecordDisagreement }
  /** Nothing to compare: no filing date, no number and no due date, or a combination the engine refuses. */
  | { readonly status: 'unchecked' };

const UNCHECKED: RecordCheck = Object.freeze({ status: 'unchecked' });

/**
 * Compares what a record claims (annuity number, due date) with the schedule the engine computes from
 * its office, origin and filing date. Pure; `today` does not change the answer (every annuity of the
 * right is compared, paid or not).
 */
export function checkRecord(claim: RecordClaim): RecordCheck {
  if (claim.filing === null || (claim.number === null && claim.due === null)) return UNCHECKED;
  // `today` only decides previous/next, which this check does not read: the filing date will do.
  const result = computeSchedule({ office: claim.office, origin: claim.origin, filing: claim.filing, grant: claim.grant ?? null }, claim.filing);
  if (!result.ok || result.value.annuities.length === 0) return UNCHECKED;
  const { annuities } = result.value;
  if (claim.number !== null) {
    const annuity = annuities.find((a) => a.number === claim.number);
    if (!annuity) {
      const edge = claim.number < annuities[0]!.number ? annuities[0]! : annuities[annuities.length - 1]!;
      return { status: 'disagrees', disagreement: { code: 'number_out_of_range', number: edge.number, due: edge.due } };
    }
    if (claim.due !== null && claim.due !== annuity.due) return { status: 'disagrees', disagreement: { code: 'due_differs', number: annuity.number, due: annuity.due } };
    return { status: 'agrees', annuity };
  }
  const due = claim.due as Day;
  const exact = annuities.find((a) => a.due === due);
  if (exact) return { status: 'agrees', annuity: exact };
  let nearest = annuities[0]!;
  for (const a of annuities) if (Math.abs(a.due - due) < Math.abs(nearest.due - due)) nearest = a;
  return { status: 'disagrees', disagreement: { code: 'no_annuity_due_then', number: nearest.number, due: nearest.due } };
}

/** Where a record's annuity stands on a day, from the engine's period ends (never from the web). */
export type DeadlineState =
  /** On or before the due date. */
  | 'before_due'
  /** Past the due date, the plain fee still enough (DE's two months, GB's month, ES's three). */
  | 'due'
  /** Past the surcharge-free end (*pay by*): payable with the surcharge until *lost after*. */
  | 'grace'
  /** Past *lost after*: lost unless paid. */
  | 'past_grace';

/** The period ends of a record's annuity (the engine's `Annuity` fields) and where it stands today. */
export type RecordDeadline = Pick<
  Annuity,
  'due' | 'noSurchargeEnd' | 'noSurchargeEndLatest' | 'graceEnd' | 'graceEndLatest' | 'extensionUnverified' | 'closingDaysProvisional'
> & { readonly state: DeadlineState };

/**
 * The period ends of the annuity a record claims, and where it stands on `today`. The engine's own
 * annuity when the record agrees with the schedule (late grants, Art. 141 EPC and the other exceptions
 * included); otherwise the office's plain periods counted from the record's due date, which is the date
 * the screens show (the disagreement is flagged separately). Null without a due date.
 */
export function recordDeadline(claim: RecordClaim, today: Day): RecordDeadline | null {
  if (claim.due === null) return null;
  const check = checkRecord(claim);
  const a = check.status === 'agrees' && check.annuity.due === claim.due ? check.annuity : annuityFromDue(claim.office, claim.due);
  const state: DeadlineState = today <= a.due ? 'before_due' : today <= a.noSurchargeEnd ? 'due' : today <= a.graceEndLatest ? 'grace' : 'past_grace';
  const { due, noSurchargeEnd, noSurchargeEndLatest, graceEnd, graceEndLatest, extensionUnverified, closingDaysProvisional } = a;
  return { due, noSurchargeEnd, noSurchargeEndLatest, graceEnd, graceEndLatest, extensionUnverified, closingDaysProvisional, state };
}

