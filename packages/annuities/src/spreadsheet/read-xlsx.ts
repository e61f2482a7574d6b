import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { fail, type Result } from '../reasons.ts';
import type { CellValue } from './columns.ts';
import type { Inspection } from './guard.ts';
import type { SpreadsheetLimits } from './limits.ts';
import { SheetAssembler, WorkbookFeed, type ReadStats, type RowVisitor } from './rows.ts';

/** exceljs cell values to plain cells. Formulas keep their text so they can never be re-emitted live (UP-18). */
function fromExcelJs(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text?: unknown }>; formula?: unknown; sharedFormula?: unknown; text?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => (typeof r.text === 'string' ? r.text : '')).join('');
    if (typeof v.formula === 'string') return `=${v.formula}`;
    if (typeof v.sharedFormula === 'string') return `=${v.sharedFormula}`;
    if (typeof v.text === 'string') return v.text;
  }
  return null;
}

/**
 * Streams every worksheet of an inspected xlsx through the visitor with exceljs' WorkbookReader.
 * Only call after `inspectSpreadsheet` accepted the bytes.
 */
export async function readXlsx(bytes: Buffer, inspection: Inspection, limits: SpreadsheetLimits, visitor: RowVisitor): Promise<Result<ReadStats>> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const feed = new WorkbookFeed(visitor, limits.maxRows);
  try {
    for await (const worksheet of reader) {
      const ws = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name?: string; id?: number };
      const name = ws.name ?? `Sheet${ws.id ?? feed.sheetCount + 1}`;
      const assembler = new SheetAssembler(name, inspection.date1904);
      let skip = false;
      // The sheet stream must be drained even when skipped, so the reader can move on.
      for await (const row of ws) {
        if (skip) continue;
        const values = row.values as unknown[];
        if (values.length - 1 > limits.maxColumns) return fail('too_many_columns', `${name} row ${row.number}`);
        const cells: CellValue[] = new Array<CellValue>(Math.max(0, values.length - 1));
        for (let i = 1; i < values.length; i++) cells[i - 1] = fromExcelJs(values[i]);
        const step = await feed.dispatch(assembler.accept(row.number, cells));
        if (step === 'skip_sheet') skip = true;
        else if (step !== 'next') return step;
      }
      feed.endSheet(assembler);
    }
  } catch (error) {
    return fail('malformed_workbook', error instanceof Error ? error.message.slice(0, 200) : String(error));
  }
  return feed.finish('xlsx');
}
