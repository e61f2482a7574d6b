import { isAscii, isUtf8 } from 'node:buffer';

/** Anything the engine can read: a Node Readable, a web stream, or any async iterable of chunks. */
export type ByteSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

export type Encoding = 'ascii' | 'utf-8' | 'utf-8-bom' | 'windows-1252' | 'utf-16' | 'utf-32' | 'binary' | 'empty';

export interface RawLine {
  /** 0-based physical line of the file. */
  readonly index: number;
  /** Decoded text without its line ending; empty when `tooLong`. */
  readonly text: string;
  /** The text is known to be printable ASCII (checked for its whole input chunk); false when unknown. */
  readonly printable: boolean;
  readonly tooLong: boolean;
  readonly byteLength: number;
}

export interface LineStats {
  encoding: Encoding;
  crlf: number;
  lf: number;
  /** Lines in the file, including a last line without a line ending. */
  lines: number;
  bytes: number;
}

export type Sniffed =
  | { readonly kind: 'fatal'; readonly encoding: 'utf-16' | 'utf-32' | 'binary' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly bom: boolean; readonly looksXml: boolean; readonly chunks: AsyncIterable<Buffer> };

const SNIFF_BYTES = 4096;

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

async function* buffers(source: ByteSource): AsyncGenerator<Buffer> {
  for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
    if (chunk.length > 0) yield toBuffer(chunk);
  }
}

/** UTF-16 without BOM shows as a NUL in every other byte of ASCII text. */
function looksUtf16(head: Buffer): boolean {
  const n = Math.min(head.length, 512) & ~1;
  if (n < 4) return false;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  return (oddZero > pairs * 0.4 && evenZero < pairs * 0.1) || (evenZero > pairs * 0.4 && oddZero < pairs * 0.1);
}

/** Binary: magic numbers of common containers, or a high share of control bytes. */
function looksBinary(head: Buffer): boolean {
  const magic = head.subarray(0, 4).toString('latin1');
  if (magic.startsWith('PK\x03\x04') || magic.startsWith('%PDF') || magic.startsWith('\x7FELF') || magic.startsWith('\xD0\xCF\x11\xE0')) {
    return true;
  }
  const n = Math.min(head.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control > n * 0.1;
}

/**
 * Reads just enough of the stream to decide what it is, then hands back the whole byte
 * stream (first bytes included, BOM removed) without buffering the rest.
 */
export async function sniff(source: ByteSource): Promise<Sniffed> {
  const it = buffers(source)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let done = false;
  while (headLength < SNIFF_BYTES) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  if (headLength === 0) return { kind: 'empty' };
  let first = Buffer.concat(head);
  if (first.length >= 4 && ((first[0] === 0xff && first[1] === 0xfe && first[2] === 0 && first[3] === 0) || (first[0] === 0 && first[1] === 0 && first[2] === 0xfe && first[3] === 0xff))) {
    return { kind: 'fatal', encoding: 'utf-32' };
  }
  if (first.length >= 2 && ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff))) {
    return { kind: 'fatal', encoding: 'utf-16' };
  }
  if (looksUtf16(first)) return { kind: 'fatal', encoding: 'utf-16' };
  if (looksBinary(first)) return { kind: 'fatal', encoding: 'binary' };
  const bom = first.length >= 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
  if (bom) first = first.subarray(3);
  const looksXml = /^\s*</.test(first.subarray(0, 256).toString('latin1'));
  async function* rest(): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { kind: 'text', bom, looksXml, chunks: rest() };
}

const cp1252 = new TextDecoder('windows-1252');

/**
 * `Buffer#latin1Slice`: what `toString('latin1', start, end)` ends in, without its argument handling
 * (a measurable share of the per-line cost). Present on every Node Buffer; not in the typings.
 */
interface Latin1Slicing {
  latin1Slice?: (start: number, end: number) => string;
}

function latin1(bytes: Buffer, start: number, end: number): string {
  const direct = (bytes as Latin1Slicing).latin1Slice;
  return direct === undefined ? bytes.toString('latin1', start, end) : direct.call(bytes, start, end);
}

/** Bytes that are neither printable ASCII nor a line feed: carriage return apart, every control byte and DEL. */
const CONTROL_BYTES: readonly number[] = [...Array.from({ length: 32 }, (_, b) => b).filter((b) => b !== 10 && b !== 13), 0x7f];

/**
 * True when an ASCII chunk holds no control byte (NUL…US but LF, DEL) and no CR: its lines are
 * printable ASCII, and the per-line character test can be skipped. One memchr per byte value.
 */
function printableAscii(chunk: Buffer): boolean {
  if (chunk.indexOf(13) !== -1) return false;
  for (const b of CONTROL_BYTES) if (chunk.indexOf(b) !== -1) return false;
  return true;
}

/**
 * Splits a byte stream into decoded lines, handed to `onLine` one by one as each chunk is split
 * (no batch is built: a chunk's lines would outlive the young generation and be copied by the GC),
 * then `onChunk` once per chunk that ended at least one line. A line longer than `maxLineBytes` is
 * never held: its bytes are counted and dropped, and it comes out as `tooLong`.
 */
export async function splitLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
  stats: LineStats,
  onLine: (line: RawLine) => void,
  onChunk: () => void,
): Promise<void> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let skipping = false;
  let index = 0;
  let sawNonAscii = false;

  const decode = (bytes: Buffer, start: number, end: number): string => {
    const text = bytes.toString('utf8', start, end);
    // Valid multi-byte UTF-8 decodes to fewer UTF-16 units than bytes: cheaper than a scan.
    if (text.length !== end - start) sawNonAscii = true;
    // U+FFFD means the bytes were not UTF-8 (unless the file really contains U+FFFD).
    if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(start, end))) {
      stats.encoding = 'windows-1252';
      return cp1252.decode(bytes.subarray(start, end));
    }
    return text;
  };

  /** `ascii`: the bytes are known to be ASCII, so one-byte decoding is the UTF-8 decoding and nothing needs checking. */
  const emit = (bytes: Buffer, start: number, end: number, withNewline: boolean, ascii = false, printable = false): void => {
    let stop = end;
    if (withNewline) {
      if (stop > start && bytes[stop - 1] === 13) {
        stop--;
        stats.crlf++;
      } else {
        stats.lf++;
      }
    }
    onLine({ index: index++, text: ascii ? latin1(bytes, start, stop) : decode(bytes, start, stop), tooLong: false, printable, byteLength: stop - start });
  };

  for await (const chunk of chunks) {
    stats.bytes += chunk.length;
    // One check of the whole chunk (SIMD in Node) instead of a UTF-8 decode and a U+FFFD search per line.
    const ascii = isAscii(chunk);
    const printable = ascii && printableAscii(chunk);
    const first = index;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      if (skipping) {
        pendingLength += nl - start;
        onLine({ index: index++, text: '', tooLong: true, printable: false, byteLength: pendingLength });
        stats.lf++;
        skipping = false;
        pendingLength = 0;
      } else if (pendingLength > 0) {
        pending.push(chunk.subarray(start, nl + 1));
        const joined = Buffer.concat(pending);
        pending = [];
        pendingLength = 0;
        if (joined.length - 1 > maxLineBytes) {
          onLine({ index: index++, text: '', tooLong: true, printable: false, byteLength: joined.length - 1 });
          stats.lf++;
        } else {
          emit(joined, 0, joined.length - 1, true);
        }
      } else if (nl - start > maxLineBytes) {
        onLine({ index: index++, text: '', tooLong: true, printable: false, byteLength: nl - start });
        stats.lf++;
      } else {
        emit(chunk, start, nl, true, ascii, printable);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const tail = chunk.length - start;
      if (skipping || pendingLength + tail > maxLineBytes) {
        // Drop what we held: from here on we only count bytes up to the next newline.
        skipping = true;
        pending = [];
        pendingLength += tail;
      } else {
        // Copy: the producer may reuse its chunk buffers.
        pending.push(Buffer.from(chunk.subarray(start)));
        pendingLength += tail;
      }
    }
    if (index > first) onChunk();
  }
  if (skipping) {
    onLine({ index: index++, text: '', tooLong: true, printable: false, byteLength: pendingLength });
    onChunk();
  } else if (pendingLength > 0) {
    const joined = Buffer.concat(pending);
    emit(joined, 0, joined.length, false);
    onChunk();
  }
  stats.lines = index;
  if (stats.encoding !== 'windows-1252') {
    stats.encoding = stats.encoding === 'utf-8-bom' ? 'utf-8-bom' : sawNonAscii ? 'utf-8' : 'ascii';
  }
}
