import type { Request } from 'express';
import busboy from 'busboy';
import { generateKey, StorageLimitError, type Storage } from '@portal/storage';
import { AppError } from './errors.ts';

export interface StoredUpload {
  key: string;
  originalName: string;
  size: number;
  sha256: string;
}

export interface MultipartOptions {
  storage: Storage;
  /** Storage area of the generated keys, e.g. 'ledes/original'. */
  area: string;
  fileField: string[];
  maxFileBytes: number;
  maxFiles: number;
  allowedExtensions: readonly string[];
}

/**
 * Streams every file part straight into storage under a generated key (never the user's name),
 * bounded in size while streaming, and collects the text fields. On any failure the files already
 * stored for this request are deleted, so a refused upload leaves nothing behind.
 */
export async function receiveMultipart(req: Request, options: MultipartOptions): Promise<{ fields: Record<string, string>; files: StoredUpload[] }> {
  if (!req.is('multipart/form-data')) throw new AppError('unsupported_media_type');
  const declared = Number(req.get('content-length') ?? 0);
  // A body larger than every allowed file together cannot be valid: refuse before reading it.
  if (declared > options.maxFiles * options.maxFileBytes + 1024 * 1024) throw new AppError('payload_too_large');

  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const stored: StoredUpload[] = [];
  const pending: Array<Promise<void>> = [];
  let failure: AppError | undefined;
  const fail = (error: AppError) => {
    failure ??= error;
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // One byte over the limit reaches storage, whose own limit then refuses the file.
      limits: { fileSize: options.maxFileBytes + 1, files: options.maxFiles, fields: 30, fieldSize: 16 * 1024, parts: options.maxFiles + 30 },
    });
  } catch {
    throw new AppError('validation_failed');
  }

  await new Promise<void>((resolve) => {
    parser.on('field', (name, value) => {
      if (/^[a-z_]{1,40}$/.test(name)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const originalName = (info.filename ?? '').normalize('NFC').slice(0, 255);
      const extension = originalName.includes('.') ? originalName.split('.').pop()!.toLowerCase() : '';
      if (!options.fileField.includes(name) || failure) {
        stream.resume();
        return;
      }
      if (!options.allowedExtensions.includes(extension)) {
        fail(new AppError('wrong_extension'));
        stream.resume();
        return;
      }
      const key = generateKey(options.area, originalName || 'upload');
      pending.push(
        options.storage.put(key, stream, { maxBytes: options.maxFileBytes }).then(
          (result) => void stored.push({ key, originalName: originalName || 'upload', size: result.size, sha256: result.sha256 }),
          (error: unknown) => {
            stream.resume();
            fail(error instanceof StorageLimitError ? new AppError('payload_too_large') : new AppError('service_unavailable'));
          },
        ),
      );
    });
    parser.on('filesLimit', () => fail(new AppError('too_many_files')));
    parser.on('partsLimit', () => fail(new AppError('validation_failed')));
    parser.on('error', () => {
      fail(new AppError('validation_failed'));
      resolve();
    });
    parser.on('close', () => resolve());
    req.on('aborted', () => {
      fail(new AppError('validation_failed'));
      resolve();
    });
    req.pipe(parser);
  });
  await Promise.allSettled(pending);

  if (failure) {
    await Promise.allSettled(stored.map((file) => options.storage.delete(file.key)));
    throw failure;
  }
  return { fields, files: stored };
}
