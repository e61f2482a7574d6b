import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { annuitiesJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/**
 * The annuities worker process: checks uploaded annuity spreadsheets and rewrites their exports after
 * edits. Each check runs the engine in a worker thread of its own, so the lock renewal and the
 * database writes keep running on this thread during a 100,000-row file.
 */
await runWorker(annuitiesJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  return { ports: { db: database.db, storage, realtime, logger }, close: () => realtime.close() };
});
