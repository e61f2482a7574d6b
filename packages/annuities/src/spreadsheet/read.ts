import { fail, type Result } from '../reasons.ts';
import { inspectSpreadsheet } from './guard.ts';
import { DEFAULT_LIMITS, type SpreadsheetLimits } from './limits.ts';
import type { ReadStats, RowVisitor, SheetInfo, SheetRow } from './rows.ts';

/**
 * Inspect, then stream every row of an uploaded .xlsx or .xls through `visitor`. Each format's reader (exceljs, SheetJS)
 * is loaded with the first file of that format: an engine thread that reads .xlsx only does not hold SheetJS.
 */
export async function readSpreadsheet(bytes: Buffer, fileName: string, visitor: RowVisitor, limits: SpreadsheetLimits = DEFAULT_LIMITS): Promise<Result<ReadStats>> {
  const inspection = await inspectSpreadsheet(bytes, fileName, limits);
  if (!inspection.ok) return inspection;
  const { value } = inspection;
  // Loaded outside the parse's try: a reader that cannot load is the installation's fault, not the file's.
  const read =
    value.format === 'xlsx'
      ? await import('./read-xlsx.ts').then(({ readXlsx }) => () => readXlsx(bytes, value, limits, visitor))
      : await import('./read-xls.ts').then(({ readXls }) => () => readXls(bytes, limits, visitor));
  try {
    if (value.expectedRows !== null) await visitor.expected?.(value.expectedRows);
    return await read();
  } catch (error) {
    // Visitor failures are the caller's; everything else in a parser is a malformed file.
    return fail('malformed_workbook', error instanceof Error ? error.message.slice(0, 200) : String(error));
  }
}

/** Convenience for small files and tests: all rows in memory. */
export async function readAllRows(
  bytes: Buffer,
  fileName: string,
  limits: SpreadsheetLimits = DEFAULT_LIMITS,
): Promise<Result<{ sheets: SheetInfo[]; rows: SheetRow[]; stats: ReadStats }>> {
  const sheets: SheetInfo[] = [];
  const rows: SheetRow[] = [];
  const result = await readSpreadsheet(bytes, fileName, { sheet: (s) => void sheets.push(s), row: (r) => void rows.push(r) }, limits);
  return result.ok ? { ok: true, value: { sheets, rows, stats: result.value } } : result;
}
