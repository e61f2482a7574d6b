import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from './support/workbooks.ts';

/*
 * Decision 238 loads each workbook reader with the first file of its format. A reader that cannot load (a chunk missing
 * from an installation) is the installation's fault: it fails the run like any infrastructure error, and never tells the
 * user that a good file is a malformed workbook.
 */
describe('a workbook reader that cannot load', () => {
  afterEach(() => {
    vi.doUnmock('../src/spreadsheet/read-xlsx.ts');
    vi.resetModules();
  });

  it('rejects the read instead of calling the file malformed', async () => {
    const bytes = await xlsxBuffer([{ name: 'Annuités', headers: FRENCH_HEADERS, rows: rowsFrom(0, 3) }]);
    vi.resetModules();
    vi.doMock('../src/spreadsheet/read-xlsx.ts', () => {
      throw new Error('chunk missing');
    });
    const { readSpreadsheet } = await import('../src/spreadsheet/read.ts');
    await expect(readSpreadsheet(bytes, 'a.xlsx', { sheet: () => {}, row: () => {} })).rejects.toThrow(/chunk missing|error when mocking/);
  });

  it('reads the same file once the reader loads', async () => {
    const bytes = await xlsxBuffer([{ name: 'Annuités', headers: FRENCH_HEADERS, rows: rowsFrom(0, 3) }]);
    const { readSpreadsheet } = await import('../src/spreadsheet/read.ts');
    let rows = 0;
    const result = await readSpreadsheet(bytes, 'a.xlsx', { sheet: () => {}, row: () => void rows++ });
    expect(result.ok).toBe(true);
    expect(rows).toBe(3);
  });
});
