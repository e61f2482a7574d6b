import type { Finding, FindingValues } from '../findings.ts';
import { add, mul, ONE, POW10_NUMBER, pow10, sub, toString, ZERO, type Decimal } from '../money.ts';
import type { LedesProfile } from '../profiles.ts';
import type { RuleCode } from './catalogue.ts';
import { numAt, report, type InvoiceState, type RecordContext } from './context.ts';

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

/** The declared amount, the computed one and their difference: what a reader needs to correct it. */
export function amountValues(declared: Decimal, exact: Decimal): FindingValues {
  return { found: toString(declared), expected: toString(exact), difference: toString(sub(declared, exact)) };
}

function judge(ctx: RecordContext, declared: Decimal, exact: Decimal, code: RuleCode, champ: string): void {
  const v = verdict(declared, exact, ctx.profile);
  if (v === 'mismatch') report(ctx, code, champ, undefined, amountValues(declared, exact));
  else if (v === 'tolerance') report(ctx, 'MTH-003', champ, undefined, amountValues(declared, exact));
}

/** `d.units` as a safe-integer number, or NaN (values built by the BigInt helpers carry no `n`). */
function fast(d: Decimal): number {
  const n = d.n;
  return n === undefined ? NaN : n;
}

/** `n` (a safe integer at scale `from`) at scale `to` ≥ `from`; NaN when not a safe integer. */
function rescaleNumber(n: number, from: number, to: number): number {
  if (from === to) return n;
  const k = to - from;
  if (k > 22) return NaN;
  const r = n * POW10_NUMBER[k]!;
  return Number.isSafeInteger(r) ? r : NaN;
}

/** `a − b` is exactly zero, decided in safe-integer numbers; undefined when they do not suffice. */
function sameNumber(a: number, aScale: number, b: number, bScale: number): boolean | undefined {
  const scale = aScale > bScale ? aScale : bScale;
  const x = rescaleNumber(a, aScale, scale);
  const y = rescaleNumber(b, bScale, scale);
  if (x !== x || y !== y) return undefined;
  return x === y;
}

/**
 * The line arithmetic of `lineMathExact` in safe-integer numbers, for the common line where every
 * declared amount is exactly the computed one: true when that is proven (no finding), false when a
 * check fails or a value is out of safe-integer range (the exact BigInt path then decides).
 */
function lineMathClean(units: Decimal, cost: Decimal, adj: Decimal, total: Decimal | undefined, tax: Decimal | undefined, rate: Decimal | undefined): boolean {
  const un = fast(units);
  const cn = fast(cost);
  const an = fast(adj);
  if (un !== un || cn !== cn || an !== an) return false;
  const product = cn * un;
  if (!Number.isSafeInteger(product)) return false;
  const productScale = cost.scale + units.scale;
  const baseScale = productScale > adj.scale ? productScale : adj.scale;
  const p = rescaleNumber(product, productScale, baseScale);
  const a = rescaleNumber(an, adj.scale, baseScale);
  const base = p + a;
  if (p !== p || a !== a || !Number.isSafeInteger(base)) return false;
  if (rate !== undefined) {
    const rn = fast(rate);
    // MTH-007: the rate within 0…1.
    if (rn !== rn || rate.scale > 22 || rn < 0 || rn > POW10_NUMBER[rate.scale]!) return false;
    if (tax !== undefined) {
      const expected = base * rn;
      const tn = fast(tax);
      if (!Number.isSafeInteger(expected) || tn !== tn || sameNumber(tn, tax.scale, expected, baseScale + rate.scale) !== true) return false;
    }
  }
  if (total !== undefined && tax !== undefined) {
    const tn = fast(tax);
    const totalN = fast(total);
    if (tn !== tn || totalN !== totalN) return false;
    const scale = baseScale > tax.scale ? baseScale : tax.scale;
    const b = rescaleNumber(base, baseScale, scale);
    const t = rescaleNumber(tn, tax.scale, scale);
    const expected = b + t;
    if (b !== b || t !== t || !Number.isSafeInteger(expected) || sameNumber(totalN, total.scale, expected, scale) !== true) return false;
  }
  return true;
}

/** MTH-001, MTH-004, MTH-007 on one line; adds the line to its invoice's sums. */
export function checkLineMath(ctx: RecordContext): void {
  const inv = ctx.invoice;
  const { cols } = ctx.format;
  const hasTax = cols.taxTotal >= 0;
  const total = numAt(ctx, cols.total);
  const tax = hasTax ? numAt(ctx, cols.taxTotal) : ZERO;
  if (inv) {
    if (total === undefined || tax === undefined) inv.incomplete = true;
    else {
      inv.sumLineTotals.add(total);
      inv.sumLineTaxes.add(tax);
    }
  }

  const adjustment = ctx.lineType === 'IF' || ctx.lineType === 'IE';
  let units = numAt(ctx, cols.units);
  let cost = numAt(ctx, cols.unitCost);
  if (adjustment) {
    // IF/IE: units are "ignored (often 1)", unit cost often empty — the adjustment carries the value.
    units ??= ONE;
    cost ??= ZERO;
  }
  const adj = numAt(ctx, cols.adjustment) ?? ZERO;
  const adjInvalid = ctx.invalid.has(cols.adjustment);
  if (units === undefined || cost === undefined || adjInvalid) return;
  const rate = hasTax ? numAt(ctx, cols.taxRate) : undefined;
  if (lineMathClean(units, cost, adj, total, tax, rate)) return;
  lineMathExact(ctx, units, cost, adj, total, tax, hasTax, rate);
}

/** The reference arithmetic, exact in BigInt: decides every line the number path could not clear. */
function lineMathExact(ctx: RecordContext, units: Decimal, cost: Decimal, adj: Decimal, total: Decimal | undefined, tax: Decimal | undefined, hasTax: boolean, rate: Decimal | undefined): void {
  const base = add(mul(cost, units), adj);
  if (hasTax) {
    if (rate !== undefined) {
      if (rate.units < 0n || rate.units > pow10(rate.scale)) report(ctx, 'MTH-007', 'LINE_ITEM_TAX_RATE', undefined, { found: toString(rate) });
      if (tax !== undefined) judge(ctx, tax, mul(base, rate), 'MTH-004', 'LINE_ITEM_TAX_TOTAL');
    }
  }
  if (total !== undefined && tax !== undefined) judge(ctx, total, add(base, tax), 'MTH-001', 'LINE_ITEM_TOTAL');
}

function invoiceFinding(inv: InvoiceState, declared: Decimal, exact: Decimal, code: RuleCode, champ: string, profile: LedesProfile, out: Finding[]): void {
  const v = verdict(declared, exact, profile);
  if (v === 'mismatch') out.push({ line: inv.firstLine, code, champ, values: amountValues(declared, exact) });
  else if (v === 'tolerance') out.push({ line: inv.firstLine, code: 'MTH-003', champ, values: amountValues(declared, exact) });
}

/** MTH-002, MTH-005, MTH-006, once the whole file is read (an invoice's lines may be anywhere). */
export function checkInvoiceMath(inv: InvoiceState, hasTax: boolean, profile: LedesProfile, out: Finding[]): void {
  if (inv.incomplete) return;
  if (inv.declaredTotal) invoiceFinding(inv, inv.declaredTotal, inv.sumLineTotals.value, 'MTH-002', 'INVOICE_TOTAL', profile, out);
  if (!hasTax) return;
  if (inv.declaredTax) invoiceFinding(inv, inv.declaredTax, inv.sumLineTaxes.value, 'MTH-005', 'INVOICE_TAX_TOTAL', profile, out);
  if (inv.declaredNet && inv.declaredTotal) {
    const tax = inv.declaredTax ?? inv.sumLineTaxes.value;
    invoiceFinding(inv, inv.declaredNet, sub(inv.declaredTotal, tax), 'MTH-006', 'INVOICE_NET_TOTAL', profile, out);
  }
}
