import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { easterSunday, isCertainlyClosed, isNonWorkingDay, periodEdges, periodEnd } from '../src/holidays.ts';

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

  it('a run of non-working days is skipped whole', () => {
    // Thursday 24 Dec 2026 is Julafton; then Juldagen, Annandag jul (Saturday), Sunday → Monday 28 December.
    expect(formatIsoDate(periodEnd('SE', day('2026-12-24')))).toBe('2026-12-28');
    expect(formatIsoDate(periodEnd('DE', day('2026-12-24')))).toBe('2026-12-24');
    expect(formatIsoDate(periodEnd('DE', day('2026-12-25')))).toBe('2026-12-28');
    // IT: Saturday 26 December is Santo Stefano, then Sunday → Monday 28.
    expect(formatIsoDate(periodEnd('IT', day('2026-12-26')))).toBe('2026-12-28');
  });
});

describe('#25 two edges of a period end: pay by (verified rules only) and lost after (every rule that may apply)', () => {
  const edges = (office: Parameters<typeof periodEdges>[0], d: string) => {
    const e = periodEdges(office, day(d));
    return { payBy: formatIsoDate(e.payBy), lostAfter: formatIsoDate(e.lostAfter), unverified: e.unverified, provisional: e.provisional };
  };

  it('a verified rule moves both edges to the same day', () => {
    expect(edges('IT', '2025-05-31')).toEqual({ payBy: '2025-06-03', lostAfter: '2025-06-03', unverified: false, provisional: false });
    expect(edges('NL', '2029-03-31')).toEqual({ payBy: '2029-04-03', lostAfter: '2029-04-03', unverified: false, provisional: false });
    // NL King's Day: 27 April, or Saturday 26 April when the 27th is a Sunday (2025).
    expect(isNonWorkingDay('NL', day('2025-04-26'))).toBe(true);
    expect(isNonWorkingDay('NL', day('2024-04-27'))).toBe(true);
    // IT: San Francesco (4 October) only from 2026 (Legge 151/2025).
    expect(isNonWorkingDay('IT', day('2027-10-04'))).toBe(true);
    expect(isNonWorkingDay('IT', day('2025-10-04'))).toBe(true); // a Saturday anyway
    expect(isNonWorkingDay('IT', day('2024-10-04'))).toBe(false);
  });

  it('an unverified rule keeps the calendar day to pay by and moves only the lost-after edge', () => {
    // GB: Sat 31 Dec 2022, Sun 1 Jan, Mon 2 Jan 2023 (New Year substitute) → Tue 3 Jan.
    expect(edges('GB', '2022-12-31')).toEqual({ payBy: '2022-12-31', lostAfter: '2023-01-03', unverified: true, provisional: false });
    // GB: Christmas on a Saturday (2021): 25 Sat, 26 Sun, substitutes Mon 27 and Tue 28 → Wed 29.
    expect(edges('GB', '2021-12-25').lostAfter).toBe('2021-12-29');
    // BE: Sat 31 Oct 2026, Toussaint, All Souls (federal administration) → Tue 3 Nov.
    expect(edges('BE', '2026-10-31')).toEqual({ payBy: '2026-10-31', lostAfter: '2026-11-03', unverified: true, provisional: false });
    // ES: Sun 31 Dec 2023, Año Nuevo Mon 1 Jan → Tue 2 Jan.
    expect(edges('ES', '2023-12-31')).toEqual({ payBy: '2023-12-31', lostAfter: '2024-01-02', unverified: true, provisional: false });
    // An ordinary weekday needs nothing.
    expect(edges('GB', '2023-03-31')).toEqual({ payBy: '2023-03-31', lostAfter: '2023-03-31', unverified: false, provisional: false });
    expect(isCertainlyClosed('GB', day('2022-12-31'))).toBe(false);
    expect(isNonWorkingDay('GB', day('2022-12-31'))).toBe(true);
  });

  it('the EPO: the published lists of the Official Journal, a day closed at one office only, and years without a list', () => {
    // OJ EPO 2022, A107: 1 May 2023 closed in Munich and Berlin (not The Hague): extends.
    expect(edges('EP', '2023-04-30')).toEqual({ payBy: '2023-05-02', lostAfter: '2023-05-02', unverified: false, provisional: false });
    // 8 March 2023 (Berlin only) is a closing day; 31 Oct 2023 is not.
    expect(isCertainlyClosed('EP', day('2023-03-08'))).toBe(true);
    expect(isNonWorkingDay('EP', day('2023-10-31'))).toBe(false);
    // OJ EPO 2019, A97 then the COVID-19 closure to 10 January 2021: 31 Dec 2020 → Mon 11 Jan 2021.
    expect(edges('UP', '2020-12-31')).toMatchObject({ payBy: '2021-01-11', lostAfter: '2021-01-11' });
    // A year without a published list (2027): Good Friday 26 March, Easter Monday 29 March are closed in every list
    // → Wed 31 Mar 2027 is open; Fri 26 Mar 2027 → Tue 30 Mar, provisional.
    expect(edges('EP', '2027-03-26')).toEqual({ payBy: '2027-03-30', lostAfter: '2027-03-30', unverified: false, provisional: true });
    // 2029: 8 March (Berlin, in some lists only) is a Thursday: pay by that day, lost only after it (the Friday).
    expect(edges('EP', '2029-03-08')).toEqual({ payBy: '2029-03-08', lostAfter: '2029-03-09', unverified: false, provisional: true });
    // Year end 2027: Fri 24 Dec, the bridging days Mon 27 to Thu 30 Dec, Fri 31 Dec (weekdays closed in every list), Sat 1,
    // Sun 2 Jan → Mon 3 Jan 2028.
    expect(edges('EP', '2027-12-24')).toEqual({ payBy: '2028-01-03', lostAfter: '2028-01-03', unverified: false, provisional: true });
    // 2032: 2 January is a Friday (a bridging day in 2015's list only): Thu 1 Jan → pay by Fri 2 Jan, lost after Mon 5 Jan.
    expect(edges('EP', '2032-01-01')).toEqual({ payBy: '2032-01-02', lostAfter: '2032-01-05', unverified: false, provisional: true });
  });
});
