/**
 * Exact decimal arithmetic on integer minor units (BigInt mantissa + decimal scale).
 * LEDES amounts carry up to 4 decimals and tax rates more; binary floats would make
 * `0.1 + 0.2`-style false positives in the total checks.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
  /**
   * `units` as a JS number when it is a safe integer (NaN otherwise), set on parsed values only:
   * the line checks add and compare in plain numbers while every step stays a safe integer, and
   * fall back to the BigInt path as soon as one would not (or as soon as a check fails).
   */
  readonly n?: number;
}

export type ParsedNumber =
  | { readonly ok: true; readonly value: Decimal; readonly decimals: number; readonly leadingPlus: boolean }
  | { readonly ok: false };

const NUMBER_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** LEDES numeric syntax: digits, one dot, leading minus (leading plus tolerated, flagged by the caller). */
export function parseDecimal(text: string): ParsedNumber {
  const m = NUMBER_RE.exec(text);
  if (!m) return { ok: false };
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  if (int === '' && frac === '') return { ok: false };
  const magnitude = BigInt(int + frac || '0');
  const units = m[1] === '-' ? -magnitude : magnitude;
  const n = Number(units);
  return {
    ok: true,
    value: { units, scale: frac.length, n: Number.isSafeInteger(n) ? n : NaN },
    decimals: frac.length,
    leadingPlus: m[1] === '+',
  };
}

export const ZERO: Decimal = { units: 0n, scale: 0, n: 0 };
export const ONE: Decimal = { units: 1n, scale: 0, n: 1 };

/** 10^k as exact doubles (exact up to 10^22). */
export const POW10_NUMBER: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * A running sum of Decimals with the same result as folding `add` from ZERO (same units, same
 * scale), kept in a plain number while it stays a safe integer.
 */
export class DecimalSum {
  private n = 0;
  private scale = 0;
  private big: Decimal | undefined;

  add(d: Decimal): void {
    const dn = d.n;
    if (this.big === undefined && dn !== undefined && dn === dn) {
      const scale = this.scale > d.scale ? this.scale : d.scale;
      if (scale <= 22) {
        const a = this.scale === scale ? this.n : this.n * POW10_NUMBER[scale - this.scale]!;
        const b = d.scale === scale ? dn : dn * POW10_NUMBER[scale - d.scale]!;
        const s = a + b;
        if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(s)) {
          this.n = s;
          this.scale = scale;
          return;
        }
      }
    }
    this.big = add(this.big ?? { units: BigInt(this.n), scale: this.scale }, d);
  }

  get value(): Decimal {
    return this.big ?? { units: BigInt(this.n), scale: this.scale };
  }
}

const POW10: bigint[] = [];
export function pow10(n: number): bigint {
  let p = POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POW10[n] = p;
  }
  return p;
}

function rescale(d: Decimal, scale: number): bigint {
  return d.scale === scale ? d.units : d.units * pow10(scale - d.scale);
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) - rescale(b, scale), scale };
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}




export function toString(d: Decimal): string {
  const neg = d.units < 0n;
  const digits = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = d.scale > 0 ? `.${digits.slice(digits.length - d.scale)}` : '';
  return `${neg ? '-' : ''}${int}${frac}`;
}

const parsed = new Map<string, ParsedNumber>();
const CACHE_LIMIT = 4096;

/**
 * `parseDecimal` memoised: LEDES repeats the same amounts on many lines (rates, units,
 * invoice totals on every line), and BigInt parsing dominates the per-line cost.
 */
export function parseDecimalCached(text: string): ParsedNumber {
  let r = parsed.get(text);
  if (r === undefined) {
    r = parseDecimal(text);
    if (parsed.size >= CACHE_LIMIT) parsed.clear();
    parsed.set(text, r);
  }
  return r;
}
