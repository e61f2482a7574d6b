import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { ledesJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/**
 * The LEDES worker process. The engine streams the file chunk by chunk and awaits between chunks, so
 * the lock renewal keeps running even on a million-line file.
 */
await runWorker(ledesJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  return { ports: { db: database.db, storage, realtime, logger }, close: () => realtime.close() };
});
