import type { Writable } from 'node:stream';
import { ZipWriter } from './zip-writer.ts';

/**
 * A cell to write. Dates are day numbers (days since 1970-01-01) written as Excel serials with the
 * DD-MM-YYYY format.
 */
export type OutCell = string | number | boolean | null | { readonly day: number };

const EXCEL_EPOCH_OFFSET = 25569; // serial of 1970-01-01
/**
 * Rows go to the deflater up to 2 MiB at a time. Deflate runs on libuv's pool, but each piece needs
 * the building thread's event loop to hand over the next: with 256 KiB pieces, a thread busy building
 * rows left the pool idle between its turns and the two mostly took turns. 2 MiB: a 200,000-line
 * LEDES sheet built and compressed in 0.75 s instead of 1.0 (docs/benchmarks.md).
 */
const FLUSH_AT = 1 << 21;
/**
 * A sheet's buffer starts at 64 KiB and doubles up to FLUSH_AT as rows come: a small workbook never
 * holds 2 MiB (50 small LEDES runs at once in one thread allocated 100-200 MB, and the garbage
 * collector's pauses delayed some of them by 1.5 s).
 */
const FIRST_BUFFER = 1 << 16;
export const DEFLATE_LEVEL = 2;
/** Room kept for one cell's markup (reference, style, type, shared-string index or number). */
const CELL_ROOM = 96;
const ROW_ROOM = 32;

function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

// Characters XML 1.0 forbids are replaced, so no cell text can break the part.
const XML_ESCAPE_RE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
function escapeXml(text: string): string {
  return text.replace(XML_ESCAPE_RE, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '\uFFFD'));
}

function textElement(text: string): string {
  return `<t xml:space="preserve">${escapeXml(text)}</t>`;
}

function attr(text: string): string {
  return escapeXml(text).replace(/'/g, '&apos;');
}

/**
 * Spreadsheet formula and DDE triggers (reliability-security.md UP-16..18, ASVS 5.0 V1.2.10):
 * text starting with = + - @ TAB CR LF or NUL gets a leading apostrophe and is written as a string.
 */
export function neutralise(text: string): string {
  const first = text.charCodeAt(0);
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 || first === 10 || first === 0 ? `'${text}` : text;
}

export interface SheetOptions {
  /** Column widths, in characters, from the first column. */
  readonly widths?: readonly number[];
  /** Keep the first row in view while scrolling. Default true. */
  readonly freezeHeader?: boolean;
}

/**
 * Streaming writer for plain xlsx packages: inline strings (no shared-string table to hold in
 * memory), a fixed palette of solid fills, one bold header style, dates as DD-MM-YYYY.
 * Style ids: 0 default, 1 header, then for fill i: 2 + 2i plain and 3 + 2i date.
 */
export class XlsxStreamWriter {
  private readonly zip: ZipWriter;
  private readonly sheets: string[] = [];
  private readonly columns: string[] = [];
  /** Rows encoded as they come into one buffer (no big string join to flatten), handed over whole. */
  private buffer: Buffer = Buffer.allocUnsafe(FIRST_BUFFER);
  private buffered = 0;
  /** Full buffers waiting for flush(): a single row may not fit what is left of the current one. */
  private full: Buffer[] = [];
  private rowNumber = 0;
  private open = false;
  /** Per column: `<c r="` and the column's letters. */
  private readonly cellOpen: string[] = [];
  /** Per column: the previous row's text and its shared-string index (-1: inline). */
  private readonly lastText: (string | undefined)[] = [];
  private readonly lastIndex: number[] = [];

  /** Shared-string table: text → index, and the escaped texts in index order (bounded by the option). */
  private readonly shared = new Map<string, number>();
  private readonly sharedXml: string[] = [];
  /** Per shared text: the rest of a cell that holds it (type, index, end). */
  private readonly sharedTail: string[] = [];
  private readonly maxShared: number;

  /**
   * `sharedStrings`: how many distinct texts may go to a shared-string table (0, the default: every
   * text inline). Repetitive sheets (a LEDES file repeats dates, ids and names on every line) get
   * several times smaller XML, so less to build and to compress; past the bound, texts go inline,
   * so memory stays bounded whatever the input.
   */
  constructor(
    out: Writable,
    private readonly fills: readonly string[],
    options: { readonly sharedStrings?: number } = {},
  ) {
    this.maxShared = options.sharedStrings ?? 0;
    // Level 2: on a 200,000-line LEDES sheet (149 MB of XML) 17 MiB for ~5 % more deflate time than
    // level 1 (21 MiB); level 3 doubles the time for 15 MiB (docs/benchmarks.md). Deflate runs on
    // libuv's pool, beside the thread that builds the rows.
    this.zip = new ZipWriter(out, DEFLATE_LEVEL);
  }

  static styleOf(fill: number, date: boolean): number {
    return 2 + 2 * fill + (date ? 1 : 0);
  }

  static readonly HEADER_STYLE = 1;

  private column(index: number): string {
    return (this.columns[index] ??= columnName(index));
  }

  async startSheet(name: string, options: readonly number[] | SheetOptions = {}): Promise<void> {
    const { widths = [], freezeHeader = true } = Array.isArray(options) ? { widths: options as readonly number[] } : (options as SheetOptions);
    if (this.open) await this.endSheet();
    // The sheet takes rows (addRow) from here on, before the awaits below: a synchronous producer may
    // start at once, as long as its first flush() waits for this call.
    this.sheets.push(name);
    this.rowNumber = 0;
    this.open = true;
    const cols = widths.length ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '';
    await this.zip.startEntry(`xl/worksheets/sheet${this.sheets.length}.xml`);
    await this.zip.write(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        (freezeHeader ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' : '') +
        `${cols}<sheetData>`,
    );
  }

  /** One row; `styles` gives the style id per cell (a single id applies to all). */
  async row(cells: readonly OutCell[], styles: number | readonly number[] = 0): Promise<void> {
    if (this.addRow(cells, styles)) await this.flush();
  }

  /**
   * Appends one row to the in-memory buffer, for callers that produce rows synchronously (an engine's
   * line sink). Returns true once the buffer is worth a `flush()`; the caller awaits it when it can.
   * Style 0 cells carry no `s` attribute and empty cells are left out: both read back the same.
   */
  addRow(cells: readonly OutCell[], styles: number | readonly number[] = 0): boolean {
    const r = this.openRow();
    this.cells(r, cells, styles);
    this.closeRow();
    return this.full.length > 0;
  }

  /** `<row r="n">`, returning the row's number as text. */
  private openRow(): string {
    if (!this.open) throw new Error('no open sheet');
    // Rows are written as ASCII bytes straight into the buffer (no per-cell strings to build, collect
    // and encode): only inline texts go through the UTF-8 encoder.
    const r = String(++this.rowNumber);
    this.room(ROW_ROOM + r.length);
    this.ascii('<row r="');
    this.ascii(r);
    this.ascii('">');
    return r;
  }

  private closeRow(): void {
    this.room(ROW_ROOM);
    this.ascii('</row>');
  }

  /** The cells of a row, from the first column. */
  private cells(r: string, cells: readonly OutCell[], styles: number | readonly number[]): void {
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i] ?? null;
      const style = typeof styles === 'number' ? styles : (styles[i] ?? 0);
      if (value === null) {
        if (style !== 0) this.cellStart(i, r, style, '/>');
        continue;
      }
      if (typeof value === 'string') {
        // Consecutive lines repeat most texts column by column (an invoice's dates, ids, names): the
        // same text as the previous row's cell skips the table's hashing.
        let index: number;
        if (this.lastText[i] === value) index = this.lastIndex[i]!;
        else {
          index = this.sharedIndex(value);
          this.lastText[i] = value;
          this.lastIndex[i] = index;
        }
        this.textCell(i, r, style, value, index);
      } else if (typeof value === 'number') {
        if (!Number.isFinite(value)) {
          if (style !== 0) this.cellStart(i, r, style, '/>');
          continue;
        }
        this.cellStart(i, r, style, '><v>');
        if (Number.isInteger(value) && value >= 0 && value < 2 ** 31) this.uint(value);
        else this.ascii(String(value));
        this.ascii('</v></c>');
      } else if (typeof value === 'boolean') {
        this.cellStart(i, r, style, ' t="b"><v>');
        this.ascii(value ? '1' : '0');
        this.ascii('</v></c>');
      } else {
        this.cellStart(i, r, style, '><v>');
        this.ascii(String(value.day + EXCEL_EPOCH_OFFSET));
        this.ascii('</v></c>');
      }
    }
  }

  /**
   * Appends one row of `lead` cells (as addRow, style 0) followed by the pieces of `text` split on
   * `separator`, each a text cell through `neutralise`, an empty piece an empty cell: the same bytes
   * as `addRow([...lead, ...text.split(separator).map((p) => (p === '' ? null : neutralise(p)))])`.
   * A piece equal to the cell above it (most of them, in a file that repeats an invoice's dates, ids
   * and names on every line) is compared in place, without making a string of it. Returns the
   * number of pieces; `wantsFlush` says whether a `flush()` is due.
   */
  addDelimitedRow(lead: readonly OutCell[], text: string, separator: string): number {
    if (separator === '') throw new Error('empty separator');
    const r = this.openRow();
    this.cells(r, lead, 0);
    let column = lead.length;
    let pos = 0;
    for (;;) {
      let end = text.indexOf(separator, pos);
      if (end === -1) end = text.length;
      const length = end - pos;
      if (length > 0) {
        const last = this.lastText[column];
        let value: string;
        let index: number;
        // Cell texts are neutralised: a piece equal to one that starts with no formula trigger is its own cell text.
        if (last !== undefined && last.length === length && text.startsWith(last, pos) && neutralise(last) === last) {
          value = last;
          index = this.lastIndex[column]!;
        } else {
          value = neutralise(text.slice(pos, end));
          index = this.sharedIndex(value);
          this.lastText[column] = value;
          this.lastIndex[column] = index;
        }
        this.textCell(column, r, 0, value, index);
      }
      column++;
      if (end === text.length) break;
      pos = end + separator.length;
    }
    this.closeRow();
    return column - lead.length;
  }

  /** True once enough rows are buffered for a `flush()`. */
  get wantsFlush(): boolean {
    return this.full.length > 0;
  }

  /** A text cell: shared (`index`) or inline (-1). */
  private textCell(column: number, r: string, style: number, value: string, index: number): void {
    if (index === -1) {
      const xml = textElement(value);
      this.cellStart(column, r, style, ' t="inlineStr"><is>');
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      this.room(xml.length * 3 + CELL_ROOM);
      this.buffered += this.buffer.write(xml, this.buffered);
      this.ascii('</is></c>');
    } else {
      this.cellStart(column, r, style, '');
      // ` t="s"><v>12</v></c>` is the same for every cell of that text: made once (most cells of
      // a repetitive sheet are shared texts, and their digits cost more than a copy).
      this.ascii((this.sharedTail[index] ??= ` t="s"><v>${index}</v></c>`));
    }
  }

  /** Makes room for `bytes` more in the current buffer, handing a full one over to `full`. */
  private room(bytes: number): void {
    if (this.buffered + bytes <= this.buffer.length) return;
    if (this.buffer.length < FLUSH_AT) {
      const grown = Buffer.allocUnsafe(Math.max(Math.min(FLUSH_AT, this.buffer.length * 2), this.buffered + bytes));
      this.buffer.copy(grown, 0, 0, this.buffered);
      this.buffer = grown;
      return;
    }
    if (this.buffered > 0) this.full.push(this.buffer.subarray(0, this.buffered));
    this.buffer = Buffer.allocUnsafe(Math.max(FLUSH_AT, bytes));
    this.buffered = 0;
  }

  /** Writes an ASCII-only string (markup, digits); the caller made room for it. */
  private ascii(text: string): void {
    const buffer = this.buffer;
    let at = this.buffered;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.buffered = at;
  }

  /** Writes a non-negative integer's decimal digits. */
  private uint(n: number): void {
    const buffer = this.buffer;
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    let at = this.buffered + digits;
    this.buffered = at;
    do {
      buffer[--at] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
  }

  /** `<c r="` + reference, the style if any, then `rest`; with room for the cell's value after it. */
  private cellStart(column: number, row: string, style: number, rest: string): void {
    this.room(CELL_ROOM + row.length);
    this.ascii((this.cellOpen[column] ??= `<c r="${this.column(column)}`));
    this.ascii(row);
    this.ascii('"');
    if (style !== 0) {
      this.ascii(' s="');
      this.uint(style);
      this.ascii('"');
    }
    this.ascii(rest);
  }

  private sharedIndex(text: string): number {
    const known = this.shared.get(text);
    if (known !== undefined) return known;
    if (this.sharedXml.length >= this.maxShared) return -1;
    const index = this.sharedXml.length;
    this.shared.set(text, index);
    this.sharedXml.push(`<si>${textElement(text)}</si>`);
    return index;
  }

  /** Hands the buffered rows to the deflater; resolves once it can take more. */
  async flush(): Promise<void> {
    if (this.buffered > 0) {
      this.full.push(this.buffer.subarray(0, this.buffered));
      // A fresh buffer of the same size: the deflater holds on to the one handed over until it has read it.
      this.buffer = Buffer.allocUnsafe(this.buffer.length);
      this.buffered = 0;
    }
    // Each buffer goes over as it is: joining them would copy every byte of the sheet once more.
    const full = this.full;
    this.full = [];
    for (const chunk of full) await this.zip.write(chunk);
  }

  async endSheet(): Promise<void> {
    if (!this.open) return;
    await this.flush();
    await this.zip.write('</sheetData></worksheet>');
    await this.zip.endEntry();
    this.open = false;
  }

  async finish(): Promise<void> {
    await this.endSheet();
    const sheetCount = this.sheets.length;
    const hasShared = this.sharedXml.length > 0;
    const overrides = this.sheets
      .map((_n, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('');
    await this.zip.addEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        (hasShared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : '') +
        `${overrides}</Types>`,
    );
    await this.zip.addEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    );
    await this.zip.addEntry(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        `<sheets>${this.sheets.map((n, i) => `<sheet name="${attr(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    );
    await this.zip.addEntry(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        this.sheets.map((_n, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${sheetCount + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
        (hasShared ? `<Relationship Id="rId${sheetCount + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` : '') +
        '</Relationships>',
    );
    await this.zip.addEntry('xl/styles.xml', this.stylesXml());
    if (hasShared) {
      await this.zip.startEntry('xl/sharedStrings.xml');
      await this.zip.write(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" uniqueCount="${this.sharedXml.length}">`,
      );
      for (let i = 0; i < this.sharedXml.length; i += 4096) await this.zip.write(this.sharedXml.slice(i, i + 4096).join(''));
      await this.zip.write('</sst>');
      await this.zip.endEntry();
    }
    await this.zip.finish();
  }

  private stylesXml(): string {
    const fills = ['<fill><patternFill patternType="none"/></fill>', '<fill><patternFill patternType="gray125"/></fill>', '<fill><patternFill patternType="solid"><fgColor rgb="FFD9D9D9"/></patternFill></fill>']
      .concat(this.fills.map((argb) => `<fill><patternFill patternType="solid"><fgColor rgb="${attr(argb)}"/></patternFill></fill>`));
    const xfs = ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>', '<xf numFmtId="0" fontId="1" fillId="2" borderId="0" xfId="0" applyFont="1" applyFill="1"/>'];
    this.fills.forEach((_f, i) => {
      xfs.push(`<xf numFmtId="0" fontId="0" fillId="${i + 3}" borderId="0" xfId="0" applyFill="1"/>`);
      xfs.push(`<xf numFmtId="164" fontId="0" fillId="${i + 3}" borderId="0" xfId="0" applyFill="1" applyNumberFormat="1"/>`);
    });
    return (
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd-mm-yyyy"/></numFmts>' +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      `<fills count="${fills.length}">${fills.join('')}</fills>` +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}
