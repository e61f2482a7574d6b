import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createPatentRemindersProcessor, type PatentRemindersDeps } from '../processors/patent-reminders.ts';

/** The schedule of the `patent-reminders` queue in production: every day at 06:00 UTC (BullMQ job scheduler). */
export const PATENT_REMINDERS_CRON = '0 6 * * *';
/** The embedded mode's timer: the day's run is enqueued every hour (a run that finds everything sent sends nothing). */
export const PATENT_REMINDERS_EVERY_MS = 60 * 60_000;

/**
 * The `patent-reminders` queue: the day's grouped reminders to the agents (`patent-reminders.ts`).
 * The sent log (`patent_reminders`) makes a rerun after a failure, or a second run the same day, a no-op
 * for what was sent.
 */
export const patentRemindersJob = defineJob<'patent-reminders', PatentRemindersDeps>({
  queue: 'patent-reminders',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createPatentRemindersProcessor(ports),
  onFinalFailure: (ports) => async ({ day }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, day, attemptsMade }, 'patent reminders failed for good; the next run sends what is still due');
  },
});
