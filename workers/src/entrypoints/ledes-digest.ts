import { LEDES_DIGEST_CRON, ledesDigestJob, retryPolicies } from '@portal/jobs';
import { createBullmqQueue } from '@portal/queue/redis';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/**
 * The LEDES digest worker: the admins' digest of the day before, every day at 06:15 UTC (BullMQ job scheduler); each
 * committed mail is handed to the mail queue at once (the sweep otherwise). Its links need PUBLIC_URL.
 */
await runWorker(ledesDigestJob, async ({ config, database, logger }) => {
  await upsertSchedule(config.redisUrl!, 'ledes-digest', 'ledes-digest-daily', { pattern: LEDES_DIGEST_CRON }, { day: 'yesterday' }, logger);
  const producer = createBullmqQueue({ redisUrl: config.redisUrl!, queues: ['mail'], retry: retryPolicies(), onError: (error) => logger.warn({ err: error }, 'mail producer: redis error') });
  return {
    ports: { db: database.db, logger, publicUrl: config.http.publicUrl, enqueueMail: (mailId: string) => producer.enqueue('mail', { mailId }) },
    close: () => producer.close(),
  };
});
