import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lineKey, unitsKey, type GuidelineOptions, type GuidelineRule, type GuidelineVersion } from '../src/index.ts';
import { countTasks, daysBetween, recheckHistory } from '../src/rules/client-guidelines.ts';
import { baseRecords, fileText, run, type Rec } from './helpers.ts';

// The base file (helpers.ts): one invoice INV-1 of firm 12-3456789, billing period 20250101–20250131,
// fee line 0 (TK1, PARTNR, 2 units × 350 on 20250115, "Research prior art", L120/A102, matter CM-1),
// expense line 1 (E101, 10 units × 0.50 = 5 on 20250116). The check's clock is 2025-06-01.
const FIRM = '12-3456789';

function version(rules: GuidelineRule[], over: Partial<GuidelineVersion> = {}): GuidelineVersion {
  return { id: 'v1', version: 1, effective_from: '20240101', rules, ...over };
}

async function check(rules: GuidelineRule[] | GuidelineOptions, records: Rec[] = baseRecords()) {
  const guidelines = Array.isArray(rules) ? { versions: [version(rules)] } : rules;
  const outcome = await run(fileText(records), { guidelines });
  const items = [...outcome.result.errors, ...outcome.result.warnings].flatMap((l) =>
    l.items.filter((i) => i.code_ledes.startsWith('GDL-1')).map((i) => ({ line: l.line, severity: outcome.result.errors.includes(l) ? 'error' : 'warning', ...i })),
  );
  return { ...outcome, items };
}

const pick = ({ line, code_ledes, champ, severity, found, expected, difference, over, reference }: Record<string, unknown>) =>
  Object.fromEntries(Object.entries({ line, code_ledes, champ, severity, found, expected, difference, over, reference }).filter(([, v]) => v !== undefined));

describe('client guidelines (GDL-101…GDL-111), hand-computed values', () => {
  it('GDL-101: rate 350 over a PARTNR cap of 300 is 50 per unit, 2 units: 100 over the cap', async () => {
    const { items, summary } = await check([{ kind: 'max_rate', ref: '§2.1', severity: 'error', classification: 'PARTNR', max: '300' }]);
    expect(items.map(pick)).toEqual([
      { line: 0, code_ledes: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', severity: 'error', found: '350', expected: '300', difference: '50', over: '100', reference: '§2.1' },
    ]);
    expect(summary.accepted).toBe(false);
    expect(summary.guidelineVersions).toEqual([{ id: 'v1', version: 1, effective_from: '20240101' }]);
  });

  it('GDL-101: a cap dated after the line (from 20250201) or for another classification does not apply', async () => {
    const { items, summary } = await check([
      { kind: 'max_rate', ref: '§2.1', severity: 'error', classification: 'PARTNR', max: '300', from: '20250201' },
      { kind: 'max_rate', ref: '§2.2', severity: 'error', classification: 'ASSOC', max: '100' },
    ]);
    expect(items).toEqual([]);
    expect(summary.accepted).toBe(true);
  });

  it('the version in force on the billing period decides: v2 (20250101) over v1 (20240101); v3 (20250102) is not yet in force', async () => {
    const cap = (max: string): GuidelineRule[] => [{ kind: 'max_rate', ref: '§2', severity: 'warning', classification: 'PARTNR', max }];
    const { items, summary } = await check({
      versions: [
        version(cap('400'), { id: 'a', version: 1, effective_from: '20240101' }),
        version(cap('340'), { id: 'b', version: 2, effective_from: '20250101' }),
        version(cap('100'), { id: 'c', version: 3, effective_from: '20250102' }),
      ],
    });
    // 350 − 340 = 10 per unit, × 2 units = 20.
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', severity: 'warning', found: '350', expected: '340', difference: '10', over: '20', reference: '§2' }]);
    expect(summary.accepted).toBe(true);
    expect(summary.guidelineVersions).toEqual([{ id: 'b', version: 2, effective_from: '20250101' }]);
  });

  it('no version in force before the first one: nothing is checked, no version named', async () => {
    const { items, summary } = await check({ versions: [version([{ kind: 'max_rate', ref: '§2', severity: 'error', classification: 'PARTNR', max: '1' }], { effective_from: '20250201' })] });
    expect(items).toEqual([]);
    expect(summary.guidelineVersions).toEqual([]);
  });

  it('GDL-102: 2 units in this file + 7 already billed that day by the firm = 9 over a cap of 8 (difference 1)', async () => {
    const asked: string[][] = [];
    const rules: GuidelineRule[] = [{ kind: 'max_units_per_day', ref: '§3', severity: 'error', max: '8' }];
    const history = {
      lookup: (units: readonly string[]) => {
        asked.push([...units]);
        return { units: [[unitsKey(FIRM, 'TK1', '20250115'), '7']] as [string, string][], lines: [] };
      },
    };
    const { items } = await check({ versions: [version(rules)], history });
    expect(asked).toEqual([[unitsKey(FIRM, 'TK1', '20250115')]]);
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', severity: 'error', found: '9', expected: '8', difference: '1', reference: '§3' }]);
    // 2 + 6 = 8: at the cap, not over it.
    const atCap = await check({ versions: [version(rules)], history: { lookup: () => ({ units: [[unitsKey(FIRM, 'TK1', '20250115'), '6']] as [string, string][], lines: [] }) } });
    expect(atCap.items).toEqual([]);
  });

  it('GDL-102 within one file: 2 + 7.5 units the same day = 9.5 over 8 (difference 1.5), on the first line of that day', async () => {
    const [fee, expense] = baseRecords();
    const second = { ...fee!, LINE_ITEM_NUMBER: '3', LINE_ITEM_NUMBER_OF_UNITS: '7.5', LINE_ITEM_TOTAL: '2625', LINE_ITEM_DESCRIPTION: 'Draft response' };
    const records = [fee!, expense!, second].map((r) => ({ ...r, INVOICE_TOTAL: '3330' }));
    const { items, summary } = await check([{ kind: 'max_units_per_day', ref: '§3', severity: 'warning', max: '8' }], records);
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', severity: 'warning', found: '9.5', expected: '8', difference: '1.5', reference: '§3' }]);
    expect(summary.accepted).toBe(true);
    expect(summary.guidelineIndex?.units).toEqual([[unitsKey(FIRM, 'TK1', '20250115'), '9.5']]);
  });

  it('GDL-103: three tasks in one description over 1.5 units (2 units: 0.5 over the threshold); at 1.5 units or two tasks, none', async () => {
    const rules: GuidelineRule[] = [{ kind: 'block_billing', ref: '§5', severity: 'error', min_tasks: 3, min_units: '1.5' }];
    const [fee, expense] = baseRecords();
    const block = { ...fee!, LINE_ITEM_DESCRIPTION: 'Draft claims; call client; review office action' };
    const { items } = await check(rules, [block, expense!]);
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-103', champ: 'LINE_ITEM_DESCRIPTION', severity: 'error', found: '3', expected: '2', difference: '0.5', reference: '§5' }]);
    const small = { ...block, LINE_ITEM_NUMBER_OF_UNITS: '1.5', LINE_ITEM_TOTAL: '525' };
    expect((await check(rules, [small, expense!].map((r) => ({ ...r, INVOICE_TOTAL: '530' })))).items).toEqual([]);
    expect((await check(rules, [{ ...fee!, LINE_ITEM_DESCRIPTION: 'Draft claims; call client' }, expense!])).items).toEqual([]);
    expect(countTasks('a; ;b;; c')).toBe(3);
  });

  it('GDL-104 / GDL-105: A102 refused; L120 only for matter CM-9 (the line is CM-1); allowed for CM-1 it passes', async () => {
    const { items } = await check([
      { kind: 'code', ref: '§6.1', severity: 'error', code: 'A102' },
      { kind: 'code', ref: '§6.2', severity: 'warning', code: 'L120', matters: ['CM-9', 'CM-10'] },
    ]);
    expect(items.map(pick)).toEqual([
      { line: 0, code_ledes: 'GDL-104', champ: 'LINE_ITEM_ACTIVITY_CODE', severity: 'error', found: 'A102', reference: '§6.1' },
      { line: 0, code_ledes: 'GDL-105', champ: 'LINE_ITEM_TASK_CODE', severity: 'warning', found: 'L120', expected: 'CM-9, CM-10', reference: '§6.2' },
    ]);
    expect((await check([{ kind: 'code', ref: '§6.2', severity: 'error', code: 'L120', matters: ['CM-1'] }])).items).toEqual([]);
  });

  it('GDL-106: copies at 0.50 over a cap of 0.10: 0.40 each, 10 copies: 4.00 over the cap', async () => {
    const { items } = await check([{ kind: 'expense_cap', ref: '§7', severity: 'error', code: 'E101', max_unit_cost: '0.10' }]);
    expect(items.map(pick)).toEqual([{ line: 1, code_ledes: 'GDL-106', champ: 'LINE_ITEM_UNIT_COST', severity: 'error', found: '0.50', expected: '0.10', difference: '0.40', over: '4.00', reference: '§7' }]);
    expect((await check([{ kind: 'expense_cap', ref: '§7', severity: 'error', code: 'E101', max_unit_cost: '0.5' }])).items).toEqual([]);
  });

  it('GDL-107: an E101 expense of 5 above 4 needs a receipt; above 5 it does not', async () => {
    const { items } = await check([{ kind: 'receipt', ref: '§8', severity: 'warning', code: 'E101', above: '4' }]);
    expect(items.map(pick)).toEqual([{ line: 1, code_ledes: 'GDL-107', champ: 'LINE_ITEM_EXPENSE_CODE', severity: 'warning', found: '5', expected: '4', reference: '§8' }]);
    expect((await check([{ kind: 'receipt', ref: '§8', severity: 'warning', code: 'E101', above: '5' }])).items).toEqual([]);
  });

  it('GDL-108: 20250101–20250131 is 31 days, one over a 30-day maximum; 31 allowed passes', async () => {
    const { items } = await check([{ kind: 'max_billing_period', ref: '§9', severity: 'error', max_days: 30 }]);
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-108', champ: 'BILLING_END_DATE', severity: 'error', found: '31', expected: '30', difference: '1', reference: '§9' }]);
    expect((await check([{ kind: 'max_billing_period', ref: '§9', severity: 'error', max_days: 31 }])).items).toEqual([]);
    expect(daysBetween('20240201', '20240301')).toBe(29);
  });

  it('GDL-109: uploaded 2025-06-01, 121 days after 20250131 (28+31+30+31+1), 31 over 90', async () => {
    const { items } = await check([{ kind: 'max_upload_delay', ref: '§10', severity: 'error', max_days: 90 }]);
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-109', champ: 'BILLING_END_DATE', severity: 'error', found: '121', expected: '90', difference: '31', reference: '§10' }]);
    expect((await check([{ kind: 'max_upload_delay', ref: '§10', severity: 'error', max_days: 121 }])).items).toEqual([]);
  });

  it('GDL-110: the same timekeeper, date, units and description twice in the file, named by the first line (1)', async () => {
    const [fee, expense] = baseRecords();
    const records = [fee!, expense!, { ...fee!, LINE_ITEM_NUMBER: '3', LINE_ITEM_DESCRIPTION: ' Research prior art ' }].map((r) => ({ ...r, INVOICE_TOTAL: '1405' }));
    const { items } = await check([{ kind: 'duplicate_line', ref: '§11', severity: 'error' }], records);
    expect(items.map(pick)).toEqual([{ line: 2, code_ledes: 'GDL-110', champ: 'LINE_ITEM_DESCRIPTION', severity: 'error', found: '1', reference: '§11' }]);
  });

  it('GDL-111: a line an earlier invoice of the firm already billed; `history: false` leaves cross-invoice findings out', async () => {
    const key = lineKey(FIRM, 'TK1', '20250115', '2', 'Research prior art');
    const rules: GuidelineRule[] = [{ kind: 'duplicate_line', ref: '§11', severity: 'error' }];
    const history = { lookup: (_u: readonly string[], lines: readonly string[]) => ({ units: [], lines: lines.filter((l) => l === key) }) };
    const { items, summary } = await check({ versions: [version(rules)], history });
    expect(items.map(pick)).toEqual([{ line: 0, code_ledes: 'GDL-111', champ: 'LINE_ITEM_DESCRIPTION', severity: 'error', reference: '§11' }]);
    expect(summary.guidelineIndex?.lines).toEqual([key]);
    expect((await check({ versions: [version(rules)], history: false })).items).toEqual([]);
  });

  it('without guidelines the summary carries no guideline fields and no GDL-1xx finding', async () => {
    const outcome = await run(fileText(baseRecords()));
    expect(outcome.summary.guidelineVersions).toBeUndefined();
    expect([...outcome.codes].filter((c) => c.startsWith('GDL-1'))).toEqual([]);
  });
});

describe('client guidelines on a LEDES XML 2.1 file (issue 31: XML items read as 98B records, in the same pass)', () => {
  // fixtures/xml/guidelines-2.1.xml: item 0 fee TK1 PARTNR 2 × 350 on 2025-01-15 "Research prior art"; item 1 fee
  // TK1 PARTNR 7.5 × 300 the same day, three tasks; item 2 expense E101 10 × 0.50; period 2025-01-01…01-31.
  const xml = readFileSync(new URL('./fixtures/xml/guidelines-2.1.xml', import.meta.url));
  const rules: GuidelineRule[] = [
    { kind: 'max_rate', ref: '§2.1', severity: 'error', classification: 'PARTNR', max: '320' },
    { kind: 'max_units_per_day', ref: '§3', severity: 'warning', max: '8' },
    { kind: 'block_billing', ref: '§5', severity: 'warning', min_tasks: 3, min_units: '1.5' },
    { kind: 'expense_cap', ref: '§6', severity: 'warning', code: 'E101', max_unit_cost: '0.10' },
    { kind: 'max_billing_period', ref: '§7', severity: 'warning', max_days: 30 },
    { kind: 'duplicate_line', ref: '§8', severity: 'error' },
  ];

  it('every rule that applies gives its finding with the values that decide', async () => {
    const outcome = await run(xml, { filename: 'g.xml', guidelines: { versions: [version(rules)] } });
    const items = [...outcome.result.errors, ...outcome.result.warnings]
      .flatMap((l) => l.items.filter((i) => i.code_ledes.startsWith('GDL-')).map((i) => pick({ line: l.line, severity: outcome.result.errors.includes(l) ? 'error' : 'warning', ...i })))
      .sort((a, b) => String(a.line).localeCompare(String(b.line)) || String(a.code_ledes).localeCompare(String(b.code_ledes)));
    expect(items).toEqual([
      // 350 − 320 = 30 per unit, × 2 units = 60 over the cap.
      { line: 0, code_ledes: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', severity: 'error', found: '350', expected: '320', difference: '30', over: '60', reference: '§2.1' },
      // 2 + 7.5 = 9.5 units on 2025-01-15, 1.5 over 8, on the day's first item.
      { line: 0, code_ledes: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', severity: 'warning', found: '9.5', expected: '8', difference: '1.5', reference: '§3' },
      // 31 days (01-01…01-31), one over 30: on the invoice's first item.
      { line: 0, code_ledes: 'GDL-108', champ: 'BILLING_END_DATE', severity: 'warning', found: '31', expected: '30', difference: '1', reference: '§7' },
      // Three tasks over 1.5 units: 7.5 − 1.5 = 6.0 (one decimal, as the units are written).
      { line: 1, code_ledes: 'GDL-103', champ: 'LINE_ITEM_DESCRIPTION', severity: 'warning', found: '3', expected: '2', difference: '6.0', reference: '§5' },
      // 0.50 − 0.10 = 0.40 per copy, × 10 = 4.
      { line: 2, code_ledes: 'GDL-106', champ: 'LINE_ITEM_UNIT_COST', severity: 'warning', found: '0.5', expected: '0.10', difference: '0.40', over: '4.00', reference: '§6' },
    ]);
    expect(outcome.summary.accepted).toBe(false);
    expect(outcome.summary.format).toBe('LEDES_XML_2.1');
    expect(outcome.summary.guidelineVersions).toEqual([{ id: 'v1', version: 1, effective_from: '20240101' }]);
    // What the file adds to its firm's history: 9.5 units of TK1 that day, and its two fee lines.
    expect(outcome.summary.guidelineIndex).toEqual({
      units: [[unitsKey(FIRM, 'TK1', '20250115'), '9.5']],
      lines: [lineKey(FIRM, 'TK1', '20250115', '2', 'Research prior art'), lineKey(FIRM, 'TK1', '20250115', '7.5', 'Draft claims; call client; review art')],
    });
  });

  it('GDL-111 on an XML item an earlier invoice of the firm billed; the version in force is the billing period\'s', async () => {
    const history = { lookup: (_u: readonly string[], lines: readonly string[]) => ({ units: [], lines: lines.filter((k) => k.endsWith('Research prior art')) }) };
    const later = version([{ kind: 'max_rate', ref: '§9', severity: 'error', classification: 'PARTNR', max: '1' }], { id: 'v2', version: 2, effective_from: '20250201' });
    const outcome = await run(xml, { filename: 'g.xml', guidelines: { versions: [version([{ kind: 'duplicate_line', ref: '§8', severity: 'error' }]), later], history } });
    expect(outcome.flat.filter((f) => f.code.startsWith('GDL-'))).toEqual([{ line: 0, code: 'GDL-111', champ: 'LINE_ITEM_DESCRIPTION', severity: 'error' }]);
    expect(outcome.summary.guidelineVersions).toEqual([{ id: 'v1', version: 1, effective_from: '20240101' }]);
  });

  it('without guidelines the XML file is checked as before: accepted, no guideline fields', async () => {
    const outcome = await run(xml, { filename: 'g.xml' });
    expect(outcome.flat).toEqual([]);
    expect(outcome.summary.guidelineIndex).toBeUndefined();
  });
});

describe('re-check at commit (decision 220): what the check missed of runs committed since', () => {
  it('probes carry the check\'s answer; the re-check gives GDL-102 and GDL-111 only for what changed', async () => {
    const rules: GuidelineRule[] = [
      { kind: 'max_units_per_day', ref: '§3', severity: 'error', max: '3' },
      { kind: 'duplicate_line', ref: '§4', severity: 'warning' },
    ];
    const history = { lookup: () => ({ units: [], lines: [] }) };
    const { summary, items } = await check({ versions: [version(rules)], history });
    expect(items).toEqual([]);
    const day = unitsKey(FIRM, 'TK1', '20250115');
    const line = lineKey(FIRM, 'TK1', '20250115', '2', 'Research prior art');
    expect(summary.guidelineProbes).toEqual({
      firms: [FIRM],
      units: [{ key: day, units: '2', max: '3', prior: '0', line: 0, severity: 'error', ref: '§3' }],
      lines: [{ key: line, seen: false, line: 0, severity: 'warning', ref: '§4' }],
    });
    const probes = summary.guidelineProbes!;
    // Another run committed 2 units of TK1 that day and the same line since: 2 + 2 = 4, one over 3.
    expect(recheckHistory(probes, { units: [[day, '2']], lines: [line] })).toEqual([
      { line: 0, code: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', severity: 'error', values: { found: '4', expected: '3', difference: '1', reference: '§3' } },
      { line: 0, code: 'GDL-111', champ: 'LINE_ITEM_DESCRIPTION', severity: 'warning', values: { reference: '§4' } },
    ]);
    // 2 + 1 = 3: at the cap; nothing new.
    expect(recheckHistory(probes, { units: [[day, '1']], lines: [] })).toEqual([]);
    // Already said at the check (prior 2, seen): not said twice.
    expect(recheckHistory({ ...probes, units: [{ ...probes.units[0]!, prior: '2' }], lines: [{ ...probes.lines[0]!, seen: true }] }, { units: [[day, '3']], lines: [line] })).toEqual([]);
  });
});
