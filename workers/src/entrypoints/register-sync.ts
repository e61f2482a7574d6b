import { createRegisterSource } from '@portal/registers';
import { REGISTER_SYNC_CRON, registerSyncJob } from '@portal/jobs';
import { createRedisPublisher } from '@portal/realtime/redis';
import { upsertSchedule } from './job-scheduler.ts';
import { runWorker } from './run-worker.ts';

/**
 * The register sync worker (issue 29 §3, decision 196): every day at 02:30 UTC the schedule's tick opens the day's run
 * (or takes the current one again); an admin's "sync now" enqueues its run. Without OPS_CONSUMER_KEY/SECRET each run
 * ends at once, `disabled`. Progress goes to the admins over Redis.
 */
await runWorker(registerSyncJob, async ({ config, database, logger }) => {
  await upsertSchedule(config.redisUrl!, 'register-sync', 'register-sync-daily', { pattern: REGISTER_SYNC_CRON }, { runId: 'scheduled' }, logger);
  const realtime = createRedisPublisher(config.redisUrl!);
  const registerSource = createRegisterSource(config.registers);
  if (!registerSource) logger.warn('OPS_CONSUMER_KEY / OPS_CONSUMER_SECRET not set: register sync runs end disabled');
  return {
    ports: { db: database.db, logger, realtime, registerSource },
    close: () => realtime.close(),
  };
});
