import { crc32 } from 'node:zlib';
import type yauzl from 'yauzl';
import { fail, ok, type ReasonCode, type Result } from '../reasons.ts';
import type { SpreadsheetLimits } from './limits.ts';
import { columnOf } from './columns.ts';
import { inflateEntry, openZip } from './zip-entry.ts';

export type SpreadsheetFormat = 'xlsx' | 'xls';

export interface Inspection {
  readonly format: SpreadsheetFormat;
  /** Workbook uses the 1904 date system (xlsx: workbookPr/@date1904). */
  readonly date1904: boolean;
  /**
   * Data rows to expect, before reading: the worksheets' `<row>` elements less one header row each
   * (xlsx; an upper bound when a sheet has no header or empty rows); null when unknown (xls).
   */
  readonly expectedRows: number | null;
  /**
   * xlsx: each part's bytes in the file (local header to the end of its data), in file order, and where
   * the central directory starts; they tile the file exactly (checked). Empty for xls.
   */
  readonly parts: readonly ZipPart[];
  readonly centralDirectoryAt: number;
}

export interface ZipPart {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

class Refused extends Error {
  constructor(
    readonly reason: ReasonCode,
    detail?: string,
  ) {
    super(detail ?? reason);
  }
}

/**
 * Decide whether an upload may be parsed, before any spreadsheet library sees it: size, real type
 * against the extension, and for xlsx every zip entry inflated under counters and scanned.
 */
export async function inspectSpreadsheet(bytes: Buffer, fileName: string, limits: SpreadsheetLimits): Promise<Result<Inspection>> {
  if (bytes.length === 0) return fail('empty_file');
  if (bytes.length > limits.maxBytes) return fail('file_too_large', `${bytes.length} bytes`);
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === 'xlsm' || extension === 'xltm' || extension === 'xlsb') return fail('macro_not_allowed', `.${extension}`);
  if (extension !== 'xlsx' && extension !== 'xls') return fail('type_mismatch', `extension .${extension ?? ''}`);

  if (startsWith(bytes, OLE2_MAGIC)) {
    const ole = await inspectOle2(bytes);
    if (!ole.ok) return ole;
    // An OLE2 file named .xlsx is never parsed as xls (UP-08): the name and the content disagree.
    if (extension !== 'xls') return fail('type_mismatch', 'xls content in a .xlsx file');
    return ok({ format: 'xls', date1904: false, expectedRows: null, parts: [], centralDirectoryAt: 0 });
  }
  if (startsWith(bytes, ZIP_MAGIC)) {
    if (extension !== 'xlsx') return fail('type_mismatch', 'zip content in a .xls file');
    try {
      return ok(await inspectZip(bytes, limits));
    } catch (error) {
      if (error instanceof Refused) return fail(error.reason, error.message);
      return fail('malformed_workbook', error instanceof Error ? error.message : String(error));
    }
  }
  return fail('type_mismatch', 'neither a zip nor an OLE2 container');
}

/**
 * Encrypted OOXML and legacy workbooks both live in OLE2 containers; tell them apart by their streams. SheetJS (its CFB
 * reader) is loaded here, on the first OLE2 file: a thread that only meets .xlsx files never holds it (≈ 3 MB of heap).
 */
async function inspectOle2(bytes: Buffer): Promise<Result<void>> {
  // Compound files are whole sectors (2^n bytes, n at offset 0x1E); anything else is truncated or padded by hand.
  const sectorShift = bytes.length >= 0x20 ? bytes.readUInt16LE(0x1e) : 0;
  if ((sectorShift !== 9 && sectorShift !== 12) || bytes.length % (1 << sectorShift) !== 0) return fail('malformed_workbook', 'not a whole number of sectors');
  const { CFB } = await import('./cfb.ts');
  let names: string[];
  try {
    const container = CFB.read(bytes, { type: 'buffer' });
    names = container.FullPaths.map((p) => p.toLowerCase());
  } catch (error) {
    return fail('malformed_workbook', error instanceof Error ? error.message : String(error));
  }
  const has = (name: string) => names.some((p) => p.endsWith(`/${name}`) || p.endsWith(`/${name}/`));
  if (has('encryptioninfo') || has('encryptedpackage')) return fail('encrypted_not_supported');
  if (has('_vba_project_cur') || has('vba') || has('_vba_project')) return fail('macro_not_allowed');
  if (!has('workbook') && !has('book')) return fail('type_mismatch', 'OLE2 file without a workbook stream');
  return ok(undefined);
}

interface CentralEntry {
  readonly entry: yauzl.Entry;
  readonly name: string;
}

function readCentralDirectory(zip: yauzl.ZipFile, limits: SpreadsheetLimits): Promise<CentralEntry[]> {
  if (zip.entryCount > limits.maxEntries) throw new Refused('too_many_entries', `${zip.entryCount} entries`);
  return new Promise((resolve, reject) => {
    const entries: CentralEntry[] = [];
    let declared = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (entries.length >= limits.maxEntries) return reject(new Refused('too_many_entries'));
      if (name.startsWith('/') || name.includes('\\') || /(^|\/)\.\.(\/|$)/.test(name) || /^[a-z]:/i.test(name) || name.includes('\0')) {
        return reject(new Refused('unsafe_entry_name', name.slice(0, 100)));
      }
      if ((entry.generalPurposeBitFlag & 0x1) !== 0) return reject(new Refused('encrypted_not_supported', name));
      if (/vbaproject\.bin$/i.test(name) || /(^|\/)vbaProject/i.test(name)) return reject(new Refused('macro_not_allowed', name));
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return reject(new Refused('malformed_workbook', `compression ${entry.compressionMethod}`));
      const isSharedStrings = name === 'xl/sharedStrings.xml';
      if (isSharedStrings && entry.uncompressedSize > limits.maxSharedStringsBytes) return reject(new Refused('shared_strings_too_large'));
      if (entry.uncompressedSize > limits.maxEntryBytes) return reject(new Refused('archive_too_large', `${name} declares ${entry.uncompressedSize} bytes`));
      declared += entry.uncompressedSize;
      if (declared > limits.maxInflatedBytes) return reject(new Refused('archive_too_large', 'declared sizes'));
      entries.push({ entry, name });
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * Local headers must tile the file exactly, with the central names: no bytes hidden between entries,
 * and a reader walking local headers (as exceljs' did) or the central directory (as ours) meets the same parts.
 */
function checkLocalHeaders(bytes: Buffer, entries: readonly CentralEntry[]): { parts: ZipPart[]; centralDirectoryAt: number } {
  const sorted = [...entries].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  const parts: ZipPart[] = [];
  let expected = 0;
  for (const { entry, name } of sorted) {
    const at = entry.relativeOffsetOfLocalHeader;
    if (at !== expected || at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50) throw new Refused('malformed_workbook', `local header of ${name}`);
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    if (bytes.subarray(at + 30, at + 30 + nameLength).toString('utf8') !== name && bytes.subarray(at + 30, at + 30 + nameLength).toString('latin1') !== name) {
      throw new Refused('malformed_workbook', `local name differs for ${name}`);
    }
    let end = at + 30 + nameLength + extraLength + entry.compressedSize;
    if ((entry.generalPurposeBitFlag & 0x8) !== 0) end += end + 4 <= bytes.length && bytes.readUInt32LE(end) === 0x08074b50 ? 16 : 12;
    parts.push({ name, start: at, end });
    expected = end;
  }
  if (bytes.length < expected + 4 || bytes.readUInt32LE(expected) !== 0x02014b50) throw new Refused('malformed_workbook', 'data between entries and central directory');
  return { parts, centralDirectoryAt: expected };
}

const LT = 0x3c;
const BANG = 0x21;

/** Byte scanner over one inflated XML part; keeps a small tail so patterns split across chunks are seen. */
class PartScanner {
  rows = 0;
  mergedRanges = 0;
  mergedCells = 0;
  date1904 = false;
  /** [Content_Types].xml's text, read whole once the part ends (`macroTypes`). */
  contentTypes = '';
  private tail = Buffer.alloc(0);
  private first = true;

  constructor(
    private readonly name: string,
    private readonly limits: SpreadsheetLimits,
  ) {}

  scan(chunk: Buffer): void {
    if (this.first) {
      this.first = false;
      // UTF-16 parts would hide a DOCTYPE from a byte scan; saxes reads UTF-8 anyway.
      if ((chunk[0] === 0xfe && chunk[1] === 0xff) || (chunk[0] === 0xff && chunk[1] === 0xfe) || chunk.subarray(0, 4).includes(0)) {
        throw new Refused('unsupported_encoding', this.name);
      }
    }
    const buf = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    const fresh = buf.length - chunk.length; // bytes already scanned in the previous call
    // From the previous call's last byte: a `<!` there could not be judged without the next byte.
    for (let i = buf.indexOf(BANG, Math.max(1, fresh - 1)); i !== -1; i = buf.indexOf(BANG, i + 1)) {
      // `<!` followed by a letter opens a DOCTYPE, ENTITY, ELEMENT or ATTLIST; comments and CDATA are `<!-` and `<![`.
      const next = buf[i + 1];
      if (buf[i - 1] === LT && next !== undefined && ((next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a))) {
        throw new Refused('doctype_refused', this.name);
      }
    }
    if (this.name.startsWith('xl/worksheets/')) this.scanSheet(buf, fresh);
    else if (this.name === 'xl/workbook.xml' && /date1904\s*=\s*["'](1|true)["']/.test(buf.toString('latin1'))) this.date1904 = true;
    else if (this.name === '[Content_Types].xml') {
      this.contentTypes += chunk.toString('latin1');
      if (this.contentTypes.length > MAX_CONTENT_TYPES_CHARS) throw new Refused('malformed_workbook', 'content types too large');
    }
    this.tail = Buffer.from(buf.subarray(Math.max(0, buf.length - 64)));
  }

  private scanSheet(buf: Buffer, fresh: number): void {
    const from = Math.max(0, fresh - 4);
    for (let i = buf.indexOf('<row', from, 'latin1'); i !== -1; i = buf.indexOf('<row', i + 4, 'latin1')) {
      const c = buf[i + 4];
      if (c === 0x20 || c === 0x3e || c === 0x2f || c === 0x09 || c === 0x0a || c === 0x0d) this.rows++;
    }
    if (this.rows > this.limits.maxRows) throw new Refused('too_many_rows', `more than ${this.limits.maxRows} rows`);
    for (let i = buf.indexOf('<mergeCell ', Math.max(0, fresh - 10), 'latin1'); i !== -1; i = buf.indexOf('<mergeCell ', i + 11, 'latin1')) {
      this.mergedRanges++;
      if (this.mergedRanges > this.limits.maxMergedRanges) throw new Refused('too_many_merged_cells', `${this.mergedRanges} ranges`);
      const ref = /ref\s*=\s*"([A-Z]{1,3})(\d{1,7}):([A-Z]{1,3})(\d{1,7})"/.exec(buf.toString('latin1', i, Math.min(buf.length, i + 80)));
      if (ref) {
        const width = columnOf(ref[3] as string) - columnOf(ref[1] as string) + 1;
        const height = Number(ref[4]) - Number(ref[2]) + 1;
        this.mergedCells += Math.max(1, width) * Math.max(1, height);
        if (this.mergedCells > this.limits.maxMergedCells) throw new Refused('too_many_merged_cells', `${this.mergedCells} merged cells`);
      }
    }
  }
}

/** A package's [Content_Types].xml names a few dozen types; anything past this is not one. */
const MAX_CONTENT_TYPES_CHARS = 1 << 20;

/**
 * Whether the content types make this a macro-enabled package: a part declared with a macro-enabled type (the
 * workbook of an .xlsm renamed .xlsx), or a part whose extension has one by default. A default alone names no part:
 * SheetJS writes `<Default Extension="bin" ContentType="…binary.macroEnabled.main"/>` in every workbook it saves.
 */
function macroTypes(contentTypes: string, names: ReadonlySet<string>): boolean {
  const tags = contentTypes.match(/<(?:[\w-]+:)?(?:Override|Default)\b[^>]*>/gi) ?? [];
  for (const tag of tags) {
    if (!/macroEnabled|vbaProject/i.test(tag)) continue;
    if (/^<(?:[\w-]+:)?Override/i.test(tag)) return true;
    const extension = /Extension\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]?.toLowerCase();
    if (extension === undefined || [...names].some((name) => name.toLowerCase().endsWith(`.${extension}`))) return true;
  }
  return false;
}

async function inspectZip(bytes: Buffer, limits: SpreadsheetLimits): Promise<Inspection> {
  const zip = await openZip(bytes);
  try {
    const entries = await readCentralDirectory(zip, limits);
    const names = new Set(entries.map((e) => e.name));
    if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml')) throw new Refused('type_mismatch', 'zip without a workbook part');
    const { parts, centralDirectoryAt } = checkLocalHeaders(bytes, entries);

    let inflatedTotal = 0;
    let rows = 0;
    let mergedRanges = 0;
    let mergedCells = 0;
    let date1904 = false;
    let worksheets = 0;
    for (const { entry, name } of entries) {
      if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) worksheets++;
      const isXml = /\.(xml|rels|vml)$/i.test(name);
      const cap = name === 'xl/sharedStrings.xml' ? Math.min(limits.maxSharedStringsBytes, limits.maxEntryBytes) : limits.maxEntryBytes;
      // Budgets shrink with what earlier parts used, so the limits hold for the whole workbook.
      const budget = { ...limits, maxRows: limits.maxRows - rows, maxMergedRanges: limits.maxMergedRanges - mergedRanges, maxMergedCells: limits.maxMergedCells - mergedCells };
      const scanner = isXml ? new PartScanner(name, budget) : null;
      let inflated = 0;
      let crc = 0;
      // Declared sizes are not trusted (UP-03): the running counters decide.
      try {
        for await (const chunk of inflateEntry(bytes, entry)) {
          inflated += chunk.length;
          inflatedTotal += chunk.length;
          crc = crc32(chunk, crc);
          if (inflated > cap) throw new Refused(cap === limits.maxEntryBytes ? 'archive_too_large' : 'shared_strings_too_large', name);
          if (inflatedTotal > limits.maxInflatedBytes) throw new Refused('archive_too_large', 'inflated total');
          scanner?.scan(chunk);
        }
      } catch (error) {
        if (error instanceof Refused) throw error;
        const message = error instanceof Error ? error.message : String(error);
        // An entry inflating past its declared size says so.
        if (/too many bytes|too large|size/i.test(message)) throw new Refused('archive_too_large', `${name}: ${message}`);
        throw new Refused('malformed_workbook', `${name}: ${message}`);
      }
      // The reader does not check CRCs again (it reads these same bytes), so a corrupted part is caught here.
      if (crc >>> 0 !== entry.crc32 >>> 0) throw new Refused('malformed_workbook', `CRC mismatch in ${name}`);
      if (scanner) {
        if (name === '[Content_Types].xml' && macroTypes(scanner.contentTypes, names)) throw new Refused('macro_not_allowed', 'macro-enabled content type');
        rows += scanner.rows;
        mergedRanges += scanner.mergedRanges;
        mergedCells += scanner.mergedCells;
        date1904 ||= scanner.date1904;
      }
    }
    return { format: 'xlsx', date1904, expectedRows: Math.max(0, rows - worksheets), parts, centralDirectoryAt };
  } finally {
    zip.close();
  }
}
