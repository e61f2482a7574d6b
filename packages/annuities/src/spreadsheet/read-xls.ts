import XLSX from '@e965/xlsx';
import { fail, ok, type Result } from '../reasons.ts';
import type { CellValue } from './columns.ts';
import type { SpreadsheetLimits } from './limits.ts';
import { SheetAssembler, type ReadStats, type RowVisitor } from './rows.ts';

/**
 * Reads an inspected legacy .xls (BIFF, OLE2) with SheetJS (@e965/xlsx, the fixed 0.20 line) in
 * dense mode, then feeds every sheet through the visitor. BIFF8 caps a sheet at 65,536 rows, so
 * large lists span several sheets. Only call after `inspectSpreadsheet` accepted the bytes.
 */
export async function readXls(bytes: Buffer, limits: SpreadsheetLimits, visitor: RowVisitor): Promise<Result<ReadStats>> {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: 'buffer',
      dense: true,
      cellDates: false,
      cellFormula: true,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      bookVBA: false,
      sheetRows: limits.maxRows + 2,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password|encrypt/i.test(message)) return fail('encrypted_not_supported');
    return fail('malformed_workbook', message.slice(0, 200));
  }
  const date1904 = workbook.Workbook?.WBProps?.date1904 === true;
  let rows = 0;
  let sheets = 0;
  const skipped: string[] = [];
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name] as (XLSX.WorkSheet & { '!data'?: XLSX.CellObject[][] }) | undefined;
    const data = sheet?.['!data'];
    if (!sheet || !data) {
      skipped.push(name);
      continue;
    }
    const full = sheet['!fullref'] ?? sheet['!ref'];
    if (full) {
      const range = XLSX.utils.decode_range(full);
      if (range.e.r - range.s.r + 1 > limits.maxRows + 1) return fail('too_many_rows', `${name}: ${range.e.r + 1} rows`);
      if (range.e.c - range.s.c + 1 > limits.maxColumns) return fail('too_many_columns', name);
    }
    const assembler = new SheetAssembler(name, date1904);
    for (let r = 0; r < data.length; r++) {
      const source = data[r];
      if (!source) continue;
      const cells: CellValue[] = new Array<CellValue>(source.length);
      for (let c = 0; c < source.length; c++) cells[c] = fromSheetJs(source[c]);
      const outcome = assembler.accept(r + 1, cells);
      if (outcome === null) continue;
      if (outcome === 'no_header') break;
      if ('sheet' in outcome) {
        sheets++;
        await visitor.sheet(outcome.sheet);
      } else {
        rows++;
        if (rows > limits.maxRows) return fail('too_many_rows', `more than ${limits.maxRows} rows`);
        await visitor.row(outcome.row);
      }
    }
    if (!assembler.headerFound) skipped.push(name);
  }
  if (sheets === 0) return fail('headers_not_found');
  return ok({ format: 'xls', sheets, rows, skippedSheets: skipped });
}

function fromSheetJs(cell: XLSX.CellObject | undefined): CellValue {
  if (!cell) return null;
  if (typeof cell.f === 'string' && cell.f !== '') return `=${cell.f}`;
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : null;
    case 'n':
      return typeof cell.v === 'number' ? cell.v : null;
    case 'b':
      return typeof cell.v === 'boolean' ? cell.v : null;
    case 'd':
      return cell.v instanceof Date ? cell.v : null;
    default:
      return null;
  }
}
