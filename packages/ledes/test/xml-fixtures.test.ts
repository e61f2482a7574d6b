import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.ts';

/**
 * Issue 12: LEDES XML 2.1 / 2.2 files written for the reader (no public sample or XSD exists), each
 * checked finding by finding: valid files (default namespace, prefixed elements, BOM and CRLF), wrong
 * totals, missing elements and segments, a DOCTYPE, a wrong version, a file that is not well formed,
 * duplicate item numbers and a bad number. Item lines are the fee and expense items in document order.
 */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/xml/${name}`, import.meta.url));

async function check(name: string) {
  const r = await run(fixture(name), { filename: name });
  return { flat: r.flat, accepted: r.summary.accepted, format: r.summary.format, items: r.summary.linesChecked, encoding: r.summary.encoding };
}

describe('LEDES XML fixtures', () => {
  it('valid 2.1: two invoices, three matters, fees and expenses with tax and an invoice discount', async () => {
    expect(await check('valid-2.1.xml')).toEqual({ flat: [], accepted: true, format: 'LEDES_XML_2.1', items: 5, encoding: 'utf-8' });
  });

  it('valid 2.2 with prefixed elements', async () => {
    expect(await check('valid-2.2-prefixed.xml')).toEqual({ flat: [], accepted: true, format: 'LEDES_XML_2.2', items: 1, encoding: 'utf-8' });
  });

  it('valid 2.2 with a byte-order mark and CRLF line ends', async () => {
    expect(await check('valid-2.2-bom-crlf.xml')).toEqual({ flat: [], accepted: true, format: 'LEDES_XML_2.2', items: 5, encoding: 'utf-8-bom' });
  });

  it('wrong totals: an item base and an item total (on their item lines), then the invoices\' totals', async () => {
    const r = await check('wrong-totals.xml');
    expect(r.accepted).toBe(false);
    expect(r.flat).toEqual(EXPECTED_WRONG_TOTALS);
    // Each carries the declared amount, the computed one and the difference.
    const items = (await run(fixture('wrong-totals.xml'))).result.errors.flatMap((l) => l.items.map((i) => [l.line, i.code_ledes, i.champ, i.found, i.expected, i.difference]));
    expect(items).toEqual([
      [0, 'MTH-001', 'base_amount', '750', '700', '50'],
      [0, 'MTH-001', 'total_amount', '700', '750', '-50'],
      [0, 'XML-005', 'inv_total_fees', '970', '980', '-10'],
      [0, 'XML-005', 'inv_total_net_due', '1150', '1160', '-10'],
      [1, 'MTH-001', 'total_amount', '280', '270', '10'],
      [3, 'XML-005', 'inv_total_net_due', '1100.25', '1120.25', '-20.00'],
    ]);
  });

  it('missing elements: an invoice without its date, an item without its total', async () => {
    const r = await check('missing-elements.xml');
    expect(r.accepted).toBe(false);
    expect(r.flat).toEqual(EXPECTED_MISSING_ELEMENTS);
  });

  it('a file without any matter segment', async () => {
    const r = await check('missing-matter.xml');
    expect(r.accepted).toBe(false);
    expect(r.flat).toEqual(EXPECTED_MISSING_MATTER);
  });

  it('a duplicate file_item_nbr and a number written with a comma', async () => {
    const r = await check('duplicate-and-bad-number.xml');
    expect(r.accepted).toBe(false);
    expect(r.flat).toEqual(EXPECTED_DUPLICATE);
  });

  it('a DOCTYPE stops the reading at once: one finding, no item read, no entity expanded', async () => {
    expect(await check('doctype.xml')).toEqual({ flat: [{ line: 'file', code: 'XML-001', champ: '(file)', severity: 'error' }], accepted: false, format: null, items: 0, encoding: 'utf-8' });
  });

  it('a version the reader does not know', async () => {
    const r = await check('wrong-version.xml');
    expect(r).toMatchObject({ accepted: false, format: null, items: 0 });
    expect(r.flat).toEqual([{ line: 'file', code: 'XML-003', champ: 'ledesxmlebilling1.9', severity: 'error' }]);
  });

  it('a file that is not well formed', async () => {
    const r = await check('not-well-formed.xml');
    expect(r.accepted).toBe(false);
    expect(r.flat.map((f) => f.code)).toContain('XML-002');
  });
});

const E = 'error' as const;
/**
 * Item 10's base is 750 for 2 × 350 (so its total of 700 no longer matches 750 − 0 either); item 11's
 * total is 280 for 300 − 30; invoice 1's fees are then 980 against 970 declared and its net due 1,160
 * against 1,150; invoice 2's net due is 1,100.25 against 1,120.25. An invoice's totals sit on its first
 * item (line 0 for invoice 1, line 3 for invoice 2), as a pipe invoice's do on its first line: two
 * invoices' findings stay two.
 */
const EXPECTED_WRONG_TOTALS = [
  { line: 0, code: 'MTH-001', champ: 'base_amount', severity: E },
  { line: 0, code: 'MTH-001', champ: 'total_amount', severity: E },
  { line: 0, code: 'XML-005', champ: 'inv_total_fees', severity: E },
  { line: 0, code: 'XML-005', champ: 'inv_total_net_due', severity: E },
  { line: 1, code: 'MTH-001', champ: 'total_amount', severity: E },
  { line: 3, code: 'XML-005', champ: 'inv_total_net_due', severity: E },
];
/** The invoice without its date is a file-level finding; the fee without its total is on its item (and its invoice's totals are not compared). */
const EXPECTED_MISSING_ELEMENTS = [
  { line: 'file', code: 'XML-004', champ: 'invoice/inv_date', severity: E },
  { line: 1, code: 'XML-004', champ: 'fee/total_amount', severity: E },
];
/** The items are still read (and their math checked) when their matter segment is missing. */
const EXPECTED_MISSING_MATTER = [{ line: 'file', code: 'XML-004', champ: 'matter', severity: E }];
const EXPECTED_DUPLICATE = [
  { line: 1, code: 'FLD-003', champ: 'units', severity: E },
  { line: 1, code: 'XML-006', champ: 'file_item_nbr', severity: E },
];
