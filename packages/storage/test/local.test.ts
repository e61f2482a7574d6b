import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStorage } from '../src/index.ts';
import { collect, storageContract } from './contract.ts';

storageContract('local', async () => {
  const sandbox = await mkdtemp(path.join(os.tmpdir(), 'storage-local-'));
  const root = path.join(sandbox, 'root');
  const untouchableRoot = path.join(sandbox, 'never-created');
  return {
    storage: createStorage({ driver: 'local', root }),
    isReady: async () => existsSync(root),
    // Lists the whole sandbox, so a file escaping `root` or a leftover `.part` would show up.
    listAll: async () => (await readdir(sandbox, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(sandbox, path.join(entry.parentPath, entry.name)))
      .sort(),
    untouchable: createStorage({ driver: 'local', root: untouchableRoot }),
    untouchedStill: async () => !existsSync(untouchableRoot),
    teardown: () => rm(sandbox, { recursive: true, force: true }),
  };
});

describe('local storage listing', () => {
  it('walks folders in the byte order S3 and MinIO list keys in', async () => {
    const sandbox = await mkdtemp(path.join(os.tmpdir(), 'storage-local-order-'));
    try {
      const storage = createStorage({ driver: 'local', root: sandbox });
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
