import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidKeyError,
  StorageLimitError,
  StorageNotFoundError,
  generateKey,
  type Storage,
} from '../src/index.ts';

export interface ContractFixture {
  /** A storage whose backing place (folder or bucket) does not exist yet. */
  storage: Storage;
  /** Whether the backing place exists (root folder / bucket). */
  isReady(): Promise<boolean>;
  /** Every key physically present, including temp/partial files, to prove nothing is left behind. */
  listAll(): Promise<string[]>;
  /** Same driver pointed at a place that must never be touched (missing folder / closed port). */
  untouchable: Storage;
  /** True when `untouchable` has not been touched (e.g. its folder still does not exist). */
  untouchedStill(): Promise<boolean>;
  teardown(): Promise<void>;
}

export const TRAVERSAL_CORPUS: readonly string[] = [
  '../secret',
  'a/../../secret',
  '..%2fsecret',
  '%2e%2e%2fsecret',
  '..\\secret',
  'a\\..\\..\\secret',
  '/etc/passwd',
  'a/\u0000b',
  '．．／secret',
  './a/../b',
  'a//b',
  'a/./b',
  'a/',
  '',
  '..',
  'x'.repeat(2048),
];

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function chunked(data: Buffer, chunkSize: number): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += chunkSize) chunks.push(data.subarray(offset, offset + chunkSize));
  return Readable.from(chunks);
}

export function storageContract(name: string, createFixture: () => Promise<ContractFixture>): void {
  describe(`${name} storage contract: start-up`, () => {
    // A fixture of its own: the other tests need a ready storage whatever order they run in.
    let fresh: ContractFixture;
    beforeAll(async () => {
      fresh = await createFixture();
    });
    afterAll(async () => {
      await fresh?.teardown();
    });

    it('ensureReady creates the backing folder/bucket and is idempotent', async () => {
      expect(await fresh.isReady()).toBe(false);
      await fresh.storage.ensureReady();
      expect(await fresh.isReady()).toBe(true);
      await fresh.storage.ensureReady();
      expect(await fresh.isReady()).toBe(true);
    });
  });

  describe(`${name} storage contract`, () => {
    let fx: ContractFixture;
    let storage: Storage;

    beforeAll(async () => {
      fx = await createFixture();
      storage = fx.storage;
      await storage.ensureReady();
    });
    afterAll(async () => {
      await fx?.teardown();
    });

    it('round-trips a streamed body and reports size and sha256', async () => {
      const data = randomBytes(300_000);
      const key = generateKey('test', 'Relevé annuités 2026.xlsx');
      const result = await storage.put(key, chunked(data, 16_384), {
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      });
      expect(result).toEqual({ key, size: data.length, sha256: sha256(data) });
      expect(await buffer(await storage.get(key))).toEqual(data);
      expect(await storage.stat(key)).toEqual({ size: data.length });
    });

    it('accepts Buffer and Uint8Array bodies', async () => {
      const data = Buffer.from('INVOICE_DATE|INVOICE_NUMBER[]\n', 'utf8');
      const fromBuffer = await storage.put('test/buffer.txt', data);
      expect(fromBuffer.sha256).toBe(sha256(data));
      const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      const fromView = await storage.put('test/view.txt', view);
      expect(fromView).toMatchObject({ size: data.length, sha256: sha256(data) });
      expect((await buffer(await storage.get('test/view.txt'))).toString('utf8')).toBe(data.toString('utf8'));
    });

    it('stores an empty body', async () => {
      const result = await storage.put('test/empty.txt', Buffer.alloc(0));
      expect(result).toEqual({ key: 'test/empty.txt', size: 0, sha256: sha256(Buffer.alloc(0)) });
      expect(await storage.stat('test/empty.txt')).toEqual({ size: 0 });
    });

    it('accepts a body of exactly maxBytes', async () => {
      const data = randomBytes(1024);
      await expect(storage.put('test/exact.bin', chunked(data, 100), { maxBytes: 1024 })).resolves.toMatchObject({ size: 1024 });
    });

    it('aborts a streamed body larger than maxBytes and leaves nothing behind', async () => {
      const before = await fx.listAll();
      let produced = 0;
      // An endless source proves the upload is cut short rather than read to the end.
      const endless = new Readable({
        read() {
          produced += 65_536;
          this.push(randomBytes(65_536));
        },
      });
      const key = 'test/too-big.bin';
      await expect(storage.put(key, endless, { maxBytes: 200_000 })).rejects.toBeInstanceOf(StorageLimitError);
      expect(produced).toBeLessThan(2_000_000);
      expect(await storage.stat(key)).toBeNull();
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await fx.listAll()).toEqual(before);
    });

    it('rejects an oversized Buffer body too', async () => {
      await expect(storage.put('test/big-buffer.bin', Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(StorageLimitError);
      expect(await storage.stat('test/big-buffer.bin')).toBeNull();
    });

    it('reports a missing key: get throws StorageNotFoundError, stat returns null, delete succeeds', async () => {
      await expect(storage.get('test/missing.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.get('nowhere/at/all.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.stat('test/missing.txt')).toBeNull();
      await expect(storage.delete('test/missing.txt')).resolves.toBeUndefined();
      await expect(storage.copy('test/missing.txt', 'test/copy.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('copies and deletes', async () => {
      const data = Buffer.from('annuity', 'utf8');
      await storage.put('test/original.txt', data);
      await storage.copy('test/original.txt', 'archive/2026/copy.txt');
      expect(await buffer(await storage.get('archive/2026/copy.txt'))).toEqual(data);
      await storage.delete('test/original.txt');
      expect(await storage.stat('test/original.txt')).toBeNull();
      expect(await storage.stat('archive/2026/copy.txt')).toEqual({ size: data.length });
    });

    it('lists the keys under a prefix in key order with size and last-modified, and resumes after a key', async () => {
      const before = Date.now();
      const keys = ['list/d.txt', 'list/b.txt', 'list/a/x.txt', 'list/c/d/e.txt', 'listing/z.txt']; // written out of order
      for (const key of keys) await storage.put(key, Buffer.from(key));
      const listed = await collect(storage.list({ prefix: 'list/' }));
      expect(listed.map((o) => o.key)).toEqual(['list/a/x.txt', 'list/b.txt', 'list/c/d/e.txt', 'list/d.txt']);
      for (const object of listed) {
        expect(object.size).toBe(Buffer.byteLength(object.key));
        expect(object.lastModified).toBeInstanceOf(Date);
        // Generous: only proves the stamp is the write time, not some other date (S3 keeps whole seconds).
        expect(Math.abs(object.lastModified.getTime() - before)).toBeLessThan(10 * 60_000);
      }
      const resumed = await collect(storage.list({ prefix: 'list/', startAfter: 'list/b.txt' }));
      expect(resumed.map((o) => o.key)).toEqual(['list/c/d/e.txt', 'list/d.txt']);
      expect((await collect(storage.list())).map((o) => o.key)).toEqual(expect.arrayContaining([...keys, 'test/empty.txt']));
      expect(await collect(storage.list({ prefix: 'nothing-here/' }))).toEqual([]);
      for (const key of keys) await storage.delete(key);
    });

    it('refuses a listing prefix or resume point that no valid key could start with', async () => {
      for (const bad of ['../', '/etc', 'a//', 'a\\b', '%2e%2e%2f', 'a/\u0000', '．．／']) {
        await expect(collect(storage.list({ prefix: bad })), JSON.stringify(bad)).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(collect(storage.list({ startAfter: bad }))).rejects.toBeInstanceOf(InvalidKeyError);
      }
      expect(await fx.untouchedStill()).toBe(true);
    });

    it('rejects the traversal corpus in every method without touching the backend', async () => {
      const before = await fx.listAll();
      for (const target of [storage, fx.untouchable]) {
        for (const bad of TRAVERSAL_CORPUS) {
          await expect(target.put(bad, Buffer.from('x')), JSON.stringify(bad)).rejects.toBeInstanceOf(InvalidKeyError);
          await expect(target.get(bad)).rejects.toBeInstanceOf(InvalidKeyError);
          await expect(target.stat(bad)).rejects.toBeInstanceOf(InvalidKeyError);
          await expect(target.delete(bad)).rejects.toBeInstanceOf(InvalidKeyError);
          await expect(target.copy(bad, 'test/ok.txt')).rejects.toBeInstanceOf(InvalidKeyError);
          await expect(target.copy('test/ok.txt', bad)).rejects.toBeInstanceOf(InvalidKeyError);
        }
      }
      expect(await fx.listAll()).toEqual(before);
      expect(await fx.untouchedStill()).toBe(true);
    });
  });
}
