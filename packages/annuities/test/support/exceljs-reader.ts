/*
 * The .xlsx reader the engine used before decision 240 (exceljs' streaming WorkbookReader), kept as the
 * reference the differential test reads every workbook of its corpus with.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { fail, type Result } from '../../src/reasons.ts';
import type { CellValue } from '../../src/spreadsheet/columns.ts';
import type { Inspection } from '../../src/spreadsheet/guard.ts';
import type { SpreadsheetLimits } from '../../src/spreadsheet/limits.ts';
import { SheetAssembler, WorkbookFeed, type ReadStats, type RowVisitor } from '../../src/spreadsheet/rows.ts';

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

/** Parts exceljs must have read before any worksheet, in this order (its reader takes them as they come). */
const FIRST_PARTS = ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];

/**
 * The workbook's parts as exceljs' streaming reader should meet them: relations, workbook and shared
 * strings first, then the rest in file order, then the central directory (which that reader does not
 * read). Excel and most writers put the worksheets before the shared strings; exceljs then spools
 * each worksheet to a temporary file and reads it back after the archive, and in the engine's worker
 * thread that path sometimes gave no rows at all, so a valid workbook was refused as
 * `headers_not_found`. The parts are whole local entries (header, data, descriptor), moved as they are.
 */
function reorderedForStreaming(bytes: Buffer, inspection: Pick<Inspection, 'parts' | 'centralDirectoryAt'>): Buffer {
  const rank = (name: string) => {
    const i = FIRST_PARTS.indexOf(name);
    return i === -1 ? FIRST_PARTS.length : i;
  };
  const ordered = inspection.parts.map((part, index) => ({ part, index })).sort((a, b) => rank(a.part.name) - rank(b.part.name) || a.index - b.index);
  return Buffer.concat([...ordered.map(({ part }) => bytes.subarray(part.start, part.end)), bytes.subarray(inspection.centralDirectoryAt)]);
}

/**
 * Streams every worksheet of an inspected xlsx through the visitor with exceljs' WorkbookReader.
 * Only call after `inspectSpreadsheet` accepted the bytes.
 */
export async function readXlsxWithExcelJs(bytes: Buffer, inspection: Inspection, limits: SpreadsheetLimits, visitor: RowVisitor): Promise<Result<ReadStats>> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([reorderedForStreaming(bytes, inspection)]), {
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
