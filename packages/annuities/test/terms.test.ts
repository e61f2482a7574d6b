import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { computeSchedule } from '../src/schedule.ts';
import { annuityDueBy, annuityRange, inAnnuityRange, LAST_ANNUITY } from '../src/terms.ts';
import { OFFICES, type Office, type Origin } from '../src/types.ts';

const day = (s: string): Day => parseIsoDate(s)!;

describe('#25 the annuity numbers of an office: first year to the maximum term', () => {
  it('is exactly the numbers of the schedule the engine computes for a national right (and for EP, UP)', () => {
    for (const office of OFFICES) {
      const origin: Origin = office === 'EP' ? 'ep_application' : office === 'UP' ? 'unitary' : 'national';
      const s = computeSchedule({ office, origin, filing: day('2010-03-15'), grant: office === 'GB' ? day('2012-01-10') : null }, day('2010-03-15'));
      if (!s.ok) throw new Error(s.reason);
      const numbers = s.value.annuities.map((a) => a.number);
      // EP without a grant: the EPO collects to the end of the term, like the others.
      expect(annuityRange(office, origin), office).toEqual({ first: numbers[0], last: numbers.at(-1) });
    }
    expect(LAST_ANNUITY).toBe(20);
  });

  it('FR from 2, GB from 5, NL from 4; a unitary right on FR follows UP, on ES (not replaced) ES; no office: 1 to 20', () => {
    const cases: Array<[Office | null, Origin | null, number]> = [
      ['FR', 'national', 2],
      ['GB', 'national', 5],
      ['NL', 'ep_validated', 4],
      ['FR', 'unitary', 2],
      ['DE', 'unitary', 2],
      ['ES', 'unitary', 3],
      [null, null, 1],
    ];
    for (const [office, origin, first] of cases) expect(annuityRange(office, origin), `${office} ${origin}`).toEqual({ first, last: 20 });
  });

  it('refuses first year − 1, 21, fractions and non-numbers', () => {
    const fr = annuityRange('FR', 'national');
    expect([1, 2, 20, 21, 999, 7.5, Number.NaN].map((n) => inAnnuityRange(n, fr))).toEqual([false, true, true, false, false, false, false]);
  });

  it('the annuity a previous date names: the latest due on or before it', () => {
    const s = computeSchedule({ office: 'FR', origin: 'national', filing: day('2016-03-15') }, day('2025-06-10'));
    if (!s.ok) throw new Error(s.reason);
    const at = (d: string) => annuityDueBy(s.value.annuities, day(d));
    expect(at('2024-03-31')!.number).toBe(9);
    expect(at('2024-04-01')!.number).toBe(9);
    expect(at('2024-03-30')!.number).toBe(8);
    expect(formatIsoDate(at('2024-03-31')!.due)).toBe('2024-03-31');
    expect(at('2017-03-30')).toBeNull();
  });
});
