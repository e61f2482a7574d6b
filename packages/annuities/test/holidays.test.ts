import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { easterSunday, isNonWorkingDay, periodEnd } from '../src/holidays.ts';

const day = (s: string): Day => parseIsoDate(s)!;

describe('public holidays of the offices whose periods run to the next working day', () => {
  it('Easter Sunday (published dates)', () => {
    const known: Record<number, string> = { 2000: '2000-04-23', 2008: '2008-03-23', 2011: '2011-04-24', 2018: '2018-04-01', 2019: '2019-04-21', 2024: '2024-03-31', 2025: '2025-04-20', 2038: '2038-04-25' };
    for (const [year, date] of Object.entries(known)) expect(formatIsoDate(easterSunday(Number(year)))).toBe(date);
  });

  it('Sweden: Midsummer Eve and Day, All Saints’ Day, national day since 2005, the eves of Lag 1930:173', () => {
    for (const d of ['2022-06-24', '2022-06-25', '2023-06-23', '2022-11-05', '2023-11-04', '2024-12-24', '2024-12-31', '2005-06-06', '2024-05-09']) expect(isNonWorkingDay('SE', day(d)), d).toBe(true);
    for (const d of ['2022-06-23', '2022-06-27', '2004-06-07', '2024-05-08']) expect(isNonWorkingDay('SE', day(d)), d).toBe(false);
  });

  it('Germany: holidays of Munich, Jena and Berlin count (§ 18a DPMAV), with the years they began', () => {
    expect(isNonWorkingDay('DE', day('2024-01-05'))).toBe(false); // a Friday
    expect(isNonWorkingDay('DE', day('2026-01-06'))).toBe(true); // Epiphany, Bavaria
    expect(isNonWorkingDay('DE', day('2019-03-08'))).toBe(true); // Women's Day, Berlin since 2019
    expect(isNonWorkingDay('DE', day('2018-03-08'))).toBe(false);
    expect(isNonWorkingDay('DE', day('2023-09-20'))).toBe(true); // Children's Day, Thuringia since 2019
    expect(isNonWorkingDay('DE', day('2018-05-31'))).toBe(true); // Corpus Christi, Bavaria
    expect(isNonWorkingDay('DE', day('2025-05-08'))).toBe(true); // Berlin, 2025 only
    expect(isNonWorkingDay('DE', day('2026-05-08'))).toBe(false);
  });

  it('a run of non-working days is skipped whole; offices without an extension keep the calendar day', () => {
    // Thursday 24 Dec 2026 is Julafton; then Juldagen, Annandag jul (Saturday), Sunday → Monday 28 December.
    expect(formatIsoDate(periodEnd('SE', day('2026-12-24')))).toBe('2026-12-28');
    expect(formatIsoDate(periodEnd('DE', day('2026-12-24')))).toBe('2026-12-24');
    expect(formatIsoDate(periodEnd('DE', day('2026-12-25')))).toBe('2026-12-28');
    for (const office of ['GB', 'NL', 'BE', 'ES', 'IT'] as const) expect(formatIsoDate(periodEnd(office, day('2026-12-26')))).toBe('2026-12-26');
    // The EPO: weekends only (its closing days are announced yearly and not modelled).
    expect(formatIsoDate(periodEnd('EP', day('2026-12-26')))).toBe('2026-12-28');
    expect(formatIsoDate(periodEnd('EP', day('2026-12-25')))).toBe('2026-12-25');
  });
});
