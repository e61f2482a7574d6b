import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, type BucketItem } from 'minio';
import S3rver from 's3rver';
import { createStorage, type S3StorageConfig } from '../src/index.ts';
import { storageContract } from './contract.ts';
import { describe, expect, it } from 'vitest';

/** A port that was free a moment ago and has nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

storageContract('s3 (s3rver via minio)', async () => {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'storage-s3rver-'));
  const spoolDir = await mkdtemp(path.join(os.tmpdir(), 'storage-spool-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  // Node's default 5 s keep-alive lets the server drop a pooled socket just as minio reuses it
  // (ECONNRESET on a loaded machine); real S3/MinIO keep idle connections far longer.
  server.httpServer.keepAliveTimeout = 60_000;
  const config: S3StorageConfig = {
    driver: 's3', endPoint: '127.0.0.1', port, useSSL: false,
    accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'portal-test', spoolDir,
  };
  const client = new Client({ endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', pathStyle: true });
  const listBucket = async (): Promise<string[]> => {
    const keys: string[] = [];
    for await (const item of client.listObjectsV2('portal-test', '', true) as AsyncIterable<BucketItem>) {
      if (item.name) keys.push(item.name);
    }
    return keys.sort();
  };
  return {
    storage: await createStorage(config),
    isReady: () => client.bucketExists('portal-test'),
    // Objects in the bucket plus anything left in the spool folder.
    listAll: async () => [...(await listBucket()), ...(await readdir(spoolDir)).map((f) => `spool/${f}`)],
    untouchable: await createStorage({ ...config, port: await closedPort(), spoolDir: path.join(spoolDir, 'never') }),
    untouchedStill: async () => !existsSync(path.join(spoolDir, 'never')),
    teardown: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
      await rm(spoolDir, { recursive: true, force: true });
    },
  };
});

describe('s3 ensureReady', () => {
  it('API and workers starting together on a new bucket all get ready (the loser of the creation race sees BucketAlreadyExists)', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'storage-s3rver-race-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
    const { port } = await server.run();
    try {
      const stores = await Promise.all([1, 2, 3, 4].map(() =>
        createStorage({ driver: 's3', endPoint: '127.0.0.1', port, useSSL: false, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'portal-race', spoolDir: directory }),
      ));
      const outcomes = await Promise.allSettled(stores.map((store) => store.ensureReady()));
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    } finally {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
