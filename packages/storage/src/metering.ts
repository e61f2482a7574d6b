import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { StorageLimitError } from './errors.ts';

export type Body = Readable | Buffer | Uint8Array;

export function toReadable(body: Body): Readable {
  // Readable.from(buffer) would iterate byte by byte; wrap it in an array to emit one chunk.
  return body instanceof Readable ? body : Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
}

/**
 * Pass-through that hashes (SHA-256) and counts bytes as they flow, and fails with
 * StorageLimitError as soon as the count passes `maxBytes`, so an oversized upload is cut short
 * instead of being read to the end.
 */
export class MeteringStream extends Transform {
  size = 0;
  readonly #hash = createHash('sha256');
  #digest: string | undefined;

  constructor(private readonly maxBytes: number = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new StorageLimitError(this.maxBytes));
      return;
    }
    this.#hash.update(chunk);
    callback(null, chunk);
  }

  /** Hex digest; valid once the stream has finished. */
  get sha256(): string {
    this.#digest ??= this.#hash.digest('hex');
    return this.#digest;
  }
}
