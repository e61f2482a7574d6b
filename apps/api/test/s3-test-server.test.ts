import { afterAll, beforeAll, expect, it } from 'vitest';
import { storageWriteProbe } from '@portal/ops';
import { createStorage, type Storage } from '@portal/storage';
import { startS3Server, type TestS3 } from './support/s3-server.ts';

/**
 * The fault suite's S3 server (s3rver on disk) under what a production topology does to it: the API and every
 * worker probe the store by writing and deleting the same key, at once. s3rver's delete removed the key's
 * directory once empty, and a write opening its file there a moment later threw ENOENT from a stream nobody
 * listened to: an uncaught exception in the test process, which failed the fault suite's Vitest with every
 * test green (CI, issue 28's session). The server must take concurrent writes and deletes as S3 does.
 */
let s3: TestS3;
const stores: Storage[] = [];
const uncaught: unknown[] = [];
const record = (error: unknown) => void uncaught.push(error);

beforeAll(async () => {
  s3 = await startS3Server();
  for (let i = 0; i < 6; i++) {
    const store = await createStorage({ driver: 's3', endPoint: '127.0.0.1', port: Number(new URL(s3.endpoint).port), useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'portal-probes' });
    await store.ensureReady();
    stores.push(store);
  }
  process.on('uncaughtException', record);
});

afterAll(async () => {
  process.off('uncaughtException', record);
  await s3?.destroy();
});

it('six processes probing the same key at once: every probe succeeds, nothing thrown outside them, nothing left', async () => {
  const probes = stores.map((store) => storageWriteProbe(store));
  const failures: unknown[] = [];
  await Promise.all(
    probes.map(async (probe) => {
      for (let round = 0; round < 40; round++) await probe().catch((error: unknown) => failures.push(error));
    }),
  );
  // An error thrown from a stream surfaces on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(uncaught.map(String)).toEqual([]);
  expect(failures.map(String)).toEqual([]);
  expect(await s3.keys('portal-probes')).toEqual([]);
}, 60_000);
