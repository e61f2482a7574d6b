/**
 * Splits a BIFF8 workbook stream into small single-sheet streams, so that SheetJS materialises a
 * few thousand rows at a time: its cell objects are large (about 380 bytes each) and a whole
 * 100,000-row workbook would not fit the memory budget. Only record headers, cell row numbers and
 * the BoundSheet8 offset are looked at; the records go to SheetJS unchanged.
 */
const BOF = 0x0809;
const EOF = 0x000a;
const BOUNDSHEET = 0x0085;
const FILEPASS = 0x002f;
const BIFF8 = 0x0600;
const GLOBALS = 0x0005;

// Records whose first field is the row number (cells and ROW).
const ROW_RECORDS = new Set([0x0203, 0x00fd, 0x0204, 0x027e, 0x00bd, 0x0006, 0x0205, 0x0201, 0x00be, 0x00d6, 0x0208]);
// Records that belong to the record before them (a formula's string result, continuations).
const FOLLOWERS = new Set([0x0207, 0x003c]);
// Formulas shared across rows: a piece could lose the definition, so such sheets stay whole.
const CROSS_ROW = new Set([0x04bc, 0x0221, 0x0236]);

interface SheetPieces {
  readonly name: string;
  /** Single-sheet workbook streams, in row order; together they hold every row once. */
  readonly pieces: () => Generator<Buffer>;
}

export type SplitOutcome = { readonly kind: 'split'; readonly sheets: SheetPieces[] } | { readonly kind: 'encrypted' } | { readonly kind: 'unsupported' };

interface BoundSheet {
  readonly start: number;
  readonly end: number;
  readonly position: number;
  readonly type: number;
  readonly name: string;
}

function boundSheetName(data: Buffer): string {
  // ShortXLUnicodeString: cch, flags (bit 0: UTF-16), characters.
  const cch = data[6] ?? 0;
  const wide = ((data[7] ?? 0) & 1) === 1;
  return wide ? data.toString('utf16le', 8, 8 + cch * 2) : data.toString('latin1', 8, 8 + cch);
}

/** Offsets and row numbers of the records of one worksheet substream (-1: not row-bound). */
interface RecordIndex {
  readonly starts: Int32Array;
  readonly rows: Int32Array;
  readonly count: number;
  readonly end: number;
  readonly maxRow: number;
  readonly crossRow: boolean;
}

function indexSubstream(stream: Buffer, start: number): RecordIndex | null {
  let capacity = 1024;
  let starts = new Int32Array(capacity);
  let rows = new Int32Array(capacity);
  let count = 0;
  let depth = 0;
  let lastRow = -1;
  let maxRow = -1;
  let crossRow = false;
  for (let at = start; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt16LE(at + 2);
    const next = at + 4 + length;
    if (next > stream.length) return null;
    if (count === capacity) {
      capacity *= 2;
      const s = new Int32Array(capacity);
      s.set(starts);
      starts = s;
      const r = new Int32Array(capacity);
      r.set(rows);
      rows = r;
    }
    if (type === BOF) depth++;
    let row = -1;
    if (depth === 1 && ROW_RECORDS.has(type) && length >= 2) {
      row = lastRow = stream.readUInt16LE(at + 4);
      if (row > maxRow) maxRow = row;
    }
    else if (depth === 1 && FOLLOWERS.has(type)) row = lastRow;
    else lastRow = -1;
    if (CROSS_ROW.has(type)) crossRow = true;
    starts[count] = at;
    rows[count] = row;
    count++;
    if (type === EOF && --depth === 0) return { starts, rows, count, end: next, maxRow, crossRow };
    at = next;
  }
  return null;
}

export function splitBiff8(stream: Buffer, minRowsPerPiece = 2_000): SplitOutcome {
  if (stream.length < 8 || stream.readUInt16LE(0) !== BOF || stream.readUInt16LE(4) !== BIFF8 || stream.readUInt16LE(6) !== GLOBALS) return { kind: 'unsupported' };
  const bounds: BoundSheet[] = [];
  let globalsEnd = -1;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const next = at + 4 + stream.readUInt16LE(at + 2);
    if (next > stream.length) return { kind: 'unsupported' };
    if (type === FILEPASS) return { kind: 'encrypted' };
    if (type === BOUNDSHEET) {
      const data = stream.subarray(at + 4, next);
      if (data.length < 8) return { kind: 'unsupported' };
      bounds.push({ start: at, end: next, position: data.readUInt32LE(0), type: data[5] ?? 0xff, name: boundSheetName(data) });
    }
    if (type === EOF) {
      globalsEnd = next;
      break;
    }
    at = next;
  }
  if (globalsEnd < 0 || bounds.length === 0) return { kind: 'unsupported' };
  if (bounds.some((b, i) => i > 0 && b.start !== (bounds[i - 1] as BoundSheet).end)) return { kind: 'unsupported' };

  // Globals without their BoundSheet8 records; each piece puts back the one of its sheet.
  const before = stream.subarray(0, (bounds[0] as BoundSheet).start);
  const after = stream.subarray((bounds[bounds.length - 1] as BoundSheet).end, globalsEnd);
  const sheets: SheetPieces[] = [];
  for (const bound of bounds) {
    if (bound.type !== 0) continue; // chart, macro and module sheets carry no rows
    if (bound.position < globalsEnd) return { kind: 'unsupported' };
    const index = indexSubstream(stream, bound.position);
    if (index === null) return { kind: 'unsupported' };
    const header = Buffer.from(stream.subarray(bound.start, bound.end));
    header.writeUInt32LE(before.length + header.length + after.length, 4);
    const prefix = Buffer.concat([before, header, after]);
    // Small pieces let SheetJS's cells die young, but every piece repeats the globals (the
    // shared-string table): a piece carries at least a quarter of that prefix in row bytes, so
    // the table is parsed at most about four times per sheet's worth of rows.
    const bytesPerRow = (index.end - bound.position) / Math.max(1, index.maxRow + 1);
    const rowsPerPiece = index.crossRow ? Number.MAX_SAFE_INTEGER : Math.max(minRowsPerPiece, Math.ceil(prefix.length / (4 * bytesPerRow)));
    sheets.push({ name: bound.name, pieces: () => pieces(stream, prefix, index, rowsPerPiece) });
  }
  return { kind: 'split', sheets };
}

function* pieces(stream: Buffer, prefix: Buffer, index: RecordIndex, rowsPerPiece: number): Generator<Buffer> {
  const recordEnd = (i: number) => (i + 1 < index.count ? (index.starts[i + 1] as number) : index.end);
  for (let from = 0; from === 0 || from <= index.maxRow; from += rowsPerPiece) {
    const to = from + rowsPerPiece;
    const keep = (i: number) => {
      const row = index.rows[i] as number;
      return row < 0 || (row >= from && row < to);
    };
    let size = prefix.length;
    for (let i = 0; i < index.count; i++) if (keep(i)) size += recordEnd(i) - (index.starts[i] as number);
    const out = Buffer.allocUnsafe(size);
    let at = prefix.copy(out, 0);
    for (let i = 0; i < index.count; i++) if (keep(i)) at += stream.copy(out, at, index.starts[i], recordEnd(i));
    yield out;
  }
}
