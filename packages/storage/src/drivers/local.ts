import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidKeyError, StorageNotFoundError } from '../errors.ts';
import { assertValidKey, assertValidPrefix, isValidKey } from '../keys.ts';
import { MeteringStream, toReadable, type Body } from '../metering.ts';
import type { ListOptions, LocalStorageConfig, PutOptions, PutResult, Storage, StoredObject } from '../types.ts';

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
    // Write to a sibling temp file and rename: readers never see a partial object, and a failed
    // upload (limit, client abort, disk error) leaves nothing under the key: no `.part`, no empty folder.
    const temp = `${target}.${randomUUID()}.part`;
    const meter = new MeteringStream(opts.maxBytes);
    const source = toReadable(body);
    // The body may fail while the folder and file are being created, before the pipeline listens:
    // without a listener that 'error' would crash the process. The pipeline still sees the error.
    source.on('error', () => {});
    try {
      const file = await this.#inFolder(temp, () => open(temp, 'wx'));
      await pipeline(source, meter, file.createWriteStream());
      await rename(temp, target);
    } catch (error) {
      await this.#remove(temp);
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
    const file = this.#pathFor(key);
    await rm(file, { force: true });
    await this.#pruneEmptyFolders(file);
  }

  /** Like put: through a sibling temp file, so a key exists only once its copy is complete. */
  async copy(from: string, to: string): Promise<void> {
    const source = this.#pathFor(from);
    const target = this.#pathFor(to);
    const temp = `${target}.${randomUUID()}.part`;
    try {
      await this.#inFolder(temp, () => copyFile(source, temp));
      await rename(temp, target);
    } catch (error) {
      await this.#remove(temp);
      throw notFoundOr(error, from);
    }
  }

  async *list({ prefix = '', startAfter = '' }: ListOptions = {}): AsyncIterable<StoredObject> {
    assertValidPrefix(prefix);
    assertValidPrefix(startAfter);
    yield* this.#walk('', prefix, startAfter);
  }

  /**
   * Depth-first walk of the folder holding keys starting with `folder` ('' or ending with '/').
   * Sorting a directory's entries with a '/' after folder names yields keys in byte order, the
   * order S3 lists them in ('a-b' < 'a.txt' < 'a/x'); folders that cannot hold a wanted key are skipped.
   */
  async *#walk(folder: string, prefix: string, startAfter: string): AsyncGenerator<StoredObject> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.#root, folder), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return; // no root yet, or a folder removed during the walk
      throw error;
    }
    const named = entries
      .filter((entry) => entry.isFile() || entry.isDirectory()) // symlinks are never followed
      .map((entry) => ({ isFolder: entry.isDirectory(), name: `${folder}${entry.name}${entry.isDirectory() ? '/' : ''}` }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { isFolder, name } of named) {
      if (isFolder) {
        if (folderMayHold(name, prefix, startAfter)) yield* this.#walk(name, prefix, startAfter);
        continue;
      }
      if (!name.startsWith(prefix) || name <= startAfter || !isValidKey(name)) continue;
      let info;
      try {
        info = await stat(path.join(this.#root, name));
      } catch (error) {
        if (isMissing(error)) continue; // deleted since the folder was read
        throw error;
      }
      yield { key: name, size: info.size, lastModified: info.mtime };
    }
  }


  /**
   * Creates `file`'s folder, then runs `write`. A concurrent delete may prune that folder in between
   * (it was empty for a moment), so a write that finds its folder gone creates it again.
   */
  async #inFolder<T>(file: string, write: () => Promise<T>): Promise<T> {
    const folder = path.dirname(file);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await mkdir(folder, { recursive: true });
        return await write();
      } catch (error) {
        if (attempt >= 5 || !isMissing(error)) throw error;
      }
    }
  }

  /**
   * Best-effort clean-up after a failed write: it must not hide the write's own error, and on a disk
   * that turned read-only it cannot succeed anyway (the periodic clean-up catches what is left).
   */
  async #remove(file: string): Promise<void> {
    try {
      await rm(file, { force: true });
      await this.#pruneEmptyFolders(file);
    } catch {
      // keep the original error
    }
  }

  /** Removes the folders a key created (`…/<uuid>/`, then up) as long as they are empty, never `root` itself. */
  async #pruneEmptyFolders(file: string): Promise<void> {
    for (let folder = path.dirname(file); folder.startsWith(this.#root + path.sep); folder = path.dirname(folder)) {
      try {
        await rmdir(folder);
      } catch {
        return; // not empty (another object lives there), or already gone
      }
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

/** Whether a folder (its key prefix, ending with '/') can hold a valid key after `startAfter` starting with `prefix`. */
function folderMayHold(folder: string, prefix: string, startAfter: string): boolean {
  if (!isValidKey(folder.slice(0, -1))) return false;
  if (!folder.startsWith(prefix) && !prefix.startsWith(folder)) return false;
  // Past startAfter, unless startAfter lies inside this folder: then only some of its keys are.
  return folder > startAfter || startAfter.startsWith(folder);
}
