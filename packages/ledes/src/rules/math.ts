import type { Finding } from '../findings.ts';
import { add, mul, pow10, sub, ZERO, type Decimal } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import type { RuleCode } from './catalogue.ts';
import { num, report, type InvoiceState, type RecordContext } from './context.ts';

type Verdict = 'ok' | 'tolerance' | 'mismatch';

/**
 * A declared amount matches an exact value when it is one of its roundings at the declared
 * precision (at least the profile's decimals); beyond that, a gap up to the profile tolerance
 * (in minor units) is a warning.
 */
export function verdict(declared: Decimal, exact: Decimal, profile: LedesProfile): Verdict {
  const diff = sub(declared, exact);
  const abs = diff.units < 0n ? -diff.units : diff.units;
  if (abs === 0n) return 'ok';
  const precision = Math.max(declared.scale, profile.decimals);
  // |diff| ≤ ½·10^-precision  ⇔  2·|units|·10^precision ≤ 10^scale
  if (2n * abs * pow10(precision) <= pow10(diff.scale)) return 'ok';
  // Gap in minor units, rounded up: any non-zero gap counts as at least one.
  const minor = pow10(diff.scale);
  const scaled = abs * pow10(profile.decimals);
  const gap = (scaled + minor - 1n) / minor;
  return gap <= BigInt(profile.totalsToleranceMinor) ? 'tolerance' : 'mismatch';
}

function judge(ctx: RecordContext, declared: Decimal, exact: Decimal, code: RuleCode, champ: string): void {
  const v = verdict(declared, exact, ctx.profile);
  if (v === 'mismatch') report(ctx, code, champ);
  else if (v === 'tolerance') report(ctx, 'MTH-003', champ);
}

/** MTH-001, MTH-004, MTH-007 on one line; adds the line to its invoice's sums. */
export function checkLineMath(ctx: RecordContext): void {
  const inv = ctx.invoice;
  const hasTax = ctx.format.index.has('LINE_ITEM_TAX_TOTAL');
  const total = num(ctx, 'LINE_ITEM_TOTAL');
  const tax = hasTax ? num(ctx, 'LINE_ITEM_TAX_TOTAL') : ZERO;
  if (inv) {
    if (total === undefined || tax === undefined) inv.incomplete = true;
    else {
      inv.sumLineTotals = add(inv.sumLineTotals, total);
      inv.sumLineTaxes = add(inv.sumLineTaxes, tax);
    }
  }

  const adjustment = ctx.lineType === 'IF' || ctx.lineType === 'IE';
  let units = num(ctx, 'LINE_ITEM_NUMBER_OF_UNITS');
  let cost = num(ctx, 'LINE_ITEM_UNIT_COST');
  if (adjustment) {
    // IF/IE: units are "ignored (often 1)", unit cost often empty — the adjustment carries the value.
    units ??= { units: 1n, scale: 0 };
    cost ??= ZERO;
  }
  const adj = num(ctx, 'LINE_ITEM_ADJUSTMENT_AMOUNT') ?? ZERO;
  const adjInvalid = ctx.invalid.has(ctx.format.index.get('LINE_ITEM_ADJUSTMENT_AMOUNT')!);
  if (units === undefined || cost === undefined || adjInvalid) return;
  const base = add(mul(cost, units), adj);

  if (hasTax) {
    const rate = num(ctx, 'LINE_ITEM_TAX_RATE');
    if (rate !== undefined) {
      if (rate.units < 0n || rate.units > pow10(rate.scale)) report(ctx, 'MTH-007', 'LINE_ITEM_TAX_RATE');
      if (tax !== undefined) judge(ctx, tax, mul(base, rate), 'MTH-004', 'LINE_ITEM_TAX_TOTAL');
    }
  }
  if (total !== undefined && tax !== undefined) judge(ctx, total, add(base, tax), 'MTH-001', 'LINE_ITEM_TOTAL');
}

function invoiceFinding(inv: InvoiceState, declared: Decimal, exact: Decimal, code: RuleCode, champ: string, profile: LedesProfile, out: Finding[]): void {
  const v = verdict(declared, exact, profile);
  if (v === 'mismatch') out.push({ line: inv.firstLine, code, champ });
  else if (v === 'tolerance') out.push({ line: inv.firstLine, code: 'MTH-003', champ });
}

/** MTH-002, MTH-005, MTH-006, once the whole file is read (an invoice's lines may be anywhere). */
export function checkInvoiceMath(inv: InvoiceState, hasTax: boolean, profile: LedesProfile, out: Finding[]): void {
  if (inv.incomplete) return;
  if (inv.declaredTotal) invoiceFinding(inv, inv.declaredTotal, inv.sumLineTotals, 'MTH-002', 'INVOICE_TOTAL', profile, out);
  if (!hasTax) return;
  if (inv.declaredTax) invoiceFinding(inv, inv.declaredTax, inv.sumLineTaxes, 'MTH-005', 'INVOICE_TAX_TOTAL', profile, out);
  if (inv.declaredNet && inv.declaredTotal) {
    const tax = inv.declaredTax ?? inv.sumLineTaxes;
    invoiceFinding(inv, inv.declaredNet, sub(inv.declaredTotal, tax), 'MTH-006', 'INVOICE_NET_TOTAL', profile, out);
  }
}
