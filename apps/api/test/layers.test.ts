import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles, workspaceEntries } from './support/import-graph.ts';

// The layer rules of decision 165. The import rules are lint rules (eslint.config.js); this file shows
// each fails on a deliberate violation. Import cycles are found here, over the TypeScript import graph.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The repository's lint configuration without type information: the import rules need none, and the file need not exist. */
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('layer rules (lint)', () => {
  it('a service (or any non-router module file) may not import http/ or express', async () => {
    expect(await restrictedImports('apps/api/src/modules/ledes/service.ts', "import { AppError } from '../../http/errors.ts';\nexport { AppError };\n")).toEqual([
      expect.stringContaining('plain arguments'),
    ]);
    expect(await restrictedImports('apps/api/src/modules/patents/notify.ts', "import type { Request } from 'express';\nexport type R = Request;\n")).toEqual([
      expect.stringContaining('plain arguments'),
    ]);
    expect(await restrictedImports('apps/api/src/domain/errors.ts', "import { requestLocale } from '../http/errors.ts';\nexport { requestLocale };\n")).toHaveLength(1);
    // The module-neutral homes are allowed, and a router may use the HTTP layer.
    expect(await restrictedImports('apps/api/src/modules/ledes/service.ts', "import { AppError } from '../../domain/errors.ts';\nexport { AppError };\n")).toEqual([]);
    expect(await restrictedImports('apps/api/src/modules/ledes/router.ts', "import { AppError } from '../../http/errors.ts';\nimport type { Request } from 'express';\nexport type R = [AppError, Request];\n")).toEqual([]);
  });

  it("a module may import another module only through its index.ts; outside code too", async () => {
    expect(await restrictedImports('apps/api/src/modules/receipts/service.ts', "import { readPatent } from '../patents/service.ts';\nexport { readPatent };\n")).toEqual([
      expect.stringContaining('public entry'),
    ]);
    expect(await restrictedImports('apps/api/src/modules/auth/router.ts', "import type { OutgoingMail } from '../mail/service.ts';\nexport type M = OutgoingMail;\n")).toEqual([
      expect.stringContaining('public entry'),
    ]);
    expect(await restrictedImports('apps/api/src/bootstrap.ts', "import { patentSocketRooms } from './modules/patents/live.ts';\nexport { patentSocketRooms };\n")).toEqual([
      expect.stringContaining('public entry'),
    ]);
    expect(await restrictedImports('apps/api/src/modules/receipts/service.ts', "import { readPatent } from '../patents/index.ts';\nimport { x } from './policy.ts';\nexport { readPatent, x };\n")).toEqual([]);
  });

  it('worker processes reach BullMQ and Redis through @portal/queue', async () => {
    expect(await restrictedImports('workers/src/entrypoints/job-scheduler.ts', "import { Queue } from 'bullmq';\nimport { Redis } from 'ioredis';\nexport { Queue, Redis };\n")).toHaveLength(2);
    expect(await restrictedImports('workers/src/entrypoints/job-scheduler.ts', "export { upsertSchedule } from '@portal/queue/redis';\n")).toEqual([]);
  });
});

describe('import cycles', () => {
  it('finds a type-only cycle (the fixture notify.ts <-> service.ts)', () => {
    const dir = path.join(root, 'apps/api/test/fixtures/import-cycle');
    const cycles = importCycles(importGraph(sourceFiles([dir])));
    expect(cycles.map((c) => c.map((f) => path.basename(f)))).toEqual([['notify.ts', 'service.ts']]);
  });

  it('none in the sources of the apps, the packages and the workers', () => {
    const packages = readdirSync(path.join(root, 'packages')).map((p) => path.join(root, 'packages', p, 'src'));
    const files = sourceFiles([path.join(root, 'apps/api/src'), path.join(root, 'apps/web/src'), path.join(root, 'workers/src'), ...packages]);
    expect(files.length).toBeGreaterThan(300);
    const cycles = importCycles(importGraph(files, workspaceEntries(root))).map((c) => c.map((f) => path.relative(root, f)));
    expect(cycles).toEqual([]);
  });
});
