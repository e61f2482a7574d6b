import { PATENT_REMINDERS_CRON, patentRemindersJob } from '@portal/jobs';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/** The reminders worker: the agents' grouped reminders every day at 06:00 UTC (BullMQ job scheduler) and on an admin's trigger. */
await runWorker(patentRemindersJob, async ({ config, database, logger }) => {
  await upsertSchedule(config.redisUrl!, 'patent-reminders', 'patent-reminders-daily', { pattern: PATENT_REMINDERS_CRON }, { day: 'today' }, logger);
  return { ports: { db: database.db, logger } };
});
