import { createStorage } from '@portal/storage';
import { RENEWAL_CALLS_CRON, renewalCallsJob, retryPolicies } from '@portal/jobs';
import { createBullmqQueue } from '@portal/queue/redis';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/**
 * The renewal calls worker (issue 30 §3): the day's calls every day at 06:30 UTC (BullMQ job scheduler) and on
 * an admin's trigger; each step's documents go to storage, its committed mails to the mail queue at once.
 */
await runWorker(renewalCallsJob, async ({ config, database, logger }) => {
  await upsertSchedule(config.redisUrl!, 'renewal-calls', 'renewal-calls-daily', { pattern: RENEWAL_CALLS_CRON }, { day: 'today' }, logger);
  const storage = await createStorage(config.storage);
  await storage.ensureReady();
  const producer = createBullmqQueue({ redisUrl: config.redisUrl!, queues: ['mail'], retry: retryPolicies(), onError: (error) => logger.warn({ err: error }, 'mail producer: redis error') });
  return {
    ports: { db: database.db, logger, storage, enqueueMail: (mailId: string) => producer.enqueue('mail', { mailId }) },
    close: () => producer.close(),
  };
});
