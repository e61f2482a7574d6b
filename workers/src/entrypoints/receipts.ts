import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { receiptsJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/** The receipts worker: makes uploaded PDFs and zips of PDFs into receipts, progress and result through Redis. */
await runWorker(receiptsJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  return { ports: { db: database.db, storage, realtime, logger }, close: () => realtime.close() };
});
