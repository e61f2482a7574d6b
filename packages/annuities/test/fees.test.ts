import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addMonths, dayFromDate, formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { FEE_TABLES, feeOf, feeTablesOf, staleFeeOffices, type FeeTable } from '../src/fees.ts';
import { scheduleToJson } from '../src/json.ts';
import { annuityFromDue, computeSchedule, surchargeOn } from '../src/schedule.ts';
import { OFFICES, type Office } from '../src/types.ts';

/* Fee tables: dated, sourced, applied by payment day (issue 30 §1 "Fee tables"; docs/annuity-rules.md "Fee tables"). */

const day = (s: string): Day => {
  const d = parseIsoDate(s);
  if (d === null) throw new Error(`bad date ${s}`);
  return d;
};
const today = dayFromDate(new Date()) as Day;

function newestOf(office: Office): FeeTable {
  return feeTablesOf(office).at(-1) as FeeTable;
}

describe('the fee catalogue', () => {
  it('every office has tables, each with its sources, a note and its validity; verified ones cite an official text', () => {
    for (const office of OFFICES) {
      const tables = feeTablesOf(office);
      expect(tables.length, office).toBeGreaterThan(0);
      for (const t of tables) {
        expect(t.sources.length, t.id).toBeGreaterThan(0);
        for (const s of t.sources) expect(s.title.length, t.id).toBeGreaterThan(10);
        expect(t.note.length, t.id).toBeGreaterThan(10);
        if (t.verified) expect(t.sources.some((s) => s.official && s.url.startsWith('http')), `${t.id} verified without an official source`).toBe(true);
        if (t.validUntil !== null) expect(t.validUntil, t.id).toBeGreaterThanOrEqual(t.validFrom);
      }
      // Consecutive tables neither overlap nor leave a known gap.
      for (let i = 1; i < tables.length; i++) {
        const before = tables[i - 1] as FeeTable;
        const after = tables[i] as FeeTable;
        expect(before.validUntil === null ? null : formatIsoDate(before.validUntil), before.id).toBe(formatIsoDate((after.validFrom - 1) as Day));
      }
    }
  });

  // The staleness test of issue 30: a newest table older than 18 months needs a check note of the last 18 months.
  it('no office\'s newest table is older than 18 months without a check in the last 18 months (clock: today)', () => {
    const stale = staleFeeOffices(FEE_TABLES, today);
    expect(stale, `check these offices' current fees, then update fees.ts (table or checked note): ${stale.join(', ')}`).toEqual([]);
  });

  it('the staleness rule fires when the clock moves 18 months past the last checks', () => {
    const latestCheck = Math.max(...FEE_TABLES.map((t) => t.checked?.on ?? 0)) as Day;
    const later = addMonths(latestCheck, 19);
    // Every office's newest table started before `later` - 18 months, and no check is that recent.
    expect(staleFeeOffices(FEE_TABLES, later)).toEqual([...OFFICES].sort());
  });

  it('the staleness rule on hand-made tables: 18 months from the start, or from the last check', () => {
    const base = feeTablesOf('DE')[0] as FeeTable;
    const unchecked: FeeTable = { ...base, id: 'DE-x', validFrom: day('2024-01-01'), validUntil: null, checked: null };
    expect(staleFeeOffices([unchecked], day('2025-07-01'))).toEqual([]); // exactly 18 months
    expect(staleFeeOffices([unchecked], day('2025-07-02'))).toEqual(['DE']);
    const checked: FeeTable = { ...unchecked, checked: { on: day('2025-06-01'), note: 'read the schedule again' } };
    expect(staleFeeOffices([checked], day('2026-12-01'))).toEqual([]);
    expect(staleFeeOffices([checked], day('2026-12-02'))).toEqual(['DE']);
    // Only the newest table counts: an old unchecked one behind a recent one is not stale.
    const recent: FeeTable = { ...unchecked, id: 'DE-y', validFrom: day('2026-06-01') };
    expect(staleFeeOffices([unchecked, recent], day('2026-12-02'))).toEqual([]);
  });

  it('docs/annuity-rules.md lists every table with its payments\' validity', () => {
    const doc = readFileSync(new URL('../../../docs/annuity-rules.md', import.meta.url), 'utf8');
    for (const t of FEE_TABLES) expect(doc, t.id).toContain(`| \`${t.id}\` |`);
  });

  it('declares which offices have no verified fee for a payment today (a gap is visible, not silent)', () => {
    const unverified = OFFICES.filter((office) => {
      const newest = newestOf(office);
      const first = newest.amounts.findIndex((a) => a !== null);
      return !feeOf(feeTablesOf(office), first, today).verified;
    });
    // SE (PRV, 18 Mar 2023) and IT (DM 2 Apr 2007) are read in official texts; GB's 2018 table ended on 31 Mar 2026
    // and its 2026 schedule was not found; the others rest on firms' pages (docs/annuity-rules.md "Fee tables").
    expect(unverified).toEqual(['EP', 'UP', 'BE', 'DE', 'ES', 'FR', 'GB', 'NL']);
  });
});

describe('offices whose newest table has ended (a successor is known, its amounts not read)', () => {
  it('are declared: EP (OJ EPO 2026, A1) and GB (a 2026 increase reported), both priced with their last amounts today', () => {
    const ended = OFFICES.filter((office) => {
      const newest = newestOf(office);
      return newest.validUntil !== null && newest.validUntil < today;
    });
    expect(ended).toEqual(['EP', 'GB']);
    for (const office of ended) {
      const newest = newestOf(office);
      const first = newest.amounts.findIndex((a) => a !== null);
      expect(feeOf(feeTablesOf(office), first, today), office).toMatchObject({ table: { id: newest.id }, verified: false });
      // The successor is named in the newest table's note and its check, not left silent.
      expect(newest.checked, office).not.toBeNull();
    }
  });
});

describe('the fee in force on the payment day (hand-computed from the official texts)', () => {
  it('SE: 12th year SEK 3,800 paid on 17 Mar 2023 (SFS 2017:1058), SEK 4,000 from 18 Mar 2023 (PRV)', () => {
    const se = feeTablesOf('SE');
    expect(feeOf(se, 12, day('2023-03-17'))).toMatchObject({ feeMinor: 380000, verified: true, table: { id: 'SE-2018-01-01' } });
    expect(feeOf(se, 12, day('2023-03-18'))).toMatchObject({ feeMinor: 400000, verified: true, table: { id: 'SE-2023-03-18' } });
    expect(feeOf(se, 3, day('2023-03-18')).feeMinor).toBe(150000);
    expect(feeOf(se, 20, day('2026-11-28')).feeMinor).toBe(730000);
  });

  it('SE: the 20 % surcharge in grace is of the fee in force on the payment day', () => {
    // Filed 10 Jan 2012: the 12th-year fee falls due on 31 Jan 2023, payable with 20 % until 31 Jul 2023.
    const s = computeSchedule({ office: 'SE', origin: 'national', filing: day('2012-01-10'), lastPaid: 11 }, day('2023-02-01'));
    if (!s.ok) throw new Error(s.reason);
    const k12 = s.value.annuities.find((a) => a.number === 12)!;
    expect(formatIsoDate(k12.due)).toBe('2023-01-31');
    expect(surchargeOn(k12, day('2023-03-17'))).toBe(76000); // 20 % of 3,800
    expect(surchargeOn(k12, day('2023-03-18'))).toBe(80000); // 20 % of 4,000
  });

  it('SE: an annuity unpaid past its due date is priced on today, the next one on the day the caller plans', () => {
    const input = { office: 'SE' as const, origin: 'national' as const, filing: day('2012-01-10'), lastPaid: 11 };
    const before = computeSchedule(input, day('2023-03-17'));
    const after = computeSchedule(input, day('2023-03-18'));
    if (!before.ok || !after.ok) throw new Error('schedule');
    expect(before.value.next).toMatchObject({ number: 12, feeMinor: 380000, feeTable: 'SE-2018-01-01', feeVerified: true });
    expect(formatIsoDate(before.value.next!.paymentDay)).toBe('2023-03-17');
    expect(after.value.next).toMatchObject({ number: 12, feeMinor: 400000, feeTable: 'SE-2023-03-18', feeVerified: true });
    // A payment planned before the change is priced on that day; later annuities stay on their due dates.
    const planned = computeSchedule(input, day('2023-03-01'), { paymentDay: day('2023-03-10') });
    if (!planned.ok) throw new Error(planned.reason);
    expect(planned.value.next).toMatchObject({ number: 12, feeMinor: 380000 });
    expect(formatIsoDate(planned.value.next!.paymentDay)).toBe('2023-03-10');
    const k13 = planned.value.annuities.find((a) => a.number === 13)!;
    expect(formatIsoDate(k13.paymentDay)).toBe('2024-01-31');
    expect(k13.feeMinor).toBe(450000);
  });

  it('EP: the 6th-year fee due 29 Feb 2024 is 1,180 paid on 28 Mar, 1,155 from 1 Apr 2024, and so is the surcharge\'s base', () => {
    const s = computeSchedule({ office: 'EP', origin: 'ep_application', filing: day('2019-02-10'), lastPaid: 5 }, day('2024-03-28'));
    if (!s.ok) throw new Error(s.reason);
    const k6 = s.value.next!;
    expect(k6).toMatchObject({ number: 6, feeMinor: 118000, feeTable: 'EP-2023-04-01' });
    expect(formatIsoDate(k6.due)).toBe('2024-02-29');
    expect(surchargeOn(k6, day('2024-03-28'))).toBe(59000); // 50 % of 1,180
    expect(surchargeOn(k6, day('2024-04-02'))).toBe(57750); // 50 % of 1,155
    const later = computeSchedule({ office: 'EP', origin: 'ep_application', filing: day('2019-02-10'), lastPaid: 5 }, day('2024-04-01'));
    if (!later.ok) throw new Error(later.reason);
    expect(later.value.next).toMatchObject({ number: 6, feeMinor: 115500, feeTable: 'EP-2024-04-01' });
  });

  it('EP: years 7 to 9 from 1 April 2024 are 1,310 / 1,465 / 1,620, not interpolated', () => {
    const ep = feeTablesOf('EP');
    expect([7, 8, 9].map((k) => feeOf(ep, k, day('2024-04-01')).feeMinor)).toEqual([131000, 146500, 162000]);
    expect([7, 8, 9].map((k) => feeOf(ep, k, day('2024-03-31')).feeMinor)).toEqual([130500, 144000, 157000]);
  });

  it('GB: the 2018 amounts are verified for a payment on 31 Mar 2026, unverified from 1 Apr 2026 (new schedule not found)', () => {
    const gb = feeTablesOf('GB');
    expect(feeOf(gb, 5, day('2026-03-31'))).toMatchObject({ feeMinor: 7000, verified: true });
    expect(feeOf(gb, 5, day('2026-04-01'))).toMatchObject({ feeMinor: 7000, verified: false });
  });

  it('EP: a 5 % adjustment approved in Dec 2025 (OJ EPO 2026, A1) ends the 2024 table; later payments keep its amounts, past its known end', () => {
    const ep = feeTablesOf('EP');
    const t2024 = ep.at(-1)!;
    expect(t2024.id).toBe('EP-2024-04-01');
    expect(formatIsoDate(t2024.validUntil!)).toBe('2026-03-31');
    expect(t2024.sources.some((s) => s.official && s.url.includes('official-journal/2026/01/a1'))).toBe(true);
    // Filed 10 Feb 2021: the 6th-year fee falls due on 28 Feb 2026; the six months of Rule 51(2) run to 31 Aug 2026.
    const s = computeSchedule({ office: 'EP', origin: 'ep_application', filing: day('2021-02-10'), lastPaid: 5 }, day('2026-03-31'));
    if (!s.ok) throw new Error(s.reason);
    const k6 = s.value.next!;
    expect(formatIsoDate(k6.due)).toBe('2026-02-28');
    // Paid on 31 Mar 2026, the last day of the table: EUR 1,155 + 50 % = 577.50 (firms' amounts: unverified).
    expect(feeOf(ep, 6, day('2026-03-31'))).toMatchObject({ feeMinor: 115500, verified: false, table: { id: 'EP-2024-04-01' } });
    expect(surchargeOn(k6, day('2026-03-31'))).toBe(57750);
    // Paid on 1 Apr 2026: the successor's amounts were not read, so the last known ones stand, and the day is past the
    // table's end (the cost part carries that end); no 2026 amount is invented.
    const april = feeOf(ep, 6, day('2026-04-01'));
    expect(april).toMatchObject({ feeMinor: 115500, verified: false, table: { id: 'EP-2024-04-01' } });
    expect(day('2026-04-01')).toBeGreaterThan(april.table.validUntil!);
    expect(surchargeOn(k6, day('2026-04-01'))).toBe(57750);
  });

  it('GB: the additional fee of Schedule 2 Part 2 counts months after the payment period, across 1 Apr 2026', () => {
    // 5th year due 31 Jan 2026: February is the 1st month (no fee), March the 2nd (GBP 24), April the 3rd (GBP 48).
    const k5 = annuityFromDue('GB', day('2026-01-31'), 5);
    expect(surchargeOn(k5, day('2026-02-27'))).toBe(0);
    expect(surchargeOn(k5, day('2026-03-31'))).toBe(2400);
    expect(feeOf(feeTablesOf('GB'), 5, day('2026-03-31'))).toMatchObject({ feeMinor: 7000, verified: true });
    expect(surchargeOn(k5, day('2026-04-15'))).toBe(4800);
    expect(feeOf(feeTablesOf('GB'), 5, day('2026-04-15'))).toMatchObject({ feeMinor: 7000, verified: false, table: { id: 'GB-2018-04-06' } });
  });

  it('SE: the 18 Mar 2023 amounts stay in force across 1 Jul 2025 (no newer schedule read), 20 % in grace on them', () => {
    // Filed 10 Jan 2014: the 12th-year fee falls due on 31 Jan 2025, payable with 20 % until 31 Jul 2025.
    const s = computeSchedule({ office: 'SE', origin: 'national', filing: day('2014-01-10'), lastPaid: 11 }, day('2025-06-30'));
    if (!s.ok) throw new Error(s.reason);
    const k12 = s.value.next!;
    expect(formatIsoDate(k12.due)).toBe('2025-01-31');
    for (const paid of ['2025-06-30', '2025-07-01']) {
      expect(feeOf(feeTablesOf('SE'), 12, day(paid)), paid).toMatchObject({ feeMinor: 400000, verified: true, table: { id: 'SE-2023-03-18' } });
      expect(surchargeOn(k12, day(paid)), paid).toBe(80000); // 20 % of 4,000
    }
  });

  it('ES: a payment in 2025 or 2026 is priced with the 2024 amounts, unverified; 25 % then 50 % of that base', () => {
    const es = feeTablesOf('ES');
    expect(feeOf(es, 10, day('2024-06-01'))).toMatchObject({ feeMinor: 22040, verified: false });
    expect(feeOf(es, 10, day('2026-11-28'))).toMatchObject({ feeMinor: 22040, verified: false, table: { id: 'ES-2024-01-01' } });
    // 10th year due 31 Jan 2025 (Ley 24/2015 art. 184): plain to 30 Apr, + 25 % to 31 Jul, + 50 % to 31 Oct 2025.
    const k10 = annuityFromDue('ES', day('2025-01-31'), 10);
    expect(surchargeOn(k10, day('2025-04-30'))).toBe(0);
    expect(surchargeOn(k10, day('2025-06-15'))).toBe(5510); // 25 % of 220.40
    expect(surchargeOn(k10, day('2025-09-15'))).toBe(11020); // 50 % of 220.40
  });

  it('a payment before the oldest known table gets the oldest amounts, marked unverified', () => {
    expect(feeOf(feeTablesOf('EP'), 3, day('2020-03-31'))).toMatchObject({ feeMinor: 53000, verified: false, table: { id: 'EP-2023-04-01' } });
  });

  it('the wire shape carries the payment day, the table and whether the amount is verified', () => {
    const s = computeSchedule({ office: 'SE', origin: 'national', filing: day('2012-01-10'), lastPaid: 11 }, day('2023-03-20'));
    if (!s.ok) throw new Error(s.reason);
    const json = scheduleToJson(s.value) as { annuities: Array<Record<string, unknown>> };
    expect(json.annuities.find((a) => a.number === 12)).toMatchObject({ fee: '4000.00', currency: 'SEK', fee_table: 'SE-2023-03-18', fee_verified: true, payment_date: '2023-03-20', due_date: '2023-01-31' });
  });
});
