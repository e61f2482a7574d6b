import type { Readable } from 'node:stream';
import type { Body } from './metering.ts';

export interface PutResult {
  key: string;
  size: number;
  /** Hex SHA-256 of the stored bytes, computed while streaming. */
  sha256: string;
}

export interface PutOptions {
  contentType?: string;
  /** The upload fails with StorageLimitError past this many bytes, and nothing is kept. */
  maxBytes?: number;
}

/** One stored object as a listing reports it. */
export interface StoredObject {
  key: string;
  size: number;
  /** When the object was last written, by the backend's clock (S3: whole seconds). */
  lastModified: Date;
}

export interface ListOptions {
  /** Only keys starting with this string (default: every key). */
  prefix?: string;
  /** Only keys after this one, so a long walk can resume where it stopped. */
  startAfter?: string;
}

export interface Storage {
  readonly driver: 'local' | 's3';
  /** local: create the root folder; s3: create the bucket when missing. Call once at boot. */
  ensureReady(): Promise<void>;
  put(key: string, body: Body, opts?: PutOptions): Promise<PutResult>;
  /** Rejects with StorageNotFoundError when the key does not exist. */
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /** Rejects with StorageNotFoundError when `from` does not exist. */
  copy(from: string, to: string): Promise<void>;
  /**
   * Every object under `prefix`, lazily, in ascending byte order of keys (as S3 lists them). Only
   * valid keys are listed. Rejects with InvalidKeyError when `prefix` or `startAfter` could not
   * start a valid key.
   */
  list(options?: ListOptions): AsyncIterable<StoredObject>;
}

export interface LocalStorageConfig {
  driver: 'local';
  /** Folder holding the objects; keys map to relative paths under it. */
  root: string;
}

export interface S3StorageConfig {
  driver: 's3';
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Path-style addressing (`host/bucket/key`), needed by MinIO and most self-hosted S3. Default true. */
  pathStyle?: boolean;
  /** Where uploads are spooled before being sent to S3. Default: the OS temp folder. */
  spoolDir?: string;
}

export type StorageConfig = LocalStorageConfig | S3StorageConfig;
