import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, patentYear, type Day } from '../src/calendar.ts';
import { computeSchedule, surchargeOn, type RightInput } from '../src/schedule.ts';
import { cases } from './schedule-cases.ts';

const day = (s: string): Day => {
  const d = parseIsoDate(s);
  if (d === null) throw new Error(`bad date in case table: ${s}`);
  return d;
};
const iso = (d: Day | null | undefined): string | null => (d === null || d === undefined ? null : formatIsoDate(d));

describe('schedule case table (shared/domain/annuities.md)', () => {
  it('has at least 150 cases, each naming its source line', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    for (const c of cases) expect(c.source).toMatch(/(annuities|product)\.md .*line \d+/);
  });

  it.each(cases.map((c) => [`${c.office}/${c.origin}: ${c.name} [${c.source}]`, c] as const))('%s', (_title, c) => {
    const input: RightInput = {
      office: c.office,
      origin: c.origin,
      filing: day(c.filing),
      grant: c.grant ? day(c.grant) : null,
      lastPaid: c.lastPaid ?? null,
      euroPctPeriodStart: c.euroPctPeriodStart ? day(c.euroPctPeriodStart) : null,
      divisionalFiling: c.divisionalFiling ? day(c.divisionalFiling) : null,
      unitaryRegistration: c.unitaryRegistration ? day(c.unitaryRegistration) : null,
    };
    const result = computeSchedule(input, day(c.today));
    if (c.error) {
      expect(result).toMatchObject({ ok: false, reason: c.error });
      return;
    }
    if (!result.ok) throw new Error(`unexpected ${result.reason}`);
    const s = result.value;
    const numbers = s.annuities.map((a) => a.number);
    if (c.first !== undefined) expect(numbers[0]).toBe(c.first);
    if (c.last !== undefined) expect(numbers.at(-1)).toBe(c.last);
    if (c.count !== undefined) expect(numbers.length).toBe(c.count);
    if (c.absent !== undefined) expect(numbers).not.toContain(c.absent);
    if (c.office_applied !== undefined) expect(s.office).toBe(c.office_applied);
    if (c.annuity) {
      const e = c.annuity;
      const a = s.annuities.find((x) => x.number === e.number);
      expect(a, `annuity ${e.number}`).toBeDefined();
      if (!a) return;
      if (e.due !== undefined) expect(iso(a.due)).toBe(e.due);
      if (e.noSurchargeEnd !== undefined) expect(iso(a.noSurchargeEnd)).toBe(e.noSurchargeEnd);
      if (e.graceEnd !== undefined) expect(iso(a.graceEnd)).toBe(e.graceEnd);
      if (e.noSurchargeEndLatest !== undefined) expect(iso(a.noSurchargeEndLatest)).toBe(e.noSurchargeEndLatest);
      if (e.lostAfter !== undefined) expect(iso(a.graceEndLatest)).toBe(e.lostAfter);
      if (e.payableFrom !== undefined) expect(iso(a.payableFrom)).toBe(e.payableFrom);
      if (e.fee !== undefined) expect(a.feeMinor).toBe(e.fee);
      if (e.currency !== undefined) expect(a.currency).toBe(e.currency);
      if (e.surcharge !== undefined) expect(surchargeOn(a, day(e.surcharge[0]))).toBe(e.surcharge[1]);
    }
    if (c.previous !== undefined) expect(s.previous?.number ?? null).toBe(c.previous);
    if (c.previousDate !== undefined) expect(iso(s.previous?.due)).toBe(c.previousDate);
    if (c.next !== undefined) expect(s.next?.number ?? null).toBe(c.next);
    if (c.nextDate !== undefined) expect(iso(s.next?.due)).toBe(c.nextDate);
    if (c.instructionLimit !== undefined) expect(iso(s.instructionLimit)).toBe(c.instructionLimit);
    if (c.nextLimit !== undefined) expect(iso(s.nextLimit)).toBe(c.nextLimit);
    if (c.nextLostAfter !== undefined) expect(iso(s.nextLostAfter)).toBe(c.nextLostAfter);
    if (c.inGrace !== undefined) expect(s.inGraceWithSurcharge).toBe(c.inGrace);
    if (c.lapsed !== undefined) expect(s.lapsed).toBe(c.lapsed);
    if (c.missed !== undefined) expect(s.missed === null ? null : { number: s.missed.number, lostAfter: iso(s.missed.graceEndLatest) }).toEqual(c.missed);
    if (c.expired !== undefined) expect(s.expired).toBe(c.expired);
    if (c.colour !== undefined) expect(s.colour).toBe(c.colour);
    if (c.flags !== undefined) expect([...s.flags].sort()).toEqual([...c.flags].sort());
  });
});

describe('patent year (annuities.md §2.2, line 62)', () => {
  it('runs from the (n-1)th anniversary to the day before the nth', () => {
    const f = day('2018-03-15');
    expect(patentYear(f, day('2018-03-15'))).toBe(1);
    expect(patentYear(f, day('2019-03-14'))).toBe(1);
    expect(patentYear(f, day('2019-03-15'))).toBe(2);
    expect(patentYear(f, day('2024-01-10'))).toBe(6);
  });
});
