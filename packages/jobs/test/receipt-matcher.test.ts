import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookupKeys, matchReceipt, type MatchCandidate } from '../src/receipts/matcher.ts';
import { referencesFromText } from '../src/receipts/references.ts';

/*
 * Decision 192: the receipts matcher over a corpus of receipts written by hand in the formats of the INPI, the
 * DPMA, the EPO and the UKIPO (fixtures/receipts/*.txt), each with its expected result (expected.json).
 */

const DIR = path.join(import.meta.dirname, 'fixtures/receipts');
const expected = JSON.parse(readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, { confidence: string; matches: Array<{ patentKey: string; year: number | null }> }>;

const c = (id: string, patentKey: string, values: Partial<MatchCandidate>): MatchCandidate => ({
  id,
  patentKey,
  referenceClient: null,
  referenceCabinet: null,
  numeroDepot: null,
  numeroPublication: null,
  pays: 'EP',
  quantieme: null,
  ...values,
});

/** The portfolio the receipts are matched against (the job gives the matcher a few candidates; here all of them). */
export const PORTFOLIO: MatchCandidate[] = [
  c('r100', 'B-100', { pays: 'EP', numeroPublication: 'EP3456789', numeroDepot: 'EP16839078', referenceClient: 'ACME-0012', referenceCabinet: 'CAB-7781', quantieme: 7 }),
  c('r101', 'B-101', { pays: 'FR', numeroDepot: 'FR1552345', numeroPublication: 'FR3034567', referenceClient: 'ACME-0013', referenceCabinet: 'CAB-7782', quantieme: 9 }),
  c('r102', 'B-102', { pays: 'DE', numeroDepot: 'DE102015004488', referenceClient: 'BRK-2231', quantieme: 5 }),
  c('r103', 'B-103', { pays: 'GB', numeroDepot: 'GB1804567', numeroPublication: 'GB2556789', referenceClient: 'ZEN/44/GB', quantieme: 6 }),
  c('r105', 'B-105', { pays: 'FR', numeroPublication: 'EP3111222', referenceClient: 'MULTI-01FR', quantieme: 6 }),
  c('r106', 'B-106', { pays: 'DE', numeroPublication: 'EP3111222', referenceClient: 'MULTI-01DE', quantieme: 6 }),
  c('r107a', 'B-107', { pays: 'EP', numeroPublication: 'EP2888111', quantieme: 11 }),
  c('r107b', 'B-107', { pays: 'EP', numeroPublication: 'EP2888111', quantieme: 12 }),
  c('r108', 'B-108', { pays: 'FR', referenceClient: 'DUP-0001', numeroDepot: 'FR1700001', quantieme: 4 }),
  c('r109', 'B-109', { pays: 'FR', referenceClient: 'DUP-0001', numeroDepot: 'FR1700002', quantieme: 4 }),
  c('r110', 'B-110', { pays: 'GB', numeroPublication: 'GB2600001', referenceClient: 'UK-5501', quantieme: 4 }),
  c('r111', 'B-111', { pays: 'FR', numeroDepot: 'FR2001234', referenceClient: 'INV-2020-77', quantieme: 3 }),
  c('r112', 'B-112', { pays: 'EP', numeroPublication: 'EP1234567', numeroDepot: 'EP05012345', referenceClient: 'OLD-99', quantieme: 15 }),
  c('r113', 'B-113', { pays: 'DE', numeroDepot: 'DE102019123456', referenceClient: 'DPMA-TEST-1', quantieme: 8 }),
  c('r114', 'B-114', { pays: 'EP', numeroPublication: 'EP2999999', referenceCabinet: 'NR-5000', quantieme: 10 }),
];

const files = readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort();

describe('receipts matcher corpus (decision 192)', () => {
  it('holds at least 30 receipts of the four offices, each with its expected result, sure, ambiguous and missing ones', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const office of ['inpi', 'dpma', 'epo', 'ukipo']) expect(files.filter((f) => f.startsWith(`${office}-`)).length, office).toBeGreaterThanOrEqual(6);
    expect(Object.keys(expected).sort()).toEqual(files.map((f) => f.replace(/\.txt$/, '')));
    const verdicts = Object.values(expected).map((e) => e.confidence);
    for (const v of ['sure', 'ambiguous', 'none']) expect(verdicts).toContain(v);
    expect(Object.values(expected).some((e) => e.confidence === 'sure' && e.matches.length > 1)).toBe(true);
  });

  for (const file of files) {
    const name = file.replace(/\.txt$/, '');
    it(name, () => {
      const text = readFileSync(path.join(DIR, file), 'utf8');
      const refs = referencesFromText(text);
      const result = matchReceipt(text, PORTFOLIO, { referenceClient: refs.referenceClient, referenceInpi: refs.referenceInpi });
      const want = expected[name]!;
      expect({ confidence: result.confidence, matches: result.matches.map((m) => ({ patentKey: m.patentKey, year: m.year })) }).toEqual(want);
      // PDF text extraction collapses the spaces between a table's columns: the same verdict.
      const collapsed = matchReceipt(text.replace(/[ \t]+/g, ' '), PORTFOLIO, { referenceClient: refs.referenceClient, referenceInpi: refs.referenceInpi });
      expect({ confidence: collapsed.confidence, matches: collapsed.matches.map((m) => ({ patentKey: m.patentKey, year: m.year })) }).toEqual(want);
      // The job looks candidates up by these keys: every expected patent is reachable by one of them.
      const keys = lookupKeys(text);
      for (const m of want.matches) {
        const candidate = PORTFOLIO.find((p) => p.patentKey === m.patentKey)!;
        const numbers = [candidate.numeroDepot, candidate.numeroPublication].filter((n): n is string => n !== null).map((n) => n.replace(/\D/g, '').replace(/^0+/, ''));
        const refsOf = [candidate.referenceClient, candidate.referenceCabinet].filter((r): r is string => r !== null).map((r) => r.toUpperCase());
        const reachable = numbers.some((n) => keys.digits.some((d) => n.includes(d) || d.includes(n))) || refsOf.some((r) => keys.tokens.includes(r));
        expect(reachable, `${m.patentKey} reachable from ${JSON.stringify(keys)}`).toBe(true);
      }
    });
  }

  it('carries the amount and currency printed beside the patent', () => {
    const text = readFileSync(path.join(DIR, 'dpma-03-two-patents.txt'), 'utf8');
    const result = matchReceipt(text, PORTFOLIO);
    expect(result.matches.map((m) => [m.patentKey, m.amount, m.currency])).toEqual([
      ['B-102', '150.00', 'EUR'],
      ['B-113', '290.00', 'EUR'],
    ]);
    expect(matchReceipt(readFileSync(path.join(DIR, 'epo-01-renewal-fee-publication.txt'), 'utf8'), PORTFOLIO).matches[0]).toMatchObject({ amount: '1155.00', currency: 'EUR', evidence: ['publication_number', 'client_reference'] });
  });

  it('"EP 3 456 789 B1", "EP3456789" and "3456789" meet; another country\'s prefix or a longer number does not', () => {
    for (const written of ['EP 3 456 789 B1', 'EP3456789', '3456789', 'EP 3456789 A1', 'EP-3.456.789']) {
      expect(matchReceipt(`Renewal fee 7th year ${written}`, PORTFOLIO).matches.map((m) => m.patentKey), written).toEqual(['B-100']);
    }
    for (const written of ['FR3456789', '13456789', '34567890', 'ACME3456789', '3456789,00']) {
      expect(matchReceipt(`Renewal fee 7th year ${written}`, PORTFOLIO).confidence, written).toBe('none');
    }
  });
});
