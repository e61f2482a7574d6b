import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, CopyConditions, type BucketItem } from 'minio';
import { StorageNotFoundError } from '../errors.ts';
import { assertValidKey, assertValidPrefix, isValidKey } from '../keys.ts';
import { MeteringStream, toReadable, type Body } from '../metering.ts';
import type { ListOptions, PutOptions, PutResult, S3StorageConfig, Storage, StoredObject } from '../types.ts';

const NOT_FOUND_CODES = new Set(['NoSuchKey', 'NotFound', 'NoSuchObject']);

/** S3 / MinIO through the `minio` client. */
export class S3Storage implements Storage {
  readonly driver = 's3' as const;
  readonly #client: Client;
  readonly #bucket: string;
  readonly #region: string;
  readonly #spoolDir: string;

  constructor(config: S3StorageConfig) {
    this.#bucket = config.bucket;
    this.#region = config.region ?? 'us-east-1';
    this.#spoolDir = config.spoolDir ?? os.tmpdir();
    this.#client = new Client({
      endPoint: config.endPoint,
      port: config.port,
      useSSL: config.useSSL,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      region: this.#region,
      pathStyle: config.pathStyle ?? true,
    });
  }

  async ensureReady(): Promise<void> {
    if (await this.#client.bucketExists(this.#bucket)) return;
    try {
      await this.#client.makeBucket(this.#bucket, this.#region);
    } catch (error) {
      // Another node (API or worker starting at the same moment) created it between our check and
      // our call: MinIO says BucketAlreadyOwnedByYou, other S3 servers BucketAlreadyExists, which also
      // means a bucket of someone else's, so that case is ready only if these credentials can see it.
      const code = s3Code(error);
      if (code === 'BucketAlreadyOwnedByYou') return;
      if (code !== 'BucketAlreadyExists' || !(await this.#client.bucketExists(this.#bucket))) throw error;
    }
  }

  /**
   * The body is spooled to a temp file while hashed and metered, then sent with a known length.
   * Why: minio's multipart path never sees an error raised by the source stream (it would hang),
   * and a known length means an over-limit upload never reaches the bucket at all.
   */
  async put(key: string, body: Body, opts: PutOptions = {}): Promise<PutResult> {
    assertValidKey(key);
    const spool = path.join(this.#spoolDir, `portal-s3-${randomUUID()}.part`);
    const meter = new MeteringStream(opts.maxBytes);
    try {
      await pipeline(toReadable(body), meter, createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
      const metadata = opts.contentType ? { 'Content-Type': opts.contentType } : {};
      try {
        await this.#client.putObject(this.#bucket, key, createReadStream(spool), meter.size, metadata);
      } catch (error) {
        // A large object goes up as a multipart upload; one cut short leaves its parts in the bucket,
        // unlisted but stored. Best effort: the upload's own error is the one to report.
        await this.#client.removeIncompleteUpload(this.#bucket, key).catch(() => undefined);
        throw error;
      }
    } finally {
      // Never hides the upload's own error; a spool left by a full disk goes with the OS temp folder.
      await rm(spool, { force: true }).catch(() => undefined);
    }
    return { key, size: meter.size, sha256: meter.sha256 };
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      return await this.#client.getObject(this.#bucket, key);
    } catch (error) {
      throw notFoundOr(error, key);
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const info = await this.#client.statObject(this.#bucket, key);
      return { size: info.size };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.#client.removeObject(this.#bucket, key); // S3 DELETE is already idempotent
  }

  async copy(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    try {
      await this.#client.copyObject(this.#bucket, to, `/${this.#bucket}/${from}`, new CopyConditions());
    } catch (error) {
      throw notFoundOr(error, from);
    }
  }

  async *list({ prefix = '', startAfter = '' }: ListOptions = {}): AsyncIterable<StoredObject> {
    assertValidPrefix(prefix);
    assertValidPrefix(startAfter);
    // ListObjectsV2 pages lazily (1,000 keys per request), in byte order; stopping early stops paging.
    const listing = this.#client.listObjectsV2(this.#bucket, prefix, true, startAfter) as AsyncIterable<BucketItem>;
    for await (const item of listing) {
      if (item.name === undefined || !isValidKey(item.name)) continue; // keys not written through this port
      yield { key: item.name, size: item.size, lastModified: item.lastModified };
    }
  }
}

function s3Code(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function isNotFound(error: unknown): boolean {
  return NOT_FOUND_CODES.has(s3Code(error) ?? '');
}

function notFoundOr(error: unknown, key: string): unknown {
  return isNotFound(error) ? new StorageNotFoundError(key, { cause: error }) : error;
}
