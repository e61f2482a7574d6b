import { describe, expect, it } from 'vitest';
import { add, compare, mul, parseDecimal, sub, toString, type Decimal } from '../src/money.ts';

const d = (s: string): Decimal => {
  const p = parseDecimal(s);
  if (!p.ok) throw new Error(s);
  return p.value;
};

describe('money', () => {
  it('parses LEDES numbers and rejects the rest', () => {
    for (const ok of ['0', '-70', '1250.', '.5', '0.200', '+3', '-0007.10']) expect(parseDecimal(ok).ok, ok).toBe(true);
    for (const bad of ['', '.', '-', '1,000', '$5', '1 000', '5-', '1.2.3', '1e3', 'NaN']) expect(parseDecimal(bad).ok, bad).toBe(false);
  });

  it('is exact where floats are not', () => {
    expect(toString(add(d('0.1'), d('0.2')))).toBe('0.3');
    expect(compare(add(d('0.1'), d('0.2')), d('0.3'))).toBe(0);
    expect(toString(mul(d('2.00'), d('350')))).toBe('700.00');
    expect(toString(sub(d('1869.97'), d('182.52')))).toBe('1687.45');
    expect(toString(mul(d('99999999999.99'), d('99999.9999')))).toBe('9999999989999000.000001');
  });

});
