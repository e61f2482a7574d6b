import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultProfile, type GuidelineRule, type ResolvedFinding } from '@portal/ledes';
import { NO_ROWS, runChecks } from '../src/ledes/engine.ts';
import { byDimension, overGuidelinesOf, SpendAccumulator, toTenThousandths } from '../src/ledes/spend.ts';

/** Decision 206: the rollup of the engine's lines, with hand-computed values. */
const HEADER = ['LINE_ITEM_DATE', 'BILLING_END_DATE', 'EXP/FEE/INV_ADJ_TYPE', 'LAW_FIRM_ID', 'CLIENT_ID', 'LAW_FIRM_MATTER_ID', 'TIMEKEEPER_ID', 'TIMEKEEPER_NAME', 'LINE_ITEM_TASK_CODE', 'LINE_ITEM_TOTAL', 'LINE_ITEM_NUMBER_OF_UNITS'];
const line = (date: string, tk: string, task: string, total: string, units = '1') => [date, '20260331', 'F', 'FIRM', 'CL', 'M1', tk, `Name ${tk}`, task, total, units];
// The shape the engine gives a guideline finding (packages/ledes: `values.over`, decision 204).
const gdl = (over: string): ResolvedFinding => ({ line: 0, code: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', severity: 'error', values: { found: '350', expected: '300', difference: '50', over } });

describe('spend rollup', () => {
  it('decimals exactly, in 1/10,000', () => {
    expect(toTenThousandths('1234.5')).toBe(12345000n);
    expect(toTenThousandths('-0.25')).toBe(-2500n);
    expect(toTenThousandths('.5')).toBe(5000n);
    expect(toTenThousandths('1250.')).toBe(12500000n);
    expect(toTenThousandths('12.34567')).toBe(123456n);
    expect(toTenThousandths('abc')).toBeNull();
    expect(toTenThousandths('')).toBeNull();
  });

  it('keeps apart lines whose fields only run together the same (an XML item may hold the separator)', () => {
    const acc = new SpendAccumulator();
    acc.onStart(HEADER);
    const item = (firm: string, client: string, tk: string, task: string) => ['20260305', '20260331', 'F', firm, client, 'M1', tk, 'Name', task, '10', '1'];
    acc.onLine(item('A|B', 'C', 'T1', 'L1|X'), []);
    acc.onLine(item('A', 'B|C', 'T1|L1', 'X'), []);
    acc.onLine(item('A|B', 'C', 'T1', 'L1|X'), []);
    expect(acc.result().map((r) => [r.lawFirmId, r.clientId, r.timekeeperId, r.taskCode, r.lines])).toEqual([
      ['A|B', 'C', 'T1', 'L1|X', 2],
      ['A', 'B|C', 'T1|L1', 'X', 1],
    ]);
  });

  it('lines of the same key summed; another month, timekeeper or task is another row; a bad date falls back to the period end', () => {
    const acc = new SpendAccumulator();
    acc.onStart(HEADER);
    acc.onLine(line('20260305', 'T1', 'l110', '100.10', '0.5'), []);
    acc.onLine(line('20260320', 'T1', 'L110', '0.0100', '1.5'), []);
    acc.onLine(line('20260401', 'T1', 'L110', '7'), []);
    acc.onLine(line('2026XX01', 'T2', 'L120', '3.33'), []);
    acc.onLine(null, []);
    const rows = acc.result();
    expect(rows).toHaveLength(3);
    // 100.10 + 0.01 = 100.11; units 0.5 + 1.5 = 2; task upper-cased.
    expect(rows[0]).toMatchObject({ month: '2026-03', timekeeperId: 'T1', taskCode: 'L110', lines: 2, amount: 1001100n, units: 20000n, overGuidelines: 0n });
    expect(rows[1]).toMatchObject({ month: '2026-04', lines: 1, amount: 70000n });
    expect(rows[2]).toMatchObject({ month: '2026-03', timekeeperId: 'T2', amount: 33300n });
    // Per dimension: March holds 100.11 + 3.33 = 103.44, the firm all three months' rows.
    const dims = byDimension(rows);
    expect(dims.filter((d) => d.dimension === 'month').map((d) => [d.key, d.amount])).toEqual([
      ['2026-03', 1034400n],
      ['2026-04', 70000n],
    ]);
    expect(dims.filter((d) => d.dimension === 'law_firm').reduce((t, d) => t + d.amount, 0n)).toBe(1104400n);
    expect(dims.find((d) => d.dimension === 'timekeeper' && d.key === 'T2')!.label).toBe('Name T2');
  });

  it('sums stay exact past what a Number holds, whatever the decimals (the fast path and the BigInt path agree)', () => {
    const acc = new SpendAccumulator();
    acc.onStart(HEADER);
    // 2,000 lines of 9,999,999,999.9999 (just under 11 whole digits): 20 × 10^12 in all, past 2^53 in 1/10,000.
    for (let i = 0; i < 2000; i++) acc.onLine(line('20260305', 'T1', 'L110', '9999999999.9999', '-0.0001'), []);
    // Decimals the fast path leaves to the exact one: 12 whole digits, a sign, spaces, a no-break space, junk.
    const odd = ['123456789012.5', '+7', ' 3.25 ', '\u00a01.5', '-.5', '5.', '.', '-', 'abc', '', '1.23456789'];
    for (const total of odd) acc.onLine(line('20260305', 'T2', 'L110', total), []);
    const [big, oddRow] = acc.result();
    expect(big!.amount).toBe(2000n * 99999999999999n);
    expect(big!.units).toBe(-2000n);
    const expected = odd.reduce((sum, text) => sum + (toTenThousandths(text.trim()) ?? 0n), 0n);
    expect(oddRow!.amount).toBe(expected);
    expect(oddRow!.amount).toBe(1234567890125000n + 70000n + 32500n + 15000n - 5000n + 50000n + 12345n);
  });

  it('the guidelines seam: GDL- findings with `over` count, others do not', () => {
    expect(overGuidelinesOf([gdl('12.50'), gdl('0.25'), { line: 0, code: 'CON-001', champ: 'X', severity: 'error', values: { over: '99' } }])).toBe(127500n);
    const acc = new SpendAccumulator();
    acc.onStart(HEADER);
    acc.onLine(line('20260305', 'T1', 'L110', '500'), [gdl('50')]);
    expect(acc.result()[0]!.overGuidelines).toBe(500000n);
  });

  it('a file without the columns (XML, an unknown header) adds nothing', () => {
    const acc = new SpendAccumulator();
    acc.onStart(['INVOICE_NUMBER']);
    acc.onLine(['1'], []);
    expect(acc.result()).toEqual([]);
  });
});

describe('spend rollup of a LEDES XML file (issue 31: its items as the engine\'s 98B records)', () => {
  it('the XML items are rolled up like 98B lines, with the guideline amounts over the caps', async () => {
    const xml = readFileSync(new URL('../../ledes/test/fixtures/xml/guidelines-2.1.xml', import.meta.url));
    const rules: GuidelineRule[] = [
      { kind: 'max_rate', ref: '§2.1', severity: 'error', classification: 'PARTNR', max: '320' },
      { kind: 'expense_cap', ref: '§6', severity: 'warning', code: 'E101', max_unit_cost: '0.10' },
    ];
    async function* source() {
      yield new Uint8Array(xml);
    }
    const { summary } = await runChecks(
      source(),
      { filename: 'g.xml', profile: defaultProfile('PAR', 'patent')!, now: new Date('2025-06-01T00:00:00Z'), onFindings: () => {}, guidelines: { versions: [{ id: 'v1', version: 1, effective_from: '20240101', rules }] } },
      NO_ROWS,
    );
    const rows = [...(summary.spend ?? [])].sort((a, b) => a.taskCode.localeCompare(b.taskCode));
    const base = { month: '2025-01', lawFirmId: '12-3456789', clientId: 'C1', matterId: 'M-100' };
    expect(rows).toEqual([
      // The expense: 10 × 0.50 = 5; 0.40 over the cap × 10 = 4.
      { ...base, timekeeperId: '', timekeeperName: '', taskCode: '', lineType: 'E', lines: 1, amount: 50000n, units: 100000n, overGuidelines: 40000n },
      // 2 × 350 = 700; 30 over the cap × 2 = 60.
      { ...base, timekeeperId: 'TK1', timekeeperName: 'Smith, Anna', taskCode: 'L120', lineType: 'F', lines: 1, amount: 7000000n, units: 20000n, overGuidelines: 600000n },
      { ...base, timekeeperId: 'TK1', timekeeperName: 'Smith, Anna', taskCode: 'L130', lineType: 'F', lines: 1, amount: 22500000n, units: 75000n, overGuidelines: 0n },
    ]);
    // 700 + 2250 + 5 = 2955, the invoice's net due.
    expect(rows.reduce((t, r) => t + r.amount, 0n)).toBe(29550000n);
  });
});
