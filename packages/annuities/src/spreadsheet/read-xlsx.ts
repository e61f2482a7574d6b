import type yauzl from 'yauzl';
import { fail, type Result } from '../reasons.ts';
import { columnOf, type CellValue } from './columns.ts';
import type { Inspection } from './guard.ts';
import type { SpreadsheetLimits } from './limits.ts';
import { SheetAssembler, WorkbookFeed, type ReadStats, type RowVisitor } from './rows.ts';
import { attribute, decodeXstring, shortAttribute, XmlError, XmlScanner, type XmlHandler } from './xml-scan.ts';
import { inflateEntry, openZip, ZipEntryError } from './zip-entry.ts';

/*
 * The .xlsx reader (decision 240): the central directory read by yauzl (as the guard read it), the
 * parts inflated by zlib in large chunks (zip-entry.ts) and read by a scanner of the few SpreadsheetML elements a patent list needs, in place of
 * exceljs' streaming reader. Nothing is kept but the shared strings and the row being read. Cells are
 * what exceljs gave: formulas as their text ("=…", never evaluated, UP-18), numbers as numbers (date
 * columns are typed from the serial by the assembler), booleans, strings; errors are blank.
 */

/** The parts read, at the paths the guard inspected (its budgets and row counts are theirs). */
const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
const WORKSHEET_TYPE = /\/worksheet$/;

/** Streams every worksheet of an inspected xlsx, in the workbook's tab order, through the visitor. Only call after `inspectSpreadsheet` accepted the bytes. */
export async function readXlsx(bytes: Buffer, inspection: Inspection, limits: SpreadsheetLimits, visitor: RowVisitor): Promise<Result<ReadStats>> {
  try {
    const entries = await centralDirectory(bytes);
    const sheets = await worksheetsOf(bytes, entries);
    // At its exact name only: the guard holds that part to its own cap (maxSharedStringsBytes).
    const sharedEntry = entries.get(SHARED_STRINGS.toLowerCase());
    const shared = sharedEntry?.fileName === SHARED_STRINGS ? await sharedStringsOf(bytes, sharedEntry) : [];
    const feed = new WorkbookFeed(visitor, limits.maxRows);
    for (const sheet of sheets) {
      const entry = entries.get(sheet.path.toLowerCase());
      if (!entry) continue;
      const assembler = new SheetAssembler(sheet.name, inspection.date1904);
      const reader = new SheetReader(shared, limits.maxColumns);
      const scanner = new XmlScanner(reader);
      let skip = false;
      for await (const text of textOf(bytes, entry)) {
        scanner.write(text);
        // Rows are handed on after each chunk; a sheet without a header is read to its end, unused.
        for (const row of reader.take()) {
          if (skip) continue;
          const step = await feed.dispatch(assembler.accept(row.number, row.cells));
          if (step === 'skip_sheet') skip = true;
          else if (step !== 'next') return step;
        }
        // The rows before a refused cell went on first, as they would have one chunk earlier.
        if (reader.failure) return reader.failure;
      }
      scanner.end();
      feed.endSheet(assembler);
    }
    return feed.finish('xlsx');
  } catch (error) {
    if (error instanceof XmlError || error instanceof ZipEntryError) return fail('malformed_workbook', error.message.slice(0, 200));
    throw error;
  }
}

/** The entries by name in lower case (part names are case-insensitive: ECMA-376 part 2, 9.1.1.1), from the central directory. */
async function centralDirectory(bytes: Buffer): Promise<Map<string, yauzl.Entry>> {
  const zip = await openZip(bytes);
  try {
    return await entriesOf(zip);
  } finally {
    zip.close();
  }
}

function entriesOf(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName.toLowerCase(), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: Error) => reject(new ZipEntryError(error.message)));
    zip.readEntry();
  });
}

/** A part's text, chunk by chunk, as it inflates (the guard refused UTF-16 parts: UTF-8, its BOM dropped). */
async function* textOf(bytes: Buffer, entry: yauzl.Entry): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of inflateEntry(bytes, entry)) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

async function readPart(bytes: Buffer, entry: yauzl.Entry | undefined, handler: XmlHandler): Promise<void> {
  if (!entry) return;
  const scanner = new XmlScanner(handler);
  for await (const text of textOf(bytes, entry)) scanner.write(text);
  scanner.end();
}

interface SheetRef {
  readonly name: string;
  readonly path: string;
}

/** The worksheets in tab order (xl/workbook.xml), each with its part (xl/_rels/workbook.xml.rels); chart sheets left out. */
async function worksheetsOf(bytes: Buffer, entries: ReadonlyMap<string, yauzl.Entry>): Promise<SheetRef[]> {
  const targets = new Map<string, string>();
  await readPart(bytes, entries.get(WORKBOOK_RELS.toLowerCase()), {
    capturing: false,
    open(name, tag) {
      if (name !== 'Relationship') return;
      const id = attribute(tag, 'Id');
      const target = attribute(tag, 'Target');
      const type = attribute(tag, 'Type') ?? '';
      if (id !== undefined && target !== undefined && WORKSHEET_TYPE.test(type)) targets.set(id, partPath(target));
    },
    close() {},
    text() {},
  });
  const sheets: SheetRef[] = [];
  await readPart(bytes, entries.get(WORKBOOK.toLowerCase()), {
    capturing: false,
    open(name, tag) {
      if (name !== 'sheet') return;
      const id = attribute(tag, 'id');
      const path = id === undefined ? undefined : targets.get(id);
      if (path !== undefined && WORKSHEET.test(path)) sheets.push({ name: attribute(tag, 'name') ?? `Sheet${sheets.length + 1}`, path });
    },
    close() {},
    text() {},
  });
  return sheets;
}

/** A relationship's target as a part name: relative to xl/, or absolute from the package's root. */
function partPath(target: string): string {
  const segments = target.startsWith('/') ? [] : ['xl'];
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

/** The shared strings, each the text of its runs (phonetic guides left out). */
async function sharedStringsOf(bytes: Buffer, entry: yauzl.Entry): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inItem = false;
  let phonetic = 0;
  let capturing = false;
  await readPart(bytes, entry, {
    get capturing() {
      return capturing;
    },
    open(name, _tag, selfClosing) {
      if (name === 'si') {
        current = '';
        inItem = !selfClosing;
        if (selfClosing) strings.push('');
      } else if (name === 'rPh') {
        if (!selfClosing) phonetic++;
      } else if (name === 't' && inItem && phonetic === 0 && !selfClosing) {
        capturing = true;
      }
    },
    close(name) {
      if (name === 't') capturing = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 'si' && inItem) {
        strings.push(flat(decodeXstring(current)));
        inItem = false;
      }
    },
    text(text) {
      current += text;
    },
  });
  return strings;
}

interface RawRow {
  readonly number: number;
  readonly cells: CellValue[];
}

/**
 * One worksheet's `sheetData`: rows and their cells as values. A row or cell without its `r` follows the one
 * before it. Rows are kept until `take`; a value past `maxColumns` stops the sheet with `too_many_columns`.
 */
class SheetReader implements XmlHandler {
  failure: Result<never> | undefined;
  private rows: RawRow[] = [];
  private inData = false;
  private row: RawRow | null = null;
  private rowNumber = 0;
  private column = 0;
  // The cell being read.
  private inCell = false;
  private type = 'n';
  private hasValue = false;
  private hasFormula = false;
  private value = '';
  private formula = '';
  private target: 'value' | 'formula' | null = null;
  private inInline = false;
  private phonetic = 0;

  constructor(
    private readonly shared: readonly string[],
    private readonly maxColumns: number,
  ) {}

  get capturing(): boolean {
    return this.target !== null;
  }

  take(): RawRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  open(name: string, tag: string, selfClosing: boolean): void {
    if (this.failure) return;
    switch (name) {
      case 'sheetData':
        this.inData = !selfClosing;
        return;
      case 'row': {
        if (!this.inData) return;
        const r = shortAttribute(tag, 'r');
        const number = r === undefined ? Number.NaN : Number.parseInt(r, 10);
        this.rowNumber = Number.isSafeInteger(number) && number > 0 ? number : this.rowNumber + 1;
        this.row = { number: this.rowNumber, cells: [] };
        this.column = 0;
        if (selfClosing) this.endRow();
        return;
      }
      case 'c': {
        if (!this.row) return;
        const ref = shortAttribute(tag, 'r');
        const column = ref === undefined ? 0 : columnOf(ref);
        this.column = column > 0 ? column : this.column + 1;
        this.type = shortAttribute(tag, 't') ?? 'n';
        this.hasValue = false;
        this.hasFormula = false;
        this.value = '';
        this.formula = '';
        this.inInline = false;
        this.phonetic = 0;
        this.inCell = !selfClosing;
        return;
      }
      case 'v':
        if (!this.inCell) return;
        this.hasValue = true;
        this.value = '';
        this.target = selfClosing ? null : 'value';
        break;
      case 'f':
        if (!this.inCell) return;
        this.hasFormula = true;
        this.formula = '';
        this.target = selfClosing ? null : 'formula';
        break;
      case 'is':
        if (!this.inCell) return;
        this.hasValue = true;
        this.value = '';
        this.inInline = !selfClosing;
        return;
      case 'rPh':
        if (this.inInline && !selfClosing) this.phonetic++;
        return;
      case 't':
        if (this.inInline && this.phonetic === 0 && !selfClosing) this.target = 'value';
        break;
      default:
        return;
    }
  }

  close(name: string): void {
    if (this.failure) return;
    switch (name) {
      case 'v':
      case 'f':
      case 't':
        this.target = null;
        return;
      case 'rPh':
        if (this.phonetic > 0) this.phonetic--;
        return;
      case 'is':
        this.inInline = false;
        return;
      case 'c':
        if (this.inCell) this.endCell();
        return;
      case 'row':
        if (this.row) this.endRow();
        return;
      case 'sheetData':
        this.inData = false;
        return;
      default:
        return;
    }
  }

  text(text: string): void {
    if (this.target === 'value') this.value += text;
    else if (this.target === 'formula') this.formula += text;
  }

  private endCell(): void {
    this.inCell = false;
    this.target = null;
    const value = this.cellValue();
    if (value === null) return;
    if (this.column > this.maxColumns) {
      this.failure = fail('too_many_columns', `row ${this.rowNumber} column ${this.column}`);
      return;
    }
    const cells = this.row!.cells;
    while (cells.length < this.column - 1) cells.push(null);
    cells[this.column - 1] = value;
  }

  private cellValue(): CellValue {
    if (this.hasFormula) return `=${this.formula}`;
    if (!this.hasValue) return null;
    const text = this.value;
    switch (this.type) {
      case 's':
        return this.shared[Number.parseInt(text, 10)] ?? null;
      case 'inlineStr':
      case 'str':
        return decodeXstring(text);
      case 'b':
        return Number.parseInt(text, 10) !== 0;
      case 'e':
        return null;
      case 'd':
        return isoDate(text);
      default: {
        const number = Number.parseFloat(text);
        return Number.isNaN(number) ? null : number;
      }
    }
  }

  private endRow(): void {
    this.rows.push(this.row!);
    this.row = null;
  }
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?/;

/** A `t="d"` cell (ISO 8601) as the instant it names, read as UTC like the serial dates; null if it is not one. */
function isoDate(text: string): Date | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), 0, Math.round(Number(s) * 1000)));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A shared string as a copy of its own. Text sliced from a decoded chunk keeps the whole 256 KiB chunk alive in V8
 * (a sliced string holds its parent), so the table would keep the part's text besides its strings; the concatenation
 * is flattened into a new string of the text's length. Shorter slices are copies already. At row 50,000 of the
 * 100,000-row workbook: live heap 31.1 → 27.3 MB.
 */
function flat(text: string): string {
  return text.length < 13 ? text : (text + ' ').slice(0, -1);
}
