/** The 30-rule guideline set the guideline benches check (issue 31 §1): a generated file passes it, so every line is read by every rule. */
import type { GuidelineRule } from '../packages/ledes/src/index.ts';

const W = 'warning' as const;
const E = 'error' as const;
export const THIRTY_RULES: GuidelineRule[] = [
  ...['PARTNR', 'ASSOC', 'OFCNSL', 'PARLGL', 'LEGAST', 'PARTNR2', 'SRPART', 'JRPART', 'SRASSOC', 'JRASSOC', 'TRAINEE', 'LITSUP'].map(
    (classification, i): GuidelineRule => ({ kind: 'max_rate', ref: `§2.${i + 1}`, severity: E, classification, max: String(400 + i), from: '20240101', to: '20251231' }),
  ),
  { kind: 'max_units_per_day', ref: '§3', severity: E, max: '999999999' },
  { kind: 'block_billing', ref: '§4', severity: W, min_tasks: 3, min_units: '1' },
  ...['A110', 'A111', 'L999', 'E199', 'E198', 'E197', 'L998', 'A109'].map((code, i): GuidelineRule => ({ kind: 'code', ref: `§5.${i + 1}`, severity: E, code })),
  ...['E101', 'E102', 'E103', 'E104'].map((code, i): GuidelineRule => ({ kind: 'expense_cap', ref: `§6.${i + 1}`, severity: E, code, max_unit_cost: '1' })),
  { kind: 'receipt', ref: '§7.1', severity: W, code: 'E101', above: '1000' },
  { kind: 'receipt', ref: '§7.2', severity: W, code: 'E110', above: '25' },
  { kind: 'max_billing_period', ref: '§8', severity: E, max_days: 31 },
  { kind: 'max_upload_delay', ref: '§9', severity: E, max_days: 10_000 },
];
if (THIRTY_RULES.length !== 30) throw new Error(`${THIRTY_RULES.length} rules, 30 expected`);
