import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { checkRecord } from '../src/record.ts';

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
