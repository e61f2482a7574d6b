import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxStreamWriter, type OutCell } from '../src/index.ts';

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

describe('XlsxStreamWriter', () => {
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
});
