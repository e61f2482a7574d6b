import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStorage, generateKey, StorageLimitError } from '../src/index.ts';
import { collect, storageContract } from './contract.ts';

storageContract('local', async () => {
  const sandbox = await mkdtemp(path.join(os.tmpdir(), 'storage-local-'));
  const root = path.join(sandbox, 'root');
  const untouchableRoot = path.join(sandbox, 'never-created');
  return {
    storage: await createStorage({ driver: 'local', root }),
    isReady: async () => existsSync(root),
    // Lists the whole sandbox, so a file escaping `root` or a leftover `.part` would show up.
    listAll: async () => (await readdir(sandbox, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(sandbox, path.join(entry.parentPath, entry.name)))
      .sort(),
    untouchable: await createStorage({ driver: 'local', root: untouchableRoot }),
    untouchedStill: async () => !existsSync(untouchableRoot),
    teardown: () => rm(sandbox, { recursive: true, force: true }),
  };
});

describe('local driver clean-up (issue 8: a refused or failed upload left `.part` files and empty folders)', () => {
  let sandbox: string;
  let root: string;
  beforeEach(async () => {
    sandbox = await mkdtemp(path.join(os.tmpdir(), 'storage-local-cleanup-'));
    root = path.join(sandbox, 'root');
  });
  afterEach(() => rm(sandbox, { recursive: true, force: true }));

  const everything = async () => (await readdir(root, { recursive: true })).sort();

  it('a write that fails mid-upload leaves no .part file and no empty folder', async () => {
    const storage = await createStorage({ driver: 'local', root });
    await storage.ensureReady();
    const body = new Readable({ read() {} });
    body.push(Buffer.alloc(256 * 1024, 1));
    setImmediate(() => body.destroy(new Error('disk turned read-only')));
    await expect(storage.put(generateKey('ledes/original', 'big.txt'), body)).rejects.toThrow('disk turned read-only');
    expect(await everything()).toEqual([]);
  });

  it('a write the disk refuses mid-upload (EFBIG under a file-size limit) leaves no .part file and no empty folder', async () => {
    // A child process under `ulimit -f`: the kernel refuses writes past 256 KiB, as a full or
    // read-only disk would refuse them, while this (root) test process cannot be denied by permissions.
    const script = `
      import { readdirSync } from 'node:fs';
      import { Readable } from 'node:stream';
import { promisify } from 'node:util';
      import { createStorage, generateKey } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};
      const root = ${JSON.stringify(root)};
      const storage = await createStorage({ driver: 'local', root });
      await storage.ensureReady();
      const body = Readable.from((function* () { for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 1); })());
      const error = await storage.put(generateKey('ledes/original', 'big.txt'), body).then(() => null, (e) => e.code);
      console.log(JSON.stringify({ error, left: readdirSync(root, { recursive: true }) }));
    `;
    const { stdout } = await promisify(execFile)('sh', ['-c', 'ulimit -f 512 && exec "$NODE" --import tsx --input-type=module -e "$SCRIPT"'], {
      env: { ...process.env, NODE: process.execPath, SCRIPT: script },
    });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ error: 'EFBIG', left: [] });
  });

  it('a refused (over the limit) upload leaves no empty folder', async () => {
    const storage = await createStorage({ driver: 'local', root });
    await storage.ensureReady();
    await expect(storage.put(generateKey('ledes/original', 'big.txt'), Readable.from([Buffer.alloc(2048)]), { maxBytes: 1024 })).rejects.toBeInstanceOf(StorageLimitError);
    expect(await everything()).toEqual([]);
  });

  it('delete removes the folders its key created, and keeps folders other objects still use', async () => {
    const storage = await createStorage({ driver: 'local', root });
    await storage.ensureReady();
    const kept = generateKey('ledes/original', 'kept.txt');
    const removed = generateKey('ledes/original', 'removed.txt');
    await storage.put(kept, Buffer.from('a'));
    await storage.put(removed, Buffer.from('b'));
    await storage.delete(removed);
    expect((await everything()).filter((entry) => entry.includes(removed.split('/')[4]!))).toEqual([]);
    expect(await storage.stat(kept)).toEqual({ size: 1 });
    await storage.delete(kept);
    expect(await everything()).toEqual([]);
  });

  it('concurrent puts and deletes in one folder never fail for a folder pruned in between', async () => {
    const storage = await createStorage({ driver: 'local', root });
    await storage.ensureReady();
    const keys = Array.from({ length: 200 }, (_, i) => `area/shared/${i}.txt`);
    await Promise.all(keys.map(async (key) => {
      await storage.put(key, Buffer.from(key));
      await storage.delete(key);
      await storage.put(key, Buffer.from(key));
    }));
    for (const key of keys) expect(await storage.stat(key)).not.toBeNull();
  });
});


describe('local storage listing', () => {
  it('walks folders in the byte order S3 and MinIO list keys in', async () => {
    const sandbox = await mkdtemp(path.join(os.tmpdir(), 'storage-local-order-'));
    try {
      const storage = await createStorage({ driver: 'local', root: sandbox });
      // '-' (0x2d) and '.' (0x2e) sort before '/' (0x2f): a folder comes after its dotted namesakes.
      for (const key of ['a/x.txt', 'a.txt', 'a-c.txt', 'b.txt', 'a/y/z.txt']) await storage.put(key, Buffer.from(key));
      expect((await collect(storage.list())).map((o) => o.key)).toEqual(['a-c.txt', 'a.txt', 'a/x.txt', 'a/y/z.txt', 'b.txt']);
      expect((await collect(storage.list({ startAfter: 'a.txt' }))).map((o) => o.key)).toEqual(['a/x.txt', 'a/y/z.txt', 'b.txt']);
      expect((await collect(storage.list({ startAfter: 'a/x.txt' }))).map((o) => o.key)).toEqual(['a/y/z.txt', 'b.txt']);
      expect((await collect(storage.list({ prefix: 'a' }))).map((o) => o.key)).toEqual(['a-c.txt', 'a.txt', 'a/x.txt', 'a/y/z.txt']);
    } finally {
      await rm(sandbox, { recursive: true, force: true });
    }
  });
});
