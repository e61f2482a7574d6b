import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { checkRecord, recordDeadline } from '../src/record.ts';

const day = (s: string): Day => parseIsoDate(s)!;

describe('#25 a stored record checked against the computed schedule', () => {
  it('a DE patent filed 15-03-2018 has annuity 9 due 31-03-2026, not 31-12-2026 (annuities.md §2.1: last day of the anniversary month)', () => {
    const check = checkRecord({ office: 'DE', origin: 'national', filing: day('2018-03-15'), number: 9, due: day('2026-12-31') });
    expect(check.status).toBe('disagrees');
    if (check.status !== 'disagrees') return;
    expect(check.disagreement.code).toBe('due_differs');
    expect(check.disagreement.number).toBe(9);
    expect(formatIsoDate(check.disagreement.due)).toBe('2026-03-31');
  });

  it('a BE patent filed 09-07-2024 listed as annuity 4 due 28-09-2026: annuity 4 falls due 31-07-2027', () => {
    const check = checkRecord({ office: 'BE', origin: 'national', filing: day('2024-07-09'), number: 4, due: day('2026-09-28') });
    expect(check).toMatchObject({ status: 'disagrees', disagreement: { code: 'due_differs', number: 4 } });
    if (check.status === 'disagrees') expect(formatIsoDate(check.disagreement.due)).toBe('2027-07-31');
  });

  it('agrees when number and date are the engine’s; a date alone is matched to its annuity', () => {
    expect(checkRecord({ office: 'FR', origin: 'national', filing: day('2018-03-15'), number: 9, due: day('2026-03-31') }).status).toBe('agrees');
    const byDate = checkRecord({ office: 'FR', origin: 'national', filing: day('2018-03-15'), number: null, due: day('2026-03-31') });
    expect(byDate.status === 'agrees' && byDate.annuity.number).toBe(9);
  });

  it('a date that is no annuity’s due date names the nearest one; a number the right never has names its first or last', () => {
    const off = checkRecord({ office: 'NL', origin: 'national', filing: day('2018-03-15'), number: null, due: day('2026-03-20') });
    expect(off).toMatchObject({ status: 'disagrees', disagreement: { code: 'no_annuity_due_then', number: 9 } });
    const low = checkRecord({ office: 'GB', origin: 'national', filing: day('2018-03-15'), number: 2, due: null });
    expect(low).toMatchObject({ status: 'disagrees', disagreement: { code: 'number_out_of_range', number: 5 } });
    const high = checkRecord({ office: 'FR', origin: 'national', filing: day('2018-03-15'), number: 999, due: null });
    expect(high).toMatchObject({ status: 'disagrees', disagreement: { code: 'number_out_of_range', number: 20 } });
  });

  it('without a filing date, or with nothing claimed, there is nothing to compare', () => {
    expect(checkRecord({ office: 'FR', origin: 'national', filing: null, number: 9, due: day('2026-03-31') }).status).toBe('unchecked');
    expect(checkRecord({ office: 'FR', origin: 'national', filing: day('2018-03-15'), number: null, due: null }).status).toBe('unchecked');
    expect(checkRecord({ office: 'ES', origin: 'unitary', filing: day('2018-03-15'), number: 9, due: null }).status).toBe('unchecked');
  });
});

describe('#25 a record’s deadline and its state, from the engine', () => {
  const at = (claim: Parameters<typeof recordDeadline>[0], today: string) => {
    const d = recordDeadline(claim, day(today));
    return d && { state: d.state, noSurchargeEnd: formatIsoDate(d.noSurchargeEnd), graceEnd: formatIsoDate(d.graceEnd), lostAfter: formatIsoDate(d.graceEndLatest), unverified: d.extensionUnverified };
  };

  it('DE annuity due 31 October: on 27 November no surcharge yet (PatKostG § 7(1): end of the 2nd month)', () => {
    // Filing 15-10-2018, annuity 9 due 31-10-2026: surcharge-free until Thu 31 Dec 2026, grace until Fri 30 Apr 2027.
    const claim = { office: 'DE', origin: 'national', filing: day('2018-10-15'), number: 9, due: day('2026-10-31') } as const;
    expect(at(claim, '2026-11-27')).toEqual({ state: 'due', noSurchargeEnd: '2026-12-31', graceEnd: '2027-04-30', lostAfter: '2027-04-30', unverified: false });
    expect(at(claim, '2027-01-04')?.state).toBe('grace');
    expect(at(claim, '2027-05-01')?.state).toBe('past_grace');
    expect(at(claim, '2026-10-31')?.state).toBe('before_due');
  });

  it('GB: the first late month is free; an unverified extension gives two edges', () => {
    // Annuity 5 due Fri 31 Mar 2023: free until Sun 30 Apr (lost-after edge Tue 2 May), grace until Sat 30 Sep (lost after Mon 2 Oct).
    const claim = { office: 'GB', origin: 'national', filing: day('2019-03-10'), number: 5, due: day('2023-03-31') } as const;
    expect(at(claim, '2023-04-15')).toEqual({ state: 'due', noSurchargeEnd: '2023-04-30', graceEnd: '2023-09-30', lostAfter: '2023-10-02', unverified: true });
    expect(at(claim, '2023-10-01')?.state).toBe('grace');
    expect(at(claim, '2023-10-03')?.state).toBe('past_grace');
  });

  it('ES: three months without surcharge, nine of grace', () => {
    const claim = { office: 'ES', origin: 'national', filing: day('2019-09-12'), number: null, due: day('2023-09-30') } as const;
    expect(at(claim, '2023-12-01')?.state).toBe('due');
    expect(at(claim, '2024-01-03')?.state).toBe('grace');
  });

  it('without a filing date, or with a date the engine would not give, the periods count from the record’s own due date', () => {
    // NL due Sun 31 Mar 2024 (Easter Monday 1 April): plain fee until Tue 2 April, grace until Mon 30 Sep.
    expect(at({ office: 'NL', origin: 'national', filing: null, number: null, due: day('2024-03-31') }, '2024-04-02')).toEqual({ state: 'due', noSurchargeEnd: '2024-04-02', graceEnd: '2024-09-30', lostAfter: '2024-09-30', unverified: false });
    // DE due 28-09-2026 (not a month end): surcharge from 29 November (two months on, then § 193 BGB: Sat 28 Nov → Mon 30 Nov).
    expect(at({ office: 'DE', origin: 'national', filing: day('2018-03-15'), number: 9, due: day('2026-09-28') }, '2026-11-27')).toMatchObject({ state: 'due', noSurchargeEnd: '2026-11-30' });
    expect(recordDeadline({ office: 'DE', origin: 'national', filing: null, number: null, due: null }, day('2026-11-27'))).toBeNull();
  });
});
