import type { Day } from './calendar.ts';
import { PROFILES, UNITARY_STATES } from './offices.ts';
import type { Annuity } from './schedule.ts';
import type { Office, Origin } from './types.ts';

/** The last annuity of any right: patent year 20 (the maximum term, annuities.md §2.4); schedule.ts stops there too. */
export const LAST_ANNUITY = 20;

/** The annuity numbers an office collects for a right of that origin: from its first year to the 20th. */
export interface AnnuityRange {
  readonly first: number;
  readonly last: number;
}

/**
 * The numbers a "previous annuity" of a right may carry: the office's first year (FR and UP 2, NL 4,
 * GB and IT 5, the others 3) to 20. A unitary right on a state the unitary patent replaces follows
 * UP. Without an office (an unknown country) only the term bounds it: 1 to 20. The grant can raise
 * the first national year of a validated European patent; a caller without the grant gets the
 * office's first year (the widest range the engine accepts).
 */
export function annuityRange(office: Office | null, origin: Origin | null): AnnuityRange {
  if (office === null) return { first: 1, last: LAST_ANNUITY };
  const applied = origin === 'unitary' && UNITARY_STATES.has(office) ? 'UP' : office;
  return { first: PROFILES[applied].firstYear, last: LAST_ANNUITY };
}

/** True when `n` is a whole annuity number inside `range`. */
export function inAnnuityRange(n: number, range: AnnuityRange): boolean {
  return Number.isInteger(n) && n >= range.first && n <= range.last;
}

/**
 * The annuity a "previous annuity date" names: the latest of the schedule's annuities due on or before
 * that day (the one paid by then), or null when none was due yet.
 */
export function annuityDueBy(annuities: readonly Annuity[], day: Day): Annuity | null {
  let found: Annuity | null = null;
  for (const a of annuities) if (a.due <= day) found = a;
  return found;
}
