import { describe, expect, it } from 'vitest';
import { RULES } from '../src/rules/catalogue.ts';
// The proof-reading rules of the locale files (packages/i18n), applied to the findings' labels.
import { englishFaults, frenchFaults } from '../../i18n/test/typography.ts';

describe('rule catalogue labels', () => {
  it('the French labels follow French typography and the English labels hold no French', () => {
    const faults = RULES.flatMap((rule) => [
      ...frenchFaults(rule.fr).map((f) => `${rule.code} fr: ${f} in ${JSON.stringify(rule.fr)}`),
      ...englishFaults(rule.en).map((f) => `${rule.code} en: ${f} in ${JSON.stringify(rule.en)}`),
    ]);
    expect(faults).toEqual([]);
  });
});
