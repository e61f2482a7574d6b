import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { neutralise, XlsxStreamWriter, type OutCell } from '../src/index.ts';

async function write(rows: readonly (readonly OutCell[])[], sharedStrings: number): Promise<{ bytes: Buffer; book: ExcelJS.Workbook }> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const xlsx = new XlsxStreamWriter(out, [], { sharedStrings });
  await xlsx.startSheet('Données & co', { freezeHeader: false });
  // The synchronous path an engine's sink uses: rows appended, flushed when asked.
  for (const row of rows) if (xlsx.addRow(row)) await xlsx.flush();
  await xlsx.finish();
  out.end();
  const bytes = Buffer.concat(parts);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return { bytes, book };
}

const values = (row: ExcelJS.Row): unknown[] => Array.from((row.values as unknown[]).slice(1), (v) => v ?? null);

/** The package's bytes, rows given by `add` (the synchronous path, flushed when asked). */
async function bytesOf(sharedStrings: number, add: (xlsx: XlsxStreamWriter) => boolean[]): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  const xlsx = new XlsxStreamWriter(out, [], { sharedStrings });
  await xlsx.startSheet('Lines');
  for (const flush of add(xlsx)) if (flush) await xlsx.flush();
  await xlsx.finish();
  out.end();
  return Buffer.concat(parts);
}

describe('XlsxStreamWriter', () => {
  it('#8 fifty small sheets open at once hold kilobytes each, not a 2 MiB buffer each', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const writers: XlsxStreamWriter[] = [];
    for (let i = 0; i < 50; i++) {
      const xlsx = new XlsxStreamWriter(new PassThrough(), [], { sharedStrings: 100 });
      await xlsx.startSheet('Lines');
      for (let r = 0; r < 20; r++) xlsx.addRow([r, 'OK', null, '20250210', `INV-${r}`]);
      writers.push(xlsx);
    }
    const held = process.memoryUsage().arrayBuffers - before;
    expect(writers).toHaveLength(50);
    // 50 × 2 MiB was 100 MiB (and a garbage collector's pause of a second and more in a busy thread).
    expect(held).toBeLessThan(20 * 1024 * 1024);
  });

  it('#8 a row given as delimited text is byte for byte the row of its pieces: empty pieces, formula triggers, repeats, the inline overflow', async () => {
    // Pieces that look alike once neutralised ("=x" and "'=x"), repeats down a column, a column that
    // changes every row, XML specials, non-ASCII, a trailing separator; 40 shared texts, then inline.
    const pool = ['=x', "'=x", '=x', 'same', 'same', '', '+33 1', '@a', '-5', 'a&b<c>', 'é ü', 'emoji \u{1F600}', "'", ' ', '\t', 'Doe, Jane'];
    const texts: string[] = [];
    for (let i = 0; i < 400; i++) {
      const pieces = [pool[i % pool.length]!, pool[Math.floor(i / 3) % pool.length]!, `n${i % 60}`, i % 4 === 0 ? '' : 'same', pool[(i * 7) % pool.length]!];
      texts.push(pieces.join('|') + (i % 9 === 0 ? '|' : ''));
    }
    const lead = (i: number): OutCell[] => [i + 1, i % 2 === 0 ? 'OK' : '=status', null];
    // Every 10th row is a plain row whose texts are not neutralised: a delimited piece equal to one of
    // them is still neutralised in its own cell.
    const plain = (i: number): OutCell[] => [...lead(i), '=x', '=x', '@a', '=x', '=x'];
    const asPieces = await bytesOf(40, (xlsx) =>
      texts.map((text, i) => xlsx.addRow(i % 10 === 5 ? plain(i) : [...lead(i), ...text.split('|').map((p) => (p === '' ? null : neutralise(p)))])),
    );
    const counts: number[] = [];
    const asText = await bytesOf(40, (xlsx) =>
      texts.map((text, i) => {
        if (i % 10 === 5) return xlsx.addRow(plain(i));
        counts.push(xlsx.addDelimitedRow(lead(i), text, '|'));
        return xlsx.wantsFlush;
      }),
    );
    expect(asText.equals(asPieces)).toBe(true);
    expect(counts).toEqual(texts.filter((_t, i) => i % 10 !== 5).map((text) => text.split('|').length));
  });

  it('shared strings, past their bound inline strings, numbers, booleans, day serials and empty cells all read back in exceljs', async () => {
    const rows: OutCell[][] = [];
    for (let i = 0; i < 3000; i++) rows.push([i, `repeated ${i % 3}`, `unique <${i}> & "q"`, null, i % 2 === 0, { day: 20_000 }, ' edge ']);
    const { book } = await write(rows, 100);
    const sheet = book.getWorksheet('Données & co')!;
    expect(sheet.rowCount).toBe(3000);
    for (const i of [0, 1, 99, 100, 2999]) {
      const row = values(sheet.getRow(i + 1));
      expect(row.slice(0, 5)).toEqual([i, `repeated ${i % 3}`, `unique <${i}> & "q"`, null, i % 2 === 0]);
      // A day without a date style is its Excel serial (day 0 = 1970-01-01 = serial 25569).
      expect(row[5]).toBe(45_569);
      expect(row[6]).toBe(' edge ');
    }
  });

  it('without shared strings every text is inline, as the annuities export expects', async () => {
    const { bytes } = await write([['a', 'a']], 0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(values(book.getWorksheet(1)!.getRow(1))).toEqual(['a', 'a']);
    expect(bytes.includes(Buffer.from('sharedStrings.xml'))).toBe(false);
  });

  it('runs of the same text in a column, before and past the shared-string bound, read back cell for cell', async () => {
    // Row-to-row repeats take the per-column shortcut; a text seen first inline (table full) must
    // stay inline, and one in the table keep its index, in whatever column it comes back.
    const rows: OutCell[][] = [];
    for (let i = 0; i < 600; i++) {
      const run = Math.floor(i / 7);
      rows.push([`inv ${run}`, `inv ${Math.floor((i + 3) / 7)}`, i % 5 === 0 ? null : `same`, `n${i}`, run % 2 === 0 ? 'a&b' : '<x>', i]);
    }
    const { book } = await write(rows, 50);
    const sheet = book.getWorksheet('Données & co')!;
    expect(sheet.rowCount).toBe(600);
    for (let i = 0; i < 600; i++) expect(values(sheet.getRow(i + 1)), `row ${i + 1}`).toEqual(rows[i]!.map((v) => v ?? null));
  });

  it('numbers of every kind and styled cells (empty ones included) read back with their values and fills', async () => {
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on('data', (b: Buffer) => parts.push(b));
    const xlsx = new XlsxStreamWriter(out, ['FFFF0000'], { sharedStrings: 10 });
    await xlsx.startSheet('S', { freezeHeader: false });
    const numbers = [0, 7, 2 ** 31, -3, -1.5, 0.1, 1e21, 123456789.125];
    xlsx.addRow(numbers);
    const red = XlsxStreamWriter.styleOf(0, false);
    xlsx.addRow(['a', null, 5, Number.NaN, true], [red, red, 0, red, red]);
    await xlsx.finish();
    out.end();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(parts) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('S')!;
    expect(values(sheet.getRow(1))).toEqual(numbers);
    const row = sheet.getRow(2);
    expect(values(row)).toEqual(['a', null, 5, null, true]);
    for (const col of [1, 2, 4, 5]) expect((row.getCell(col).fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb, `column ${col}`).toBe('FFFF0000');
    expect(row.getCell(3).fill).toBeUndefined();
  });
});
