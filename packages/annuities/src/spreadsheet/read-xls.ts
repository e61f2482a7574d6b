import XLSX from '@e965/xlsx';
import { fail, type Result } from '../reasons.ts';
import { splitBiff8 } from './biff-split.ts';
import { CFB } from './cfb.ts';
import type { CellValue } from './columns.ts';
import type { SpreadsheetLimits } from './limits.ts';
import { SheetAssembler, WorkbookFeed, type ReadStats, type RowVisitor } from './rows.ts';

type DenseSheet = XLSX.WorkSheet & { '!data'?: XLSX.CellObject[][] };
// Exported by SheetJS but missing from its type declarations: parses a bare BIFF workbook stream.
const parseWorkbookStream = (XLSX as unknown as { parse_xlscfb: (data: Buffer, options: XLSX.ParsingOptions) => XLSX.WorkBook }).parse_xlscfb;

function options(limits: SpreadsheetLimits): XLSX.ParsingOptions {
  return {
    type: 'buffer',
    dense: true,
    cellDates: false,
    cellFormula: true,
    cellHTML: false,
    cellText: false,
    cellStyles: false,
    bookVBA: false,
    sheetRows: limits.maxRows + 2,
  };
}

interface Piece {
  readonly workbook: XLSX.WorkBook;
  /** Rows of one sheet can arrive in several pieces; the sheet's state carries over. */
  readonly continues: boolean;
}

/**
 * The workbooks to read: a few thousand rows of one sheet each when the BIFF8 stream can be split
 * (bounded memory), else the whole file at once (older BIFF versions).
 */
function* pieces(bytes: Buffer, limits: SpreadsheetLimits): Generator<Piece> {
  const container = CFB.read(bytes, { type: 'buffer' });
  const entry = CFB.find(container, '/Workbook') ?? CFB.find(container, '/Book');
  const raw = entry?.content;
  const content = raw ? (Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array)) : null;
  const split = content ? splitBiff8(content) : { kind: 'unsupported' as const };
  if (split.kind === 'encrypted') throw new Error('File is password-protected');
  if (split.kind === 'unsupported') {
    yield { workbook: XLSX.read(bytes, options(limits)), continues: false };
    return;
  }
  for (const sheet of split.sheets) {
    let continues = false;
    for (const piece of sheet.pieces()) {
      yield { workbook: parseWorkbookStream(piece, options(limits)), continues };
      continues = true;
    }
  }
}

/**
 * Reads an inspected legacy .xls (BIFF, OLE2) with SheetJS (@e965/xlsx, the fixed 0.20 line) in
 * dense mode and feeds every sheet through the visitor. BIFF8 caps a sheet at 65,536 rows, so
 * large lists span several sheets. Only call after `inspectSpreadsheet` accepted the bytes.
 */
export async function readXls(bytes: Buffer, limits: SpreadsheetLimits, visitor: RowVisitor): Promise<Result<ReadStats>> {
  const feed = new WorkbookFeed(visitor, limits.maxRows);
  const books = pieces(bytes, limits);
  let assembler: SheetAssembler | null = null;
  let skipping = false;
  for (;;) {
    let piece: Piece;
    try {
      const next = books.next();
      if (next.done) break;
      piece = next.value;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/password|encrypt/i.test(message)) return fail('encrypted_not_supported');
      return fail('malformed_workbook', message.slice(0, 200));
    }
    const { workbook } = piece;
    const date1904 = workbook.Workbook?.WBProps?.date1904 === true;
    for (const name of workbook.SheetNames) {
      const sheet: DenseSheet | undefined = workbook.Sheets[name];
      const data = sheet?.['!data'];
      if (!piece.continues) {
        if (assembler !== null) feed.endSheet(assembler);
        assembler = new SheetAssembler(name, date1904);
        skipping = false;
        // SheetJS types a sheet's keys as `any`; these two are A1 ranges.
        const full = (sheet?.['!fullref'] ?? sheet?.['!ref']) as string | undefined;
        if (full) {
          const range = XLSX.utils.decode_range(full);
          if (range.e.r - range.s.r + 1 > limits.maxRows + 1) return fail('too_many_rows', `${name}: ${range.e.r + 1} rows`);
          if (range.e.c - range.s.c + 1 > limits.maxColumns) return fail('too_many_columns', name);
        }
      }
      if (!data || assembler === null || skipping) continue;
      for (let r = 0; r < data.length; r++) {
        const source = data[r];
        if (!source) continue;
        const cells: CellValue[] = new Array<CellValue>(source.length);
        for (let c = 0; c < source.length; c++) cells[c] = fromSheetJs(source[c]);
        const step = await feed.dispatch(assembler.accept(r + 1, cells));
        if (step === 'skip_sheet') {
          skipping = true;
          break;
        }
        if (step !== 'next') return step;
      }
    }
  }
  if (assembler !== null) feed.endSheet(assembler);
  return feed.finish('xls');
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
