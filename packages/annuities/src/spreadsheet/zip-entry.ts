import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * An entry of a zip held in memory, inflated in large chunks. yauzl reads the central directory; its entry
 * streams go through its random-access reader 16 KB at a time with a transform of their own, ten times slower than
 * zlib on the same bytes (the 100,000-row sheet: 1.9 s against 0.17 s on one machine), so the bytes are inflated
 * here. The same checks hold: the data must lie inside the file, inflate past its declared size is refused at once,
 * and short of it at the end.
 */
export class ZipEntryError extends Error {}

/** The zip held in `bytes`, its central directory read entry by entry (`lazyEntries`); yauzl's refusals as `ZipEntryError`. */
export function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (err, zip) => (err ? reject(new ZipEntryError(err.message)) : resolve(zip)));
  });
}

/** Output chunks of 256 KiB: fewer callbacks than zlib's 16 KiB default, still far below a part's size. */
const INFLATE_CHUNK = 256 * 1024;

function entryData(bytes: Buffer, entry: yauzl.Entry): Buffer {
  const at = entry.relativeOffsetOfLocalHeader;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== 0x04034b50) throw new ZipEntryError(`no local header for ${entry.fileName}`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipEntryError(`${entry.fileName} runs past the end of the file`);
  return bytes.subarray(start, end);
}

/** The entry's bytes as they inflate. Throws `ZipEntryError`: "too many bytes" past the declared size, or zlib's refusal. */
export async function* inflateEntry(bytes: Buffer, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  const data = entryData(bytes, entry);
  let inflated = 0;
  if (entry.compressionMethod === 0) {
    for (let from = 0; from < data.length; from += INFLATE_CHUNK) {
      const chunk = data.subarray(from, Math.min(data.length, from + INFLATE_CHUNK));
      inflated += chunk.length;
      if (inflated > entry.uncompressedSize) throw new ZipEntryError(`too many bytes in ${entry.fileName}`);
      yield chunk;
    }
  } else if (entry.compressionMethod === 8) {
    const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    inflate.end(data);
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > entry.uncompressedSize) throw new ZipEntryError(`too many bytes in ${entry.fileName}`);
        yield chunk;
      }
    } catch (error) {
      throw error instanceof ZipEntryError ? error : new ZipEntryError(`${entry.fileName}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      inflate.destroy();
    }
  } else {
    throw new ZipEntryError(`compression ${entry.compressionMethod} in ${entry.fileName}`);
  }
  if (inflated !== entry.uncompressedSize) throw new ZipEntryError(`${entry.fileName} inflates to ${inflated} bytes, ${entry.uncompressedSize} declared`);
}
