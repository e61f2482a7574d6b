import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ledesRuns, openDatabase, users, type DatabaseHandle } from '@portal/db';
import { testPgliteConfig } from '@portal/db/testing';
import { createStorage, generateKey, type Storage } from '@portal/storage';
import { createLogger } from '@portal/logger';
import type { AppContext } from '../src/context.ts';
import { cleanUpStorage, scheduleStorageCleanup, STORAGE_GRACE_MS, type StorageCleanupDeps } from '../src/jobs/storage-cleanup.ts';
import { FakeClock } from './support/portal.ts';

interface Backend {
  storage: Storage;
  /** Sets an object's last-modified time, as if it had been written then. */
  writtenAt(key: string, when: Date): Promise<void>;
  stop(): Promise<void>;
}

const BACKENDS: Array<[string, () => Promise<Backend>]> = [
  [
    'local',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'portal-cleanup-local-'));
      return {
        storage: await createStorage({ driver: 'local', root }),
        writtenAt: (key, when) => utimes(path.join(root, key), when, when),
        stop: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3 (s3rver)',
    async () => {
      const directory = await mkdtemp(path.join(tmpdir(), 'portal-cleanup-s3-'));
      const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
      const { port } = await server.run();
      const bucket = 'portal-cleanup-test';
      return {
        storage: await createStorage({ driver: 's3', endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket, spoolDir: directory }),
        // s3rver reports the modification time of the file holding the object's bytes.
        writtenAt: (key, when) => utimes(server.store.getResourcePath(bucket, key, 'object'), when, when),
        stop: async () => {
          await server.close();
          await rm(directory, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(BACKENDS)('storage clean-up on %s', (_name, startBackend) => {
  let database: DatabaseHandle;
  let backend: Backend;
  let clock: FakeClock;
  let deps: StorageCleanupDeps;
  let ownerId: string;

  beforeAll(async () => {
    database = openDatabase(testPgliteConfig());
    await database.migrate();
    [{ id: ownerId }] = (await database.db.insert(users).values({ companyAgent: 'Firm', email: 'owner@firm.test' }).returning({ id: users.id })) as [{ id: string }];
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    backend = await startBackend();
    await backend.storage.ensureReady();
    clock = new FakeClock();
    deps = { db: database.db, storage: backend.storage, clock };
  });
  afterEach(async () => {
    await backend.stop();
  });

  const store = async (area: string, name: string) => {
    const key = generateKey(area, name);
    await backend.storage.put(key, Buffer.from(`LEDES1998B[]\n${name}`));
    return key;
  };
  const exists = async (key: string) => (await backend.storage.stat(key)) !== null;

  it('deletes a file whose upload crashed before its row was committed, once a day old; files rows point to and young files stay', async () => {
    // The upload request stored the original, then died before inserting its run: no row points to it.
    const crashed = await store('ledes/original', 'crashed.txt');
    // A committed run points to its original, treated and delivered files.
    const original = await store('ledes/original', 'kept.txt');
    const treated = await store('ledes/treated', 'kept.xlsx');
    const delivered = await store('outbound/step2', 'kept.txt');
    await database.db.insert(ledesRuns).values({
      ownerId, name: 'kept', originalName: 'kept.txt', originalKey: original, treatedKey: treated, deliveredKey: delivered,
      size: 1, sha256: 'x', office: 'EP', type: 'patent', state: 'Done',
    });

    // Within the grace period nothing is deleted: the writer may still be about to commit.
    expect(await cleanUpStorage(deps)).toEqual({ scanned: 4, deleted: 0, resumeAfter: undefined });
    expect(await exists(crashed)).toBe(true);

    clock.advance(STORAGE_GRACE_MS + 60_000);
    // Written just now on the moved clock, by a request that has not committed yet.
    const young = await store('ledes/original', 'young.txt');
    await backend.writtenAt(young, clock.now());

    expect(await cleanUpStorage(deps)).toEqual({ scanned: 5, deleted: 1, resumeAfter: undefined });
    expect(await exists(crashed)).toBe(false);
    for (const key of [original, treated, delivered, young]) expect(await exists(key), key).toBe(true);
  });

  it('looks at a bounded number of keys per pass and resumes after the last one', async () => {
    const orphans = [];
    for (let i = 0; i < 5; i++) orphans.push(await store('ledes/original', `orphan-${i}.txt`));
    clock.advance(STORAGE_GRACE_MS + 60_000);

    const first = await cleanUpStorage(deps, { maxScanned: 2 });
    expect(first).toMatchObject({ scanned: 2, deleted: 2 });
    expect(first.resumeAfter).toBeDefined();
    const second = await cleanUpStorage(deps, { maxScanned: 2, startAfter: first.resumeAfter });
    expect(second).toMatchObject({ scanned: 2, deleted: 2 });
    const third = await cleanUpStorage(deps, { maxScanned: 2, startAfter: second.resumeAfter });
    expect(third).toEqual({ scanned: 1, deleted: 1, resumeAfter: undefined });
    for (const key of orphans) expect(await exists(key)).toBe(false);
  });
});

describe('storage clean-up schedule', () => {
  it('runs a pass at start in the embedded mode and logs counts, never keys', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'portal-cleanup-schedule-'));
    const database = openDatabase(testPgliteConfig());
    try {
      await database.migrate();
      const storage = await createStorage({ driver: 'local', root });
      const orphan = generateKey('ledes/original', 'client-secret-name.txt');
      await storage.put(orphan, Buffer.from('x'));
      const clock = new FakeClock(new Date(Date.now() + STORAGE_GRACE_MS + 60_000));
      const lines: string[] = [];
      const logger = createLogger({ level: 'debug', name: 'cleanup-test' }, new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }));
      const ctx = { database, db: database.db, storage, clock, logger } as unknown as AppContext;

      const stop = scheduleStorageCleanup(ctx);
      await stop(); // waits for the pass started at once
      expect(await storage.stat(orphan)).toBeNull();
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([expect.objectContaining({ msg: 'storage clean-up', scanned: 1, deleted: 1 })]);
      expect(lines.join('')).not.toContain('client-secret-name');
    } finally {
      await database.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
