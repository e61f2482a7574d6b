import { createRedisPublisher } from '@portal/realtime/redis';
import { createStorage } from '@portal/storage';
import { createThreadEngine, ledesJob, retryPolicies } from '@portal/jobs';
import { createBullmqQueue } from '@portal/queue/redis';
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
  // The opted-in notices (refused, delivered: issue 31 §3) go to the mail queue once committed; their links need PUBLIC_URL.
  const producer = createBullmqQueue({ redisUrl: config.redisUrl!, queues: ['mail'], retry: retryPolicies(), onError: (error) => logger.warn({ err: error }, 'mail producer: redis error') });
  return {
    ports: { db: database.db, storage, realtime, logger, engine, publicUrl: config.http.publicUrl, enqueueMail: (mailId: string) => producer.enqueue('mail', { mailId }) },
    close: async () => {
      await engine.close();
      await realtime.close();
      await producer.close();
    },
  };
});
