import type { Request } from 'express';
import busboy from 'busboy';
import { generateKey, StorageLimitError, type Storage } from '@portal/storage';
import type { RateLimiter } from '../security/login-limiter.ts';
import { AppError } from './errors.ts';
import type { StoredUpload } from '../domain/uploads.ts';

export { uploadHead, ZIP_MAGIC, type StoredUpload } from '../domain/uploads.ts';

export interface MultipartOptions {
  storage: Storage;
  /** Storage area of the generated keys, e.g. 'ledes/original'. */
  area: string;
  fileField: string[];
  maxFileBytes: number;
  maxFiles: number;
  allowedExtensions: readonly string[];
  /** The 415 of a file with another extension (default `wrong_extension`, the LEDES wording). */
  extensionError?: 'wrong_extension' | 'wrong_import_type' | 'wrong_receipt_type' | 'wrong_rate_file_type';
  /** Uploads per caller (counted before the body is read): 429 past the budget. */
  rateLimit?: { limiter: RateLimiter; key: string };
}

/**
 * After a refusal the rest of the body is read and thrown away (never buffered), so the client, still
 * sending, can read its answer; past this many bytes the connection is closed instead.
 */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Streams every file part straight into storage under a generated key (never the user's name),
 * bounded in size while streaming, and collects the text fields. The first failure (limit crossed,
 * bad part, truncated body, client gone, storage error) stops reading at once: the answer goes out
 * while the rest of the body is discarded, and the files already stored for this request are deleted,
 * so a refused upload leaves nothing behind.
 */
export async function receiveMultipart(req: Request, options: MultipartOptions): Promise<{ fields: Record<string, string>; files: StoredUpload[] }> {
  if (!req.is('multipart/form-data')) throw new AppError('unsupported_media_type');
  if (options.rateLimit) await options.rateLimit.limiter.consume(options.rateLimit.key);
  const declared = Number(req.get('content-length') ?? 0);
  // A body larger than every allowed file together cannot be valid: refuse before reading it.
  if (declared > options.maxFiles * options.maxFileBytes + 1024 * 1024) throw new AppError('payload_too_large');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 30, fieldSize: 16 * 1024, parts: options.maxFiles + 30 },
    });
  } catch {
    throw new AppError('validation_failed');
  }

  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const stored: StoredUpload[] = [];
  const pending: Array<Promise<void>> = [];
  let failure: AppError | undefined;

  await new Promise<void>((resolve) => {
    let stopped = false;
    const stop = (error?: AppError) => {
      failure ??= error;
      if (stopped) return;
      stopped = true;
      if (failure) {
        req.unpipe(parser);
        discardRest(req);
        // Deferred: busboy may be inside its own write here. Destroying it errors the open file
        // stream, so that file's storage write fails and removes what it had written.
        process.nextTick(() => parser.destroy());
      }
      resolve();
    };

    parser.on('field', (name, value) => {
      if (/^[a-z_]{1,40}$/.test(name)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // Every file stream gets a listener at once: busboy errors it when the body is cut short, and
      // an 'error' with no listener would crash the process.
      stream.on('error', () => stop(new AppError('validation_failed')));
      const originalName = (info.filename ?? '').normalize('NFC').slice(0, 255);
      const extension = originalName.includes('.') ? originalName.split('.').pop()!.toLowerCase() : '';
      if (!options.fileField.includes(name) || failure) {
        stream.resume();
        return;
      }
      if (!options.allowedExtensions.includes(extension)) {
        stream.resume();
        stop(new AppError(options.extensionError ?? 'wrong_extension'));
        return;
      }
      stream.on('limit', () => stop(new AppError('payload_too_large')));
      const key = generateKey(options.area, originalName || 'upload');
      pending.push(
        options.storage.put(key, stream, { maxBytes: options.maxFileBytes }).then(
          (result) => void stored.push({ key, originalName: originalName || 'upload', size: result.size, sha256: result.sha256 }),
          (error: unknown) => stop(error instanceof StorageLimitError ? new AppError('payload_too_large') : new AppError('service_unavailable')),
        ),
      );
    });
    parser.on('filesLimit', () => stop(new AppError('too_many_files')));
    parser.on('partsLimit', () => stop(new AppError('validation_failed')));
    // 'Unexpected end of form' (a body cut short) and malformed parts land here.
    parser.on('error', () => stop(new AppError('validation_failed')));
    parser.on('close', () => stop());
    // The client went away mid-body: no more bytes will come, and nobody will read the answer.
    req.on('close', () => {
      if (!req.complete) stop(new AppError('validation_failed'));
    });
    req.pipe(parser);
  });
  // Every storage write has settled (stored, or failed and cleaned up) before anything is deleted,
  // so no write can finish after the clean-up and leave an orphan.
  await Promise.allSettled(pending);

  if (failure) {
    await Promise.allSettled(stored.map((file) => options.storage.delete(file.key)));
    throw failure;
  }
  return { fields, files: stored };
}

/** Reads and drops the rest of a refused body without keeping it; closes the connection past DISCARD_MAX_BYTES. */
function discardRest(req: Request): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}
