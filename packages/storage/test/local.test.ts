import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createStorage } from '../src/index.ts';
import { storageContract } from './contract.ts';

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
