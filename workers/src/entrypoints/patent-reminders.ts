import { PATENT_REMINDERS_CRON, patentRemindersJob, retryPolicies } from '@portal/jobs';
import { createBullmqQueue } from '@portal/queue/redis';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/**
 * The reminders worker: the agents' grouped reminders every day at 06:00 UTC (BullMQ job scheduler) and
 * on an admin's trigger; each committed mail is handed to the mail queue at once (the sweep otherwise).
 */
await runWorker(patentRemindersJob, async ({ config, database, logger }) => {
  await upsertSchedule(config.redisUrl!, 'patent-reminders', 'patent-reminders-daily', { pattern: PATENT_REMINDERS_CRON }, { day: 'today' }, logger);
  const producer = createBullmqQueue({ redisUrl: config.redisUrl!, queues: ['mail'], retry: retryPolicies(), onError: (error) => logger.warn({ err: error }, 'mail producer: redis error') });
  return {
    ports: { db: database.db, logger, enqueueMail: (mailId: string) => producer.enqueue('mail', { mailId }) },
    close: () => producer.close(),
  };
});
