import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { constants, crc32, createDeflateRaw, type DeflateRaw, type ZlibOptions } from 'node:zlib';

interface CentralRecord {
  readonly name: Buffer;
  readonly offset: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
}

// 1980-01-01 00:00 in DOS format: exports are reproducible byte for byte.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const FLAGS = 0x0808; // bit 3: sizes in a data descriptor; bit 11: UTF-8 names
const LIMIT = 0xffff_ffff;
/** Bytes an entry's writer may hand over before it waits for the deflater. */
const WRITE_AHEAD = 4 << 20;

function outputError(out: Writable): Error {
  return out.errored ?? new Error('output stream closed before the end of the zip');
}

function writeOrThrow(out: Writable, chunk: Buffer): boolean {
  if (out.destroyed || out.errored) throw outputError(out);
  return out.write(chunk);
}

/** Waits for 'drain', failing if the stream errors or closes first (or already has). */
function drainOrThrow(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.destroyed || out.errored) {
      reject(outputError(out));
      return;
    }
    const settle = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('error', onFail);
      out.off('close', onFail);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onFail = () => settle(outputError(out));
    out.on('drain', onDrain);
    out.on('error', onFail);
    out.on('close', onFail);
  });
}

/**
 * Minimal streaming zip writer (deflate, data descriptors, no zip64): enough for an xlsx package
 * and small enough to audit. Entries are written one after the other.
 */
export class ZipWriter {
  private offset = 0;
  private readonly records: CentralRecord[] = [];
  private entry: { name: Buffer; start: number; crc: number; size: number; compressed: number; deflate: DeflateRaw; done: Promise<unknown> } | null = null;

  constructor(
    private readonly out: Writable,
    private readonly level = constants.Z_DEFAULT_COMPRESSION,
  ) {}

  private async emit(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (this.offset > LIMIT) throw new Error('export larger than 4 GiB');
    if (!writeOrThrow(this.out, chunk)) await drainOrThrow(this.out);
  }

  async startEntry(fileName: string): Promise<void> {
    if (this.entry) throw new Error('previous entry still open');
    const name = Buffer.from(fileName, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt16LE(name.length, 26);
    const start = this.offset;
    await this.emit(Buffer.concat([header, name]));
    // 256 KiB output pieces (16 KiB by default): one callback and one downstream write for most input pieces.
    // Up to 4 MiB may wait for the deflater (16 KiB by default): with the default, every write of a
    // 256 KiB buffer waited until deflate had read all of it, so building rows and compressing them
    // took turns instead of running side by side (deflate runs on libuv's pool). zlib passes the
    // option on to its Transform; Node's types do not list it.
    const options: ZlibOptions & { writableHighWaterMark: number } = { level: this.level, chunkSize: 256 * 1024, writableHighWaterMark: WRITE_AHEAD };
    const deflate = createDeflateRaw(options);
    const entry = { name, start, crc: 0, size: 0, compressed: 0, deflate, done: Promise.resolve() as Promise<unknown> };
    // An output that fails or closes mid-entry fails the deflater, and with it every pending write
    // and endEntry(): the caller sees the error instead of waiting for a 'drain' that never comes.
    const abort = () => deflate.destroy(outputError(this.out));
    this.out.on('error', abort);
    this.out.on('close', abort);
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      if (this.out.destroyed) abort();
      else if (!this.out.write(chunk)) {
        deflate.pause();
        this.out.once('drain', () => deflate.resume());
      }
    });
    entry.done = finished(deflate).finally(() => {
      this.out.off('error', abort);
      this.out.off('close', abort);
    });
    // Handled here so a failure before endEntry() is not an unhandled rejection; endEntry() rethrows it.
    entry.done.catch(() => {});
    if (this.out.destroyed) abort();
    this.entry = entry;
  }

  /** Append to the open entry; resolves once the deflater can take more. */
  async write(data: string | Buffer): Promise<void> {
    const entry = this.entry;
    if (!entry) throw new Error('no open entry');
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    entry.crc = crc32(buf, entry.crc);
    entry.size += buf.length;
    if (entry.size > LIMIT) throw new Error('entry larger than 4 GiB');
    if (!writeOrThrow(entry.deflate, buf)) await drainOrThrow(entry.deflate);
  }

  async endEntry(): Promise<void> {
    const entry = this.entry;
    if (!entry) throw new Error('no open entry');
    entry.deflate.end();
    await entry.done;
    this.entry = null;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.emit(descriptor);
    this.records.push({ name: entry.name, offset: entry.start, crc: entry.crc >>> 0, compressed: entry.compressed, size: entry.size });
  }

  async addEntry(fileName: string, content: string): Promise<void> {
    await this.startEntry(fileName);
    await this.write(content);
    await this.endEntry();
  }

  /** Central directory and end record; the caller ends `out`. */
  async finish(): Promise<void> {
    if (this.entry) throw new Error('entry still open');
    const start = this.offset;
    for (const r of this.records) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(FLAGS, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(DOS_TIME, 12);
      h.writeUInt16LE(DOS_DATE, 14);
      h.writeUInt32LE(r.crc, 16);
      h.writeUInt32LE(r.compressed, 20);
      h.writeUInt32LE(r.size, 24);
      h.writeUInt16LE(r.name.length, 28);
      h.writeUInt32LE(r.offset, 42);
      await this.emit(Buffer.concat([h, r.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.records.length, 8);
    end.writeUInt16LE(this.records.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.emit(end);
  }
}
