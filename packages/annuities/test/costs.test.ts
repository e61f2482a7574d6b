import { describe, expect, it } from 'vitest';
import { parseIsoDate, type Day } from '../src/calendar.ts';
import { costBreakdown, inForce, type DatedAmount, type ServiceFee } from '../src/costs.ts';
import { parseEcbRates, pickEcbRate, toEuroMinor, type EcbRate } from '../src/ecb.ts';
import { annuityFromDue, computeSchedule } from '../src/schedule.ts';

/* Issue 30 §1: every amount is the sum of visible parts. Expected values are computed by hand in the comments. */

const day = (s: string): Day => {
  const d = parseIsoDate(s);
  if (d === null) throw new Error(`bad date ${s}`);
  return d;
};

/** Test rates (made up for the fixture, in the ECB's form: units per euro). */
const RATES = new Map<string, EcbRate[]>([
  ['GBP', [
    { day: '2026-03-12', currency: 'GBP', perEur: '0.8601' },
    { day: '2026-03-13', currency: 'GBP', perEur: '0.8535' },
    { day: '2026-03-16', currency: 'GBP', perEur: '0.849' },
  ]],
  ['SEK', [{ day: '2026-05-14', currency: 'SEK', perEur: '11.0425' }]],
]);

describe('the cost of an annuity, part by part', () => {
  it('an office fee paid in grace: the fee of the payment day and the surcharge on it, each a part', () => {
    // EP application filed 10 Feb 2022: the 5th-year renewal fee falls due on 28 Feb 2026 (end of the anniversary month).
    const s = computeSchedule({ office: 'EP', origin: 'ep_application', filing: day('2022-02-10'), lastPaid: 4 }, day('2026-05-15'));
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    const fifth = s.value.annuities.find((a) => a.number === 5)!;
    const cost = costBreakdown({ annuity: fifth, payDay: day('2026-05-15'), rates: RATES });
    // Table EP-2024-04-01, year 5: EUR 1,000.00; paid in the six months of grace: + 50 % = EUR 500.00; total EUR 1,500.00.
    // 15 May 2026 is past the table's end (31 Mar 2026: the 5 % adjustment of OJ EPO 2026, A1, amounts not read), so
    // these are the last known amounts, unverified, and the part says where its table ends.
    expect(cost.parts.map((p) => [p.kind, p.amountMinor, p.currency, p.eurMinor, p.ref])).toEqual([
      ['official_fee', 100_000, 'EUR', 100_000, 'EP-2024-04-01'],
      ['surcharge', 50_000, 'EUR', 50_000, 'percent'],
    ]);
    expect(cost.parts[0]!.validFrom).toBe('2024-04-01');
    expect(cost.parts[0]!.validUntil).toBe('2026-03-31');
    expect(cost.parts[0]!.verified).toBe(false);
    expect(cost.totalEurMinor).toBe(150_000);
    expect(cost.rates).toEqual([]);
    // The same annuity paid before its due date has no surcharge line.
    expect(costBreakdown({ annuity: fifth, payDay: day('2026-02-20'), rates: RATES }).parts.map((p) => p.kind)).toEqual(['official_fee']);
    // After the last day of grace nothing can be paid: no part, no total.
    const lapsed = costBreakdown({ annuity: fifth, payDay: day('2026-09-30'), rates: RATES });
    expect(lapsed).toMatchObject({ lapsed: true, parts: [], totalEurMinor: null });
  });

  it('a GBP fee converted at the ECB rate of the last day published before a Saturday payment', () => {
    const fifth = annuityFromDue('GB', day('2026-03-31'), 5);
    const agentFees: DatedAmount[] = [{ id: 'agent-gb-2026', amountMinor: 2_500, currency: 'GBP', validFrom: '2026-01-01', validUntil: null }];
    // Saturday 14 March 2026: the ECB published on Friday 13 March (0.8535 GBP per EUR).
    const cost = costBreakdown({ annuity: fifth, payDay: day('2026-03-14'), agentFees, rates: RATES });
    expect(cost.rates).toEqual([{ currency: 'GBP', perEur: '0.8535', day: '2026-03-13' }]);
    // GB-2018-04-06, year 5: GBP 70.00 → 7,000 / 0.8535 = 8,201.52 cents → EUR 82.02.
    // Agent's fee GBP 25.00 → 2,500 / 0.8535 = 2,929.11 cents → EUR 29.29. Total EUR 111.31.
    expect(cost.parts.map((p) => [p.kind, p.amountMinor, p.currency, p.eurMinor])).toEqual([
      ['official_fee', 7_000, 'GBP', 8_202],
      ['agent_fee', 2_500, 'GBP', 2_929],
    ]);
    expect(cost.parts[0]!).toMatchObject({ ref: 'GB-2018-04-06', validFrom: '2018-04-06', validUntil: '2026-03-31', verified: true });
    expect(cost.totalEurMinor).toBe(11_131);
    // No rate published on or before the payment day: the parts stay, the euro amounts and the total are null.
    const early = costBreakdown({ annuity: fifth, payDay: day('2026-03-11'), rates: RATES });
    expect(early.parts.map((p) => p.eurMinor)).toEqual([null]);
    expect(early.totalEurMinor).toBeNull();
  });

  it('a cabinet with a service fee and a margin: each a line, the margin of the parts before it', () => {
    const fifth = annuityFromDue('DE', day('2026-06-30'), 5);
    const agentFees: DatedAmount[] = [
      { id: 'de-2025', amountMinor: 5_500, currency: 'EUR', validFrom: '2025-01-01', validUntil: '2025-12-31' },
      { id: 'de-2026', amountMinor: 6_000, currency: 'EUR', validFrom: '2026-01-01', validUntil: null },
    ];
    const serviceFees: ServiceFee[] = [{ id: 'cab-1', amountMinor: 4_500, currency: 'EUR', validFrom: '2026-01-01', validUntil: null, marginBp: 250 }];
    const cost = costBreakdown({ annuity: fifth, payDay: day('2026-06-30'), agentFees, serviceFees, rates: RATES });
    // DE-2022-07-01, year 5: EUR 100.00; agent's fee of 2026: EUR 60.00; service fee EUR 45.00;
    // margin 2.5 % of (100.00 + 60.00) = EUR 4.00. Total EUR 209.00.
    expect(cost.parts.map((p) => [p.kind, p.amountMinor, p.eurMinor, p.ref])).toEqual([
      ['official_fee', 10_000, 10_000, 'DE-2022-07-01'],
      ['agent_fee', 6_000, 6_000, 'de-2026'],
      ['service_fee', 4_500, 4_500, 'cab-1'],
      ['margin', 400, 400, 'cab-1:250bp'],
    ]);
    expect(cost.totalEurMinor).toBe(20_900);
    // Paid in 2025, the agent's fee of 2025 applies and the cabinet's fee (from 2026) does not.
    const before = costBreakdown({ annuity: annuityFromDue('DE', day('2025-06-30'), 4), agentFees, serviceFees, rates: RATES });
    expect(before.parts.map((p) => [p.kind, p.amountMinor])).toEqual([
      ['official_fee', 7_000],
      ['agent_fee', 5_500],
    ]);
  });

  it('a Swedish fee in grace converted in SEK: the surcharge is of the fee in force that day', () => {
    // SE national filed 10 Jan 2015, 12th annuity due 31 Jan 2026; paid 14 May 2026 in grace.
    const twelfth = annuityFromDue('SE', day('2026-01-31'), 12);
    const cost = costBreakdown({ annuity: twelfth, payDay: day('2026-05-14'), rates: RATES });
    // SE-2023-03-18 year 12: SEK 4,000 → 400,000 / 11.0425 = 36,223.69 → EUR 362.24; + 20 % = SEK 800 → 7,244.74 → EUR 72.45.
    expect(cost.parts.map((p) => [p.kind, p.amountMinor, p.currency, p.eurMinor])).toEqual([
      ['official_fee', 400_000, 'SEK', 36_224],
      ['surcharge', 80_000, 'SEK', 7_245],
    ]);
    expect(cost.totalEurMinor).toBe(43_469);
  });

  it('the row in force: from its start to its end included, the latest start wins', () => {
    const rows = [
      { id: 'a', validFrom: '2025-01-01', validUntil: null },
      { id: 'b', validFrom: '2026-01-01', validUntil: '2026-06-30' },
    ];
    expect(inForce(rows, '2024-12-31')).toBeNull();
    expect(inForce(rows, '2025-12-31')?.id).toBe('a');
    expect(inForce(rows, '2026-06-30')?.id).toBe('b');
    expect(inForce(rows, '2026-07-01')?.id).toBe('a');
  });
});

describe('ECB reference-rate files', () => {
  it('reads the daily CSV (day written out, a trailing comma)', () => {
    const r = parseEcbRates('Date, USD, JPY, GBP, SEK, \n13 March 2026, 1.0842, 161.22, 0.8535, 11.0425, \n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.file).toMatchObject({ format: 'csv', firstDay: '2026-03-13', lastDay: '2026-03-13', days: 1, skipped: 0 });
    expect(r.file.rates).toContainEqual({ day: '2026-03-13', currency: 'GBP', perEur: '0.8535' });
  });

  it('reads the historical CSV, skipping the N/A cells of currencies not quoted that day', () => {
    const r = parseEcbRates('\ufeffDate,USD,GBP,CYP,\r\n2026-03-13,1.0842,0.8535,N/A,\r\n2026-03-12,1.0811,0.8601,N/A,\r\n');
    expect(r.ok && r.file).toMatchObject({ firstDay: '2026-03-12', lastDay: '2026-03-13', days: 2, skipped: 2 });
    if (r.ok) expect(r.file.rates).toHaveLength(4);
  });

  it('reads the XML files (single or double quotes, several days)', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='2026-03-13'>
      <Cube currency='USD' rate='1.0842'/>
      <Cube currency='GBP' rate='0.8535'/>
    </Cube>
    <Cube time="2026-03-12"><Cube currency="GBP" rate="0.8601"/></Cube>
  </Cube>
</gesmes:Envelope>`;
    const r = parseEcbRates(xml);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.file).toMatchObject({ format: 'xml', firstDay: '2026-03-12', lastDay: '2026-03-13', days: 2 });
    expect(r.file.rates).toEqual([
      { day: '2026-03-13', currency: 'USD', perEur: '1.0842' },
      { day: '2026-03-13', currency: 'GBP', perEur: '0.8535' },
      { day: '2026-03-12', currency: 'GBP', perEur: '0.8601' },
    ]);
  });

  it('refuses what is not an ECB file, with a reason and the line', () => {
    expect(parseEcbRates('')).toEqual({ ok: false, reason: 'ecb_file_empty', line: null });
    expect(parseEcbRates('name,amount\nx,1\n')).toEqual({ ok: false, reason: 'ecb_file_format', line: 1 });
    expect(parseEcbRates('Date,GBP,\n2026-02-30,0.85,\n')).toEqual({ ok: false, reason: 'ecb_file_bad_day', line: 2 });
    expect(parseEcbRates('Date,GBP,\n2026-03-13,-0.85,\n')).toEqual({ ok: false, reason: 'ecb_file_bad_rate', line: 2 });
    expect(parseEcbRates('Date,GBP,\n2026-03-13,0,\n')).toEqual({ ok: false, reason: 'ecb_file_bad_rate', line: 2 });
    expect(parseEcbRates('Date,GBP,\n2026-03-13,0.85,\n2026-03-13,0.86,\n')).toEqual({ ok: false, reason: 'ecb_file_conflict', line: 3 });
    expect(parseEcbRates('Date,GBP,\n2026-03-13,0.85,,9\n')).toMatchObject({ ok: false, reason: 'ecb_file_format' });
    expect(parseEcbRates('Date,gbp,\n2026-03-13,0.85,\n')).toMatchObject({ ok: false, reason: 'ecb_file_format' });
    expect(parseEcbRates('<!DOCTYPE x [<!ENTITY a "b">]><Cube time="2026-03-13"><Cube currency="GBP" rate="&a;"/></Cube>')).toMatchObject({ ok: false, reason: 'ecb_file_format' });
    expect(parseEcbRates('<Cube><Cube currency="GBP" rate="0.85"/></Cube>')).toMatchObject({ ok: false, reason: 'ecb_file_format' });
    expect(parseEcbRates('<Cube time="2026-13-01"><Cube currency="GBP" rate="0.85"/></Cube>')).toMatchObject({ ok: false, reason: 'ecb_file_bad_day' });
    expect(parseEcbRates('<html><body>Not found</body></html>')).toMatchObject({ ok: false, reason: 'ecb_file_format' });
    expect(parseEcbRates('x'.repeat(16 * 1024 * 1024 + 1))).toMatchObject({ ok: false, reason: 'ecb_file_too_large' });
  });

  it('picks the rate of the day or the last published before it', () => {
    const gbp = RATES.get('GBP')!;
    expect(pickEcbRate(gbp, '2026-03-13')?.perEur).toBe('0.8535');
    expect(pickEcbRate(gbp, '2026-03-15')?.perEur).toBe('0.8535');
    expect(pickEcbRate(gbp, '2026-03-16')?.perEur).toBe('0.849');
    expect(pickEcbRate(gbp, '2026-03-11')).toBeNull();
  });

  it('converts exactly, half up', () => {
    expect(toEuroMinor(7_000, '0.8535')).toBe(8_202);
    expect(toEuroMinor(100, '2')).toBe(50);
    expect(toEuroMinor(1, '2')).toBe(1); // 0.5 → 1
    expect(toEuroMinor(1_000_000, '161.22')).toBe(6_203);
    expect(() => toEuroMinor(1, '0')).toThrow();
  });
});
