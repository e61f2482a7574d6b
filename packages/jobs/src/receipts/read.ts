import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { RECEIPT_MANIFEST_NAMES, RECEIPT_ZIP_LIMITS, type ReceiptRefusal } from '@portal/contracts';
import { isPdf, startsWithAny, ZIP_SIGNATURES } from './kind.ts';
import type { ReceiptThreadMessage } from './protocol.ts';
import { EMPTY_REFERENCES, fromManifest, isEmpty, referencesFromText, type Manifest } from './references.ts';
import { readManifest } from './manifest.ts';
import { pdfText } from './pdf-text.ts';

/** The text of a receipt the matcher reads, at most (a receipt is a page or two). */
export const RECEIPT_TEXT_KEPT = 50_000;

type Post = (message: ReceiptThreadMessage) => Promise<void>;
type Limits = typeof RECEIPT_ZIP_LIMITS;

class UploadRefused extends Error {
  constructor(
    readonly code: string,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}
class EntryRefused extends Error {
  constructor(readonly code: ReceiptRefusal) {
    super(code);
  }
}

/** Archive signatures: zip (local header, empty, spanned), gzip, 7z, rar, bzip2, xz. */
const ARCHIVE_MAGICS = [
  ...ZIP_SIGNATURES,
  Buffer.from([0x50, 0x4b, 0x07, 0x08]),
  Buffer.from([0x1f, 0x8b]),
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
  Buffer.from('Rar!', 'latin1'),
  Buffer.from('BZh', 'latin1'),
  Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
];
const ARCHIVE_EXTENSIONS = new Set(['zip', 'rar', '7z', 'gz', 'tgz', 'tar', 'bz2', 'xz', 'jar', 'cab', 'iso', 'zipx', 'lz', 'lzma', 'z']);

export const isArchive = (bytes: Buffer) => startsWithAny(bytes, ARCHIVE_MAGICS);

/** Names that could mean a path outside the archive (zip slip, UP-12), or hide something: refused, never joined to any path. */
export function isUnsafeEntryName(name: string): boolean {
  return (
    name.length === 0 ||
    name.length > 1024 ||
    name.startsWith('/') ||
    name.includes('\\') ||
    /(^|\/)\.\.?(\/|$)/.test(name) ||
    /^[a-z]:/i.test(name) ||
    /[\u0000-\u001f\u007f]/.test(name) ||
    /[\uff0e\uff0f\uff3c\u2024\u2215]/.test(name)
  );
}

/** An entry's name as shown to people: printable, at most 200 characters (it is display only). */
export const displayName = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200) || '?';
const extensionOf = (name: string) => /\.([a-z0-9]{1,10})$/i.exec(name)?.[1]?.toLowerCase() ?? '';
const baseName = (name: string) => name.split('/').pop() ?? name;

/** A fresh buffer of its own (never a view into Node's pool), so it can be moved to another thread. */
function own(bytes: Buffer): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Reads one PDF's text; its references from the manifest first. */
async function describePdf(bytes: Buffer, name: string, manifest: Manifest | null) {
  const listed = manifest ? fromManifest(manifest, name) : null;
  let pdfError: string | null = null;
  let text = '';
  try {
    text = await pdfText(bytes);
  } catch (error) {
    pdfError = error instanceof Error && /password/i.test(error.name + error.message) ? 'encrypted_pdf' : 'unreadable_pdf';
  }
  text = text.slice(0, RECEIPT_TEXT_KEPT);
  if (listed && !isEmpty(listed)) return { references: listed, source: 'manifest' as const, pdfError, text };
  const found = pdfError ? EMPTY_REFERENCES : referencesFromText(text);
  return isEmpty(found) ? { references: EMPTY_REFERENCES, source: 'none' as const, pdfError, text } : { references: found, source: 'pdf_text' as const, pdfError, text };
}

/**
 * Goes through an upload: one PDF, or a zip whose entries become receipts (PDFs) or refusals (listed
 * with their reason). Entry count, every entry's inflated size and the total are bounded with running
 * counters (declared sizes are not trusted, UP-03); nested archives and other types are refused; a
 * PDF that cannot be read is still a receipt, with its error. Returns the final message.
 */
export async function readReceiptUpload(bytes: Buffer, kind: 'pdf' | 'zip', name: string, post: Post, limits: Limits = RECEIPT_ZIP_LIMITS): Promise<ReceiptThreadMessage> {
  try {
    if (kind === 'pdf') {
      await post({ type: 'total', entries: 1 });
      await post({ type: 'pdf', index: 0, name: displayName(baseName(name)), bytes: own(bytes), ...(await describePdf(bytes, name, null)) });
      return { type: 'done', ok: true };
    }
    await readZip(bytes, post, limits);
    return { type: 'done', ok: true };
  } catch (error) {
    if (error instanceof UploadRefused) return { type: 'done', ok: false, code: error.code, detail: error.message.slice(0, 200) };
    throw error;
  }
}

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are decoded here, not by yauzl: its name check would fail the whole archive, where one
    // unsafe entry is refused and listed and the others still read.
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false }, (err, zip) =>
      err ? reject(new UploadRefused('malformed_archive', err.message)) : resolve(zip),
    );
  });
}

/** An entry's name: UTF-8 when its flag says so or when it is valid UTF-8, else Latin-1 (display and checks only). */
function decodeName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  if (typeof raw === 'string') return raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

function centralDirectory(zip: yauzl.ZipFile, limits: Limits): Promise<yauzl.Entry[]> {
  if (zip.entryCount > limits.maxEntries) return Promise.reject(new UploadRefused('too_many_entries', `${zip.entryCount} entries`));
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.length >= limits.maxEntries) return reject(new UploadRefused('too_many_entries'));
      entry.fileName = decodeName(entry);
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) => reject(new UploadRefused('malformed_archive', error.message)));
    zip.readEntry();
  });
}

/** Inflates one entry under its own cap and the archive's running total; the CRC is checked (yauzl does not). */
async function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, cap: number, total: { inflated: number }, limits: Limits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let crc = 0;
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(new EntryRefused('corrupt_entry')) : resolve(s))),
  );
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        size += chunk.length;
        total.inflated += chunk.length;
        if (total.inflated > limits.maxInflatedBytes) return done(new UploadRefused('archive_too_large', 'inflated total'));
        if (size > cap) return done(new EntryRefused('entry_too_large'));
        crc = crc32(chunk, crc);
        chunks.push(chunk);
        done();
      },
    }),
  ).catch((error: unknown) => {
    if (error instanceof UploadRefused || error instanceof EntryRefused) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // yauzl: an entry inflating past its declared size ("too many bytes in the stream").
    throw new EntryRefused(/too many bytes|too large/i.test(message) ? 'entry_too_large' : 'corrupt_entry');
  });
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new EntryRefused('corrupt_entry');
  return Buffer.concat(chunks);
}

async function readZip(bytes: Buffer, post: Post, limits: Limits): Promise<void> {
  const zip = await openZip(bytes);
  try {
    const entries = await centralDirectory(zip, limits);
    // Declared sizes first (cheap, before anything is inflated); the running counters still decide.
    const declared = entries.reduce((sum, e) => sum + Math.min(e.uncompressedSize, limits.maxEntryBytes), 0);
    if (declared > limits.maxInflatedBytes) throw new UploadRefused('archive_too_large', 'declared sizes');
    const isManifest = (e: yauzl.Entry) => !e.fileName.includes('/') && (RECEIPT_MANIFEST_NAMES as readonly string[]).includes(e.fileName.toLowerCase());
    const files = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => !entry.fileName.endsWith('/') && !isManifest(entry));
    const total = { inflated: 0 };

    let manifest: Manifest | null = null;
    const manifestEntry = entries.find(isManifest);
    if (manifestEntry) {
      let raw: Buffer;
      try {
        raw = await inflate(zip, manifestEntry, limits.maxManifestBytes, total, limits);
      } catch (error) {
        if (error instanceof UploadRefused) throw error;
        throw new UploadRefused('unreadable_manifest', 'manifest could not be inflated');
      }
      manifest = await readManifest(raw, manifestEntry.fileName);
      if (!manifest) throw new UploadRefused('unreadable_manifest', manifestEntry.fileName);
    }

    await post({ type: 'total', entries: files.length });
    for (const { entry, index } of files) {
      const name = entry.fileName;
      const refuse = (code: ReceiptRefusal) => post({ type: 'refused', index, entry: displayName(name), code });
      if (isUnsafeEntryName(name)) {
        await refuse('unsafe_entry_name');
        continue;
      }
      if ((entry.generalPurposeBitFlag & 0x1) !== 0) {
        await refuse('encrypted_entry');
        continue;
      }
      const extension = extensionOf(name);
      if (ARCHIVE_EXTENSIONS.has(extension)) {
        await refuse('nested_archive');
        continue;
      }
      if (extension !== 'pdf') {
        await refuse('not_pdf');
        continue;
      }
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        await refuse('entry_too_large');
        continue;
      }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        await refuse('corrupt_entry');
        continue;
      }
      let content: Buffer;
      try {
        content = await inflate(zip, entry, limits.maxEntryBytes, total, limits);
      } catch (error) {
        if (error instanceof EntryRefused) {
          await refuse(error.code);
          continue;
        }
        throw error;
      }
      if (isArchive(content)) {
        await refuse('nested_archive');
        continue;
      }
      if (!isPdf(content)) {
        await refuse('not_pdf');
        continue;
      }
      await post({ type: 'pdf', index, name: displayName(baseName(name)), bytes: own(content), ...(await describePdf(content, name, manifest)) });
    }
  } finally {
    zip.close();
  }
}
