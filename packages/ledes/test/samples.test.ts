import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLedes } from '../src/index.ts';
import { CLOCK, profileFor } from './helpers.ts';

const SAMPLES = new URL('./fixtures/samples/', import.meta.url);

async function sample(name: string) {
  const path = fileURLToPath(new URL(name, SAMPLES));
  const outcome = await checkLedes(createReadStream(path), { filename: name, profile: profileFor('patent'), clock: CLOCK });
  const codesAt = (list: typeof outcome.result.errors, line: number | string) =>
    list.find((l) => l.line === line)?.items.map((i) => `${i.code_ledes}:${i.champ}`) ?? [];
  const allCodes = (list: typeof outcome.result.errors) => list.flatMap((l) => l.items.map((i) => i.code_ledes));
  return { ...outcome, codesAt, allCodes };
}

describe('public samples, type patent, first seeded office (PAR)', () => {
  it('travisbashor 98B: accepted, FMT-006 warning on data line 0, no arithmetic finding', async () => {
    const s = await sample('travisbashor-ledes-parser_tests-data-ledes_98B.txt');
    expect(s.summary.accepted).toBe(true);
    expect(s.result.errors).toEqual([]);
    expect(s.codesAt(s.result.warnings, 0)).toContain('FMT-006:LINE_ITEM_DESCRIPTION');
    expect([...s.allCodes(s.result.warnings)].filter((c) => c.startsWith('MTH'))).toEqual([]);
    expect(s.result.format_ok.map((l) => l.line)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.summary).toMatchObject({ format: 'LEDES1998B', encoding: 'utf-8', lineEndings: 'LF', linesChecked: 6 });
    expect(s.summary.invoices).toEqual([
      { invoice_number: '96542', client_id: '00711', total: '1684.45' },
      { invoice_number: '96543', client_id: '00711', total: '1250' },
    ]);
  });

  it('travisbashor 98BI: refused, MTH-004 on taxed lines, MTH-005/MTH-006 on 96542 only', async () => {
    const s = await sample('travisbashor-ledes-parser_tests-data-ledes_98BI.txt');
    expect(s.summary.accepted).toBe(false);
    expect(s.summary.format).toBe('LEDES98BI_V2');
    for (const line of [0, 1, 2, 5]) expect(s.codesAt(s.result.errors, line)).toContain('MTH-004:LINE_ITEM_TAX_TOTAL');
    for (const line of [3, 4]) expect(s.codesAt(s.result.errors, line)).not.toContain('MTH-004:LINE_ITEM_TAX_TOTAL');
    // Invoice-level findings sit on the invoice's first data line: 0 for 96542, 5 for 96543.
    expect(s.codesAt(s.result.errors, 0)).toEqual(expect.arrayContaining(['MTH-005:INVOICE_TAX_TOTAL', 'MTH-006:INVOICE_NET_TOTAL']));
    expect(s.codesAt(s.result.errors, 5)).not.toContain('MTH-006:INVOICE_NET_TOTAL');
    expect(s.codesAt(s.result.errors, 5)).not.toContain('MTH-005:INVOICE_TAX_TOTAL');
    expect(s.allCodes(s.result.errors)).not.toContain('MTH-001');
    expect(s.allCodes(s.result.errors)).not.toContain('MTH-002');
  });

  it('mikewagner fixture: refused, CON-001 on INVOICE_TOTAL of data line 5, PT/AS only warnings', async () => {
    const s = await sample('mikewagner-ledes_parser_spec-fixtures-ledes.txt');
    expect(s.summary.accepted).toBe(false);
    expect(s.codesAt(s.result.errors, 5)).toContain('CON-001:INVOICE_TOTAL');
    const tk = s.result.warnings.filter((l) => l.items.some((i) => i.code_ledes === 'TK-003')).map((l) => l.line);
    expect(tk).toEqual([0, 1, 2]);
    expect(s.allCodes(s.result.errors)).not.toContain('TK-003');
    expect(s.summary).toMatchObject({ lineEndings: 'CRLF', trailingBlankLines: 1, linesChecked: 6 });
  });

  it('invalid headers: refused with FMT-003', async () => {
    const s = await sample('mikewagner-ledes_parser_spec-fixtures-ledes_with_invalid_headers.txt');
    expect(s.summary.accepted).toBe(false);
    expect(s.codesAt(s.result.errors, 'header')).toEqual(['FMT-003:(header)']);
  });

  it('invalid format token: refused with FMT-001', async () => {
    const s = await sample('mikewagner-ledes_parser_spec-fixtures-ledes_with_invalid_format.txt');
    expect(s.summary.accepted).toBe(false);
    expect(s.codesAt(s.result.errors, 'file')).toEqual(['FMT-001:(file)']);
  });

  it('gives identical results on a re-run (deterministic ids, caller clock)', async () => {
    const a = await sample('mikewagner-ledes_parser_spec-fixtures-ledes.txt');
    const b = await sample('mikewagner-ledes_parser_spec-fixtures-ledes.txt');
    expect(b.result).toEqual(a.result);
    const item = a.result.errors.find((l) => l.line === 5)!.items[0]!;
    expect(item).toEqual({
      _id: '5:CON-001:INVOICE_TOTAL',
      code_ledes: 'CON-001',
      created: '2025-06-01T08:00:00.000Z',
      libelle_en: "Invoice-level value differs from the invoice's first line",
      libelle_fr: 'Valeur d’en-tête différente de la 1re ligne de la facture',
      champ: 'INVOICE_TOTAL',
      // Issue 12: this line's total, and the invoice's first line's, which it should repeat.
      found: '1250',
      expected: '2934.45',
    });
  });
});
