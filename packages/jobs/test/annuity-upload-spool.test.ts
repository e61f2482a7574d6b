import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '@portal/annuities/core';
import { annuityFiles } from '@portal/db';
import type { Storage } from '@portal/storage';
import { ENGLISH_HEADERS, rowsFrom, xlsxBuffer } from '../../annuities/test/support/workbooks.ts';
import { annuitiesJob, type AnnuityEngine, type CheckAnnuitiesDeps } from '../src/index.ts';
import { createAnnuityThreadEngine } from '../src/annuities/engine.ts';
import { createWorld, type World } from './world.ts';

let world: World;
let tempDir: string;
const thread = createAnnuityThreadEngine();
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  rmSync(tempDir, { recursive: true, force: true });
  await thread.close();
  await world.close();
});
beforeEach(() => {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = mkdtempSync(path.join(tmpdir(), 'annuity-spool-test-'));
});

/** The real engine thread, recording what it was given and whether that file existed while it ran. */
function recording(inner: AnnuityEngine = thread) {
  const seen: Array<{ input: unknown; existed: boolean }> = [];
  const engine: AnnuityEngine = (input, options) => {
    seen.push({ input, existed: !(input instanceof Uint8Array) && existsSync(input.path) });
    return inner(input, options);
  };
  return { engine, seen };
}

async function fileWith(bytes: Buffer, name = 'p.xlsx', extra: Partial<typeof annuityFiles.$inferInsert> = {}) {
  const key = `annuities/import/${randomUUID()}.xlsx`;
  await world.storage.put(key, bytes);
  const [file] = await world.database.db
    .insert(annuityFiles)
    .values({ ownerId: world.ownerId, importName: name, exportName: 'p_export.xlsx', importKey: key, size: bytes.length, sha256: 'x', ...extra })
    .returning();
  return file!;
}

async function run(fileId: string, engine: AnnuityEngine, storage: Storage = world.storage): Promise<void> {
  const deps = { db: world.database.db, storage, realtime: world.realtime, logger: world.logger, annuityEngine: engine, tempDir } as CheckAnnuitiesDeps;
  await annuitiesJob.processor(deps)({ fileId }, { jobId: `annuities-${fileId}`, attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });
}

async function row(fileId: string) {
  const [file] = await world.database.db.select().from(annuityFiles).where(eq(annuityFiles.id, fileId));
  return file!;
}

describe('annuity upload, streamed from storage to a temporary file for the engine thread', () => {
  it('gives the engine a path (not the bytes), checks the workbook, and removes the file after a success', async () => {
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 30)] }]);
    const file = await fileWith(bytes);
    const { engine, seen } = recording();
    await run(file.id, engine);
    expect(await row(file.id)).toMatchObject({ state: 'Done', rowsDone: 30, errorCode: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.input).toEqual({ path: expect.stringContaining(tempDir) as string });
    expect(seen[0]!.existed).toBe(true);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it.each([
    ['a truncated workbook', 'malformed_workbook', async () => (await xlsxBuffer([{ name: 'P', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 30)] }])).subarray(0, 2000)],
    ['a file that is not a zip', 'type_mismatch', () => Promise.resolve(Buffer.from('just some text, named .xlsx\n'.repeat(50)))],
  ])('refuses %s with the reader’s reason (%s) and removes the file', async (_what, reason, make) => {
    const file = await fileWith(await make());
    const { engine, seen } = recording();
    await run(file.id, engine);
    expect(await row(file.id)).toMatchObject({ state: 'Error', errorCode: reason });
    expect(seen).toHaveLength(1);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('refuses an upload past the upload limit as file_too_large while streaming, without starting the engine', async () => {
    const file = await fileWith(Buffer.alloc(DEFAULT_LIMITS.maxBytes + 1, 0x50));
    const { engine, seen } = recording();
    await run(file.id, engine);
    expect(await row(file.id)).toMatchObject({ state: 'Error', errorCode: 'file_too_large' });
    expect(seen).toHaveLength(0);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('removes the file when the attempt crashes (the engine fails), and the failure reaches the queue', async () => {
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 5)] }]);
    const file = await fileWith(bytes);
    const { engine, seen } = recording(() => Promise.reject(new Error('engine thread exited')));
    await expect(run(file.id, engine)).rejects.toThrow('engine thread exited');
    expect(seen[0]!.existed).toBe(true);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('removes the file when storage fails part way through the upload', async () => {
    const file = await fileWith(await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 5)] }]));
    // A stream that gives some bytes, then breaks (the connection to the store drops).
    const broken = Object.assign(Object.create(world.storage) as Storage, {
      get: () =>
        Promise.resolve(
          Readable.from(
            (async function* () {
              yield Buffer.alloc(64 * 1024, 1);
              throw Object.assign(new Error('storage connection reset'), { code: 'ECONNRESET' });
            })(),
          ),
        ),
    });
    const { engine, seen } = recording();
    await expect(run(file.id, engine, broken)).rejects.toThrow('storage connection reset');
    expect(seen).toHaveLength(0);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('rewrites a stale export from a temporary file too, and removes it', async () => {
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 12)] }]);
    const file = await fileWith(bytes);
    await run(file.id, thread);
    expect(await row(file.id)).toMatchObject({ state: 'Done' });
    await world.database.db.update(annuityFiles).set({ editVersion: 1 }).where(eq(annuityFiles.id, file.id));
    const { engine, seen } = recording();
    await run(file.id, engine);
    expect(await row(file.id)).toMatchObject({ exportVersion: 1 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.existed).toBe(true);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('removes the directories a killed worker left (its pid is gone, or is this process with no run holding them), not a live process’s', async () => {
    const leftover = (pid: number) => {
      const dir = path.join(tempDir, `portal-annuity-${pid}-${randomUUID()}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'upload.xlsx'), 'partial');
      return path.basename(dir);
    };
    leftover(2 ** 30); // above any pid Linux hands out: no such process
    leftover(process.pid); // a restart that reused the pid, or a run of this process that was cut short
    const live = leftover(process.ppid);
    const file = await fileWith(await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 5)] }]));
    await run(file.id, thread);
    expect(await row(file.id)).toMatchObject({ state: 'Done' });
    expect(readdirSync(tempDir)).toEqual([live]);
  });
});
