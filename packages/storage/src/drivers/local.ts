import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidKeyError, StorageNotFoundError } from '../errors.ts';
import { assertValidKey } from '../keys.ts';
import { MeteringStream, toReadable, type Body } from '../metering.ts';
import type { LocalStorageConfig, PutOptions, PutResult, Storage } from '../types.ts';

/** Objects as plain files under `root` (embedded mode). Content types are not persisted. */
export class LocalStorage implements Storage {
  readonly driver = 'local' as const;
  readonly #root: string;

  constructor(config: LocalStorageConfig) {
    this.#root = path.resolve(config.root);
  }

  async ensureReady(): Promise<void> {
    await mkdir(this.#root, { recursive: true });
  }

  async put(key: string, body: Body, opts: PutOptions = {}): Promise<PutResult> {
    const target = this.#pathFor(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write to a sibling temp file and rename: readers never see a partial object, and a failed
    // upload (limit, client abort) leaves nothing under the key.
    const temp = `${target}.${randomUUID()}.part`;
    const meter = new MeteringStream(opts.maxBytes);
    try {
      await pipeline(toReadable(body), meter, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { key, size: meter.size, sha256: meter.sha256 };
  }

  async get(key: string): Promise<Readable> {
    const file = this.#pathFor(key);
    try {
      // Opening first turns a missing file into a rejected promise rather than a later stream error.
      const handle = await open(file, 'r');
      return handle.createReadStream();
    } catch (error) {
      throw notFoundOr(error, key);
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.#pathFor(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathFor(key), { force: true });
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.#pathFor(from);
    const target = this.#pathFor(to);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await copyFile(source, target);
    } catch (error) {
      throw notFoundOr(error, from);
    }
  }

  /** Validated key → absolute path; the containment check is a second line behind isValidKey. */
  #pathFor(key: string): string {
    assertValidKey(key);
    const resolved = path.resolve(this.#root, key);
    if (!resolved.startsWith(this.#root + path.sep)) throw new InvalidKeyError();
    return resolved;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

function notFoundOr(error: unknown, key: string): unknown {
  return isMissing(error) ? new StorageNotFoundError(key, { cause: error }) : error;
}
