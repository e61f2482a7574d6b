import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { patentImportJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/** The portfolio import worker: upserts uploaded back-office files by idagenda, progress through Redis. */
await runWorker(patentImportJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  return { ports: { db: database.db, storage, realtime, logger }, close: () => realtime.close() };
});
