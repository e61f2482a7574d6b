import { createStorage } from '@portal/storage';
import { PATENT_EXPORT_EVERY_MS, patentExportJob } from '@portal/jobs';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/** The export worker: validated instructions to dated files for the back office, every hour (BullMQ job scheduler) and on an admin's trigger. */
await runWorker(patentExportJob, async ({ config, database, logger }) => {
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  await upsertSchedule(config.redisUrl!, 'patent-export', 'patent-export-hourly', { every: PATENT_EXPORT_EVERY_MS }, { trigger: 'scheduled' }, logger);
  return { ports: { db: database.db, storage, logger } };
});
