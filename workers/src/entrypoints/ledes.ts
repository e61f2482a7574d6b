import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { createThreadEngine, ledesJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/**
 * The LEDES worker process. The engine runs in one worker thread and the treated workbook in
 * another (decision 144), so a run uses two cores and this thread keeps the lock renewal, the
 * storage streams and the database; the threads are shared by the process's concurrent jobs.
 */
await runWorker(ledesJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  const engine = createThreadEngine();
  return {
    ports: { db: database.db, storage, realtime, logger, engine },
    close: async () => {
      await engine.close();
      await realtime.close();
    },
  };
});
