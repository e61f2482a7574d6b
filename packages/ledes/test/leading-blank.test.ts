import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.ts';

/**
 * Issue 12: blank lines before the format token (seen in real files) shifted the whole parse: the token was
 * read as the header (FMT-003), the header as an invoice line, every line number moved by one. Now they give
 * one warning (FMT-014, with how many), and the file is read from its first non-blank line: the findings,
 * their line numbers and the verdict are the sample's own.
 */
const fixture = (path: string) => readFileSync(new URL(`./fixtures/${path}`, import.meta.url));
const SAMPLE = 'samples/travisbashor-ledes-parser_tests-data-ledes_98B.txt';

describe('blank lines before the format token', () => {
  it.each([
    ['leading-blank/98B-two-blank-lines-crlf.txt', '2', 'CRLF'],
    ['leading-blank/98B-blank-and-spaces-lf.txt', '3', 'LF'],
  ])('%s: one FMT-014 (%s lines), then exactly the sample\'s findings on the same lines', async (path, blank, endings) => {
    const plain = await run(fixture(SAMPLE));
    const shifted = await run(fixture(path));
    expect(shifted.flat.filter((f) => f.code === 'FMT-014')).toEqual([{ line: 'file', code: 'FMT-014', champ: '(file)', severity: 'warning' }]);
    const item = shifted.result.warnings.find((l) => l.line === 'file')!.items.find((i) => i.code_ledes === 'FMT-014');
    expect(item?.found).toBe(blank);
    expect(shifted.flat.filter((f) => f.code !== 'FMT-014')).toEqual(plain.flat);
    expect(shifted.summary).toMatchObject({ accepted: plain.summary.accepted, linesChecked: plain.summary.linesChecked, format: 'LEDES1998B' });
    // The sample itself is LF; the CRLF copy is CRLF throughout.
    expect(shifted.summary.lineEndings).toBe(endings);
    expect(shifted.result.format_ok.map((l) => l.line)).toEqual(plain.result.format_ok.map((l) => l.line));
  });

  it('a file of blank lines only has no format token, no header and no record', async () => {
    const r = await run('\r\n  \r\n\r\n');
    expect(r.codes).toEqual(new Set(['FMT-001', 'FMT-003', 'FMT-008']));
    expect(r.codes.has('FMT-014')).toBe(false);
  });
});
