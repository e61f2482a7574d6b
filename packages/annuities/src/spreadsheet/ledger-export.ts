import type { Writable } from 'node:stream';
import yauzl from 'yauzl';
import { DEFLATE_LEVEL, XlsxStreamWriter, ZipWriter } from '@portal/xlsx';
import type { Colour } from '../types.ts';
import { COMPUTED_COLUMNS, EXPORT_COLOURS, LEDGER_REASONS } from './write-export.ts';

/*
 * The annotated export as one reader's rows show it (decision 234). The export is written once per file version by
 * the check (write-export.ts), coloured by the dates; the screens colour a row whose next annuity the reader's
 * payment ledger holds paid (`ok`) or lapsed (`orange`) by the ledger (decision 214, 233). At download, the stored
 * workbook is streamed through here: each moved row's cells take the ledger's fill, its "Couleur / Colour" cell the
 * ledger's colour, its "Motifs / Reasons" cell the ledger's code (and no longer "payment not known" once paid).
 * Nothing else changes, byte for byte: every other entry and every other row is copied as it was (re-compressed).
 *
 * The stored workbook is ours (ExportWriter): one header row per data sheet, then one row per stored patent in
 * row-index order across the sheets, inline texts, every data cell styled `XlsxStreamWriter.styleOf(fill, date)`.
 */

/** What the ledger says of a moved row's next annuity. */
export type LedgerMove = 'paid' | 'lapsed';

export interface LedgerExportResult {
  /** Data rows read. */
  readonly rows: number;
  /** Rows given the ledger's colour. */
  readonly recoloured: number;
}

const COLOUR_HEADER = COMPUTED_COLUMNS[COMPUTED_COLUMNS.length - 2];
const REASONS_HEADER = COMPUTED_COLUMNS[COMPUTED_COLUMNS.length - 1];
const LEDGER_COLOUR: Readonly<Record<LedgerMove, Colour>> = { paid: 'ok', lapsed: 'orange' };
const FIRST_DATA_STYLE = XlsxStreamWriter.styleOf(0, false);
const LAST_DATA_STYLE = XlsxStreamWriter.styleOf(EXPORT_COLOURS.length - 1, true);
const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
/** A cell's opening: its column, its row, its style. Texts are escaped, so `<c r="` only ever opens a cell. */
const CELL_START = /<c r="([A-Z]+)\d+"(?: s="(\d+)")?/g;

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}

/** The text of a cell's inline string (`<is><t …>text</t></is>`), unescaped enough to compare with ASCII headers. */
function inlineText(cell: string): string | null {
  const match = /<t(?: [^>]*)?>([^<]*)<\/t>/.exec(cell);
  return match ? match[1]! : null;
}

/** A row's cells, each as [column, start, end] offsets in `row` (latin1 text). */
function cellsOf(row: string): Array<{ column: string; start: number; end: number; style: number }> {
  const cells: Array<{ column: string; start: number; end: number; style: number }> = [];
  CELL_START.lastIndex = 0;
  for (let match = CELL_START.exec(row); match; match = CELL_START.exec(row)) {
    const start = match.index;
    const after = start + match[0].length;
    // Either `/>` (an empty styled cell) or `…</c>`.
    const selfClosing = row.startsWith('/>', after);
    const end = selfClosing ? after + 2 : row.indexOf('</c>', after) + 4;
    cells.push({ column: match[1]!, start, end, style: match[2] === undefined ? 0 : Number(match[2]) });
    CELL_START.lastIndex = end;
  }
  return cells;
}

const textCell = (ref: string, style: number, text: string) => `<c r="${ref}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;

/** The style of the same cell filled with `colour`: data styles are `styleOf(fill, date)`, the date bit kept. */
function recolouredStyle(style: number, fill: number): number {
  if (style < FIRST_DATA_STYLE || style > LAST_DATA_STYLE) return style;
  return XlsxStreamWriter.styleOf(fill, ((style - FIRST_DATA_STYLE) & 1) === 1);
}

interface SheetColumns {
  readonly colour: string;
  readonly reasons: string;
}

/** The header row's Colour and Reasons columns: the last "Couleur / Colour" followed by "Motifs / Reasons". */
function columnsOf(header: string): SheetColumns | null {
  const cells = cellsOf(header);
  for (let i = cells.length - 2; i >= 0; i--) {
    const here = inlineText(header.slice(cells[i]!.start, cells[i]!.end));
    const next = inlineText(header.slice(cells[i + 1]!.start, cells[i + 1]!.end));
    if (here === COLOUR_HEADER && next === REASONS_HEADER) return { colour: cells[i]!.column, reasons: cells[i + 1]!.column };
  }
  return null;
}

/** One data row with the ledger's colour, colour name and reason; `row` runs from `<row` to `</row>`. */
function recolourRow(row: string, columns: SheetColumns, move: LedgerMove): string {
  const colour = LEDGER_COLOUR[move];
  const fill = EXPORT_COLOURS.indexOf(colour);
  const number = /^<row r="(\d+)"/.exec(row)?.[1];
  if (number === undefined) return row;
  let out = '';
  let at = 0;
  let reasonsSeen = false;
  let lastStyle = XlsxStreamWriter.styleOf(fill, false);
  const cells = cellsOf(row);
  for (const cell of cells) {
    const style = recolouredStyle(cell.style, fill);
    lastStyle = style;
    const original = row.slice(cell.start, cell.end);
    let replaced: string;
    if (cell.column === columns.colour) replaced = textCell(`${cell.column}${number}`, style, colour);
    else if (cell.column === columns.reasons) {
      reasonsSeen = true;
      const codes = (inlineText(original) ?? '').split(', ').filter((code) => code !== '' && !(move === 'paid' && code === 'payment_unknown'));
      replaced = textCell(`${cell.column}${number}`, style, [...codes, LEDGER_REASONS[move]].join(', '));
    } else replaced = style === cell.style ? original : original.replace(/ s="\d+"/, ` s="${style}"`);
    out += row.slice(at, cell.start) + replaced;
    at = cell.end;
  }
  // An empty Reasons cell without a style is left out by the writer: the ledger's code goes last in the row.
  const closing = row.lastIndexOf('</row>');
  out += row.slice(at, closing);
  if (!reasonsSeen) out += textCell(`${columns.reasons}${number}`, lastStyle, LEDGER_REASONS[move]);
  return out + row.slice(closing);
}

/**
 * Streams the stored export at `path` to `out` with the rows `moveOf` names (by row index, 0 the first data row of
 * the first sheet) in the ledger's colours. The caller ends `out`.
 */
export async function writeLedgerExport(path: string, moveOf: (rowIndex: number) => LedgerMove | undefined, out: Writable): Promise<LedgerExportResult> {
  const zip = await openZip(path);
  // The level every export is written with (xlsx-writer.ts).
  const writer = new ZipWriter(out, DEFLATE_LEVEL);
  let rowIndex = 0;
  let recoloured = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          await writer.startEntry(entry.fileName);
          const stream = await openEntry(zip, entry);
          const isSheet = SHEET.test(entry.fileName);
          // latin1: one character per byte, so the markup's ASCII is found and every other byte copied unchanged.
          let carry = '';
          let columns: SheetColumns | null = null;
          let rowNumber = 0;
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            if (!isSheet) {
              await writer.write(chunk);
              continue;
            }
            const text = carry + chunk.toString('latin1');
            const end = text.lastIndexOf('</row>');
            if (end < 0) {
              carry = text;
              continue;
            }
            const whole = end + '</row>'.length;
            carry = text.slice(whole);
            let out = '';
            let at = 0;
            for (let start = text.indexOf('<row ', at); start >= 0 && start < whole; start = text.indexOf('<row ', at)) {
              const close = text.indexOf('</row>', start) + '</row>'.length;
              rowNumber++;
              const row = text.slice(start, close);
              out += text.slice(at, start);
              if (rowNumber === 1) {
                columns = columnsOf(row);
                out += row;
              } else if (columns !== null) {
                const move = moveOf(rowIndex++);
                if (move) recoloured++;
                out += move ? recolourRow(row, columns, move) : row;
              } else out += row;
              at = close;
            }
            out += text.slice(at, whole);
            await writer.write(Buffer.from(out, 'latin1'));
          }
          if (carry !== '') await writer.write(Buffer.from(carry, 'latin1'));
          await writer.endEntry();
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
    await writer.finish();
  } finally {
    zip.close();
  }
  return { rows: rowIndex, recoloured };
}
