import { describe, expect, it } from 'vitest';
import { DUE_SOON_DAYS } from '@portal/annuities/core';
import { PATENT_LIMIT_DAYS, PAYMENT_UNKNOWN_DUE_SOON_DAYS } from '@portal/contracts';

describe('the engine’s constants that the wire and the screens quote', () => {
  it('#25 the "payment not known" window of the legend is the engine’s, and covers the first reminder (30 days before the limit, 7 before the due date)', () => {
    expect(PAYMENT_UNKNOWN_DUE_SOON_DAYS).toBe(DUE_SOON_DAYS);
    expect(DUE_SOON_DAYS).toBe(30 + PATENT_LIMIT_DAYS);
  });
});
