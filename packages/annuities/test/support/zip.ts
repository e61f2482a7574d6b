import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-built zip archives for hostile fixtures: declared sizes, flags and layout can be set at will,
 * and huge repetitive contents are produced by repeating one flushed deflate block, so a 1 GB
 * inflated entry costs about a megabyte to build.
 */
export interface RawEntry {
  name: string;
  /** Plain content, deflated normally. */
  data?: string | Buffer;
  /** Repeated content: `chunk` written `times` times. */
  repeat?: { chunk: string | Buffer; times: number; prefix?: string; suffix?: string };
  /** Override of the uncompressed size written in both headers (lying sizes, UP-03). */
  declaredSize?: number;
  /** Override of the CRC written in both headers. */
  crc?: number;
  /** Extra general-purpose flag bits (bit 0: encrypted). */
  flags?: number;
  /** Replace the compressed bytes (deflate garbage). */
  compressedOverride?: Buffer;
  /** Stored (method 0, the bytes as they are) instead of deflated, as `zip -0` and many scanners write them. */
  stored?: boolean;
}

const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

function compress(entry: RawEntry): { compressed: Buffer; size: number; crc: number } {
  if (entry.repeat) {
    const { chunk, times, prefix = '', suffix = '' } = entry.repeat;
    const body = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    const head = Buffer.from(prefix);
    const tail = Buffer.from(suffix);
    const flushed = (b: Buffer) => (b.length === 0 ? Buffer.alloc(0) : deflateRawSync(b, { finishFlush: constants.Z_FULL_FLUSH }));
    const block = flushed(body);
    const parts = [flushed(head), ...new Array<Buffer>(times).fill(block), flushed(tail), FINAL_EMPTY_BLOCK];
    const size = head.length + body.length * times + tail.length;
    // CRCs of giant entries are skipped: those fixtures must be refused before the end of the entry.
    let crc = 0;
    if (size < 300 * 1024 * 1024) {
      crc = crc32(head, crc);
      for (let i = 0; i < times; i++) crc = crc32(body, crc);
      crc = crc32(tail, crc);
    }
    return { compressed: Buffer.concat(parts), size, crc };
  }
  const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '');
  return { compressed: entry.stored ? data : deflateRawSync(data), size: data.length, crc: crc32(data) };
}

function overridden(entry: RawEntry, compressed: Buffer): { compressed: Buffer; size: number; crc: number } {
  const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '');
  return { compressed, size: data.length, crc: crc32(data) };
}

export function buildZip(entries: readonly RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const { compressed, size, crc } = entry.compressedOverride ? overridden(entry, entry.compressedOverride) : compress(entry);
    const declared = entry.declaredSize ?? size;
    const flags = 0x0800 | (entry.flags ?? 0);
    const method = entry.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE((entry.crc ?? crc) >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(Math.min(declared, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE((entry.crc ?? crc) >>> 0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(Math.min(declared, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

/** The parts of a one-sheet xlsx with inline strings; `parts` replaces or adds parts by name. */
export function minimalXlsxEntries(parts: Record<string, string> = {}, sheetRows?: string): RawEntry[] {
  const base: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook ${NS}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml':
      SHEET_HEAD +
      (sheetRows ??
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c><c r="B1" t="inlineStr"><is><t>Date de dépôt</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>FR</t></is></c><c r="B2" t="inlineStr"><is><t>15/03/2018</t></is></c></row>') +
      SHEET_TAIL,
  };
  return Object.entries({ ...base, ...parts }).map(([name, data]) => ({ name, data }));
}
