import { createRedisPublisher } from '@portal/realtime';
import { createStorage } from '@portal/storage';
import { createCheckLedesProcessor, markLedesRunFailed } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/**
 * The LEDES worker process. The engine streams the file chunk by chunk and awaits between chunks, so
 * the lock renewal keeps running even on a million-line file.
 */
await runWorker('ledes', (config) => config.workers.concurrency.ledes, async ({ config, database, logger }) => {
  const storage = createStorage(config.storage);
  await storage.ensureReady();
  const realtime = createRedisPublisher(config.redisUrl!);
  const deps = { db: database.db, storage, realtime, logger };
  return {
    processor: createCheckLedesProcessor(deps),
    // Returned, not dropped: the queue driver reports a hook that rejects.
    onFailed: (_queue, payload) => markLedesRunFailed(deps, (payload as { runId: string }).runId, 'processing_failed'),
    close: () => realtime.close(),
  };
});
