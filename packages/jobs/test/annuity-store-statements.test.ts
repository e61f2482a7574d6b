import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annuityFiles, annuityPatents, openDatabase, users, type Database, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds, testPgliteConfig } from '@portal/db/testing';
import { createLogger } from '@portal/logger';
import { createInProcessPublisher } from '@portal/realtime';
import { createStorage, type Storage } from '@portal/storage';
import { ENGLISH_HEADERS, rowsFrom, xlsxBuffer } from '../../annuities/test/support/workbooks.ts';
import { annuitiesJob, EMBEDDED_INSERT_ROWS, PATENT_BATCH, PATENT_INSERT_ROWS, type CheckAnnuitiesDeps } from '../src/index.ts';
import { createAnnuityThreadEngine } from '../src/annuities/engine.ts';

const thread = createAnnuityThreadEngine();
afterAll(() => thread.close());

/** `db` with its `execute` calls (the rows' insert statements) counted while they run. */
function counting(db: Database) {
  const seen = { inFlight: 0, most: 0, statements: 0 };
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'execute') {
        return async (query: Parameters<Database['execute']>[0]) => {
          seen.statements++;
          seen.most = Math.max(seen.most, ++seen.inFlight);
          try {
            return await target.execute(query);
          } finally {
            seen.inFlight--;
          }
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, seen };
}

/** A workbook of `rows` rows stored and its file row written, as the upload route leaves them. */
async function uploadFile(db: Database, storage: Storage, ownerId: string, rows: number) {
  const key = `annuities/import/${randomUUID()}.xlsx`;
  await storage.put(key, await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, rows)] }]));
  const [file] = await db
    .insert(annuityFiles)
    .values({ ownerId, importName: 'p.xlsx', exportName: 'p_export.xlsx', importKey: key, size: 1, sha256: 'x' })
    .returning();
  return file!;
}

/** The annuities job's processor on `fileId`, as a worker runs it. */
function runCheck(db: Database, storage: Storage, tempDir: string, fileId: string, signal = new AbortController().signal) {
  const deps = { db, storage, realtime: createInProcessPublisher(), logger: createLogger({ level: 'silent', name: 'test' }), annuityEngine: thread, tempDir } as CheckAnnuitiesDeps;
  return annuitiesJob.processor(deps)({ fileId }, { jobId: `annuities-${fileId}`, attempt: 1, signal, updateProgress: async () => {}, log: () => {} });
}

describe.each(testDatabaseKinds())('an annuity file’s rows, stored batch by batch (%s)', (kind) => {
  let handle: DatabaseHandle;
  let storage: Storage;
  let root: string;
  let ownerId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    root = mkdtempSync(path.join(tmpdir(), 'annuity-statements-test-'));
    storage = await createStorage({ driver: 'local', root: path.join(root, 'files') });
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Firm', email: `statements-${kind}@portal.test` }).returning();
    ownerId = owner!.id;
  });
  afterAll(async () => {
    await handle.close();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    kind === 'postgres'
      ? 'runs a batch’s statements at once on PostgreSQL (each backend keeps up the indexes for its rows) and stores every row once'
      : 'sends a batch’s smaller statements at once on PGlite (they queue in the background lane of its thread, decision 185) and stores every row once',
    async () => {
      const rows = 2 * PATENT_BATCH + 37;
      const file = await uploadFile(handle.db, storage, ownerId, rows);
      const { db, seen } = counting(handle.db);
      await runCheck(db, storage, root, file.id);

      const [done] = await handle.db.select().from(annuityFiles).where(eq(annuityFiles.id, file.id));
      expect(done).toMatchObject({ state: 'Done', rowsDone: rows });
      const stored = await handle.db.select({ rowIndex: annuityPatents.rowIndex }).from(annuityPatents).where(eq(annuityPatents.fileId, file.id)).orderBy(asc(annuityPatents.rowIndex));
      expect(stored.map((r) => r.rowIndex)).toEqual(Array.from({ length: rows }, (_, i) => i));
      const perStatement = kind === 'postgres' ? PATENT_INSERT_ROWS : EMBEDDED_INSERT_ROWS;
      expect(seen.statements).toBeGreaterThanOrEqual(Math.ceil(rows / perStatement));
      expect(seen.most).toBe(PATENT_BATCH / perStatement);
    },
  );
});

describe('an annuity file’s rows on the embedded database’s thread, sent by the engine thread (decision 232)', () => {
  let handle: DatabaseHandle;
  let storage: Storage;
  let root: string;
  let ownerId: string;

  beforeAll(async () => {
    handle = openDatabase({ ...testPgliteConfig(), thread: true });
    await handle.migrate();
    root = mkdtempSync(path.join(tmpdir(), 'annuity-direct-test-'));
    storage = await createStorage({ driver: 'local', root: path.join(root, 'files') });
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Firm', email: 'direct@portal.test' }).returning();
    ownerId = owner!.id;
  });
  afterAll(async () => {
    await handle.close();
    rmSync(root, { recursive: true, force: true });
  });

  const upload = (rows: number) => uploadFile(handle.db, storage, ownerId, rows);
  const run = (db: Database, fileId: string, signal?: AbortSignal) => runCheck(db, storage, root, fileId, signal);

  it('stores every row once, in order, and none passes through the main thread’s statements', async () => {
    const rows = 2 * PATENT_BATCH + 37;
    const file = await upload(rows);
    const { db, seen } = counting(handle.db);
    await run(db, file.id);
    const [done] = await handle.db.select().from(annuityFiles).where(eq(annuityFiles.id, file.id));
    expect(done).toMatchObject({ state: 'Done', rowsDone: rows, rowsTotal: rows });
    const stored = await handle.db.select({ rowIndex: annuityPatents.rowIndex }).from(annuityPatents).where(eq(annuityPatents.fileId, file.id)).orderBy(asc(annuityPatents.rowIndex));
    expect(stored.map((r) => r.rowIndex)).toEqual(Array.from({ length: rows }, (_, i) => i));
    // The main thread ran the run's own statements (the link to the portfolio, Done), none of the rows' inserts.
    expect(seen.statements).toBeLessThan(Math.ceil(rows / EMBEDDED_INSERT_ROWS));
  });

  it('fails the run with the database’s error once every statement sent has settled, and a retry stores each row once', async () => {
    const rows = 2 * PATENT_BATCH + 37;
    const file = await upload(rows);
    await handle.db.execute(sql`create function refuse_row_1500() returns trigger language plpgsql as $$
      begin if new.row_index = 1500 and new.file_id = '${sql.raw(file.id)}'::uuid then raise exception 'row 1500 refused' using errcode = 'check_violation'; end if; return new; end $$`);
    await handle.db.execute(sql`create trigger refuse_row_1500 before insert on annuity_patents for each row execute function refuse_row_1500()`);
    try {
      await expect(run(handle.db, file.id)).rejects.toThrow(/row 1500 refused/);
    } finally {
      await handle.db.execute(sql`drop trigger refuse_row_1500 on annuity_patents`);
      await handle.db.execute(sql`drop function refuse_row_1500()`);
    }
    // Nothing of the failed attempt is still on its way: the count read twice, a while apart, is the same.
    const [{ n: first }] = (await handle.db.select({ n: count() }).from(annuityPatents).where(eq(annuityPatents.fileId, file.id))) as [{ n: number }];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [{ n: later }] = (await handle.db.select({ n: count() }).from(annuityPatents).where(eq(annuityPatents.fileId, file.id))) as [{ n: number }];
    expect(later).toBe(first);
    expect(first).toBeLessThan(rows);
    await run(handle.db, file.id);
    const [done] = await handle.db.select().from(annuityFiles).where(eq(annuityFiles.id, file.id));
    expect(done).toMatchObject({ state: 'Done', rowsDone: rows });
    const [{ n: stored }] = (await handle.db.select({ n: count() }).from(annuityPatents).where(eq(annuityPatents.fileId, file.id))) as [{ n: number }];
    expect(stored).toBe(rows);
  });

  it('stops at once when the job is aborted (a shutdown hands the run back)', async () => {
    const file = await upload(20 * PATENT_BATCH);
    const controller = new AbortController();
    const started = run(handle.db, file.id, controller.signal);
    setTimeout(() => controller.abort(new Error('shutting down')), 300);
    await expect(started).rejects.toThrow(/shutting down/);
    const [left] = await handle.db.select().from(annuityFiles).where(eq(annuityFiles.id, file.id));
    expect(left!.state).toBe('in_progress');
  });
});
