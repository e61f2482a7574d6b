import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createRenewalCallsProcessor, type RenewalCallsDeps } from '../processors/renewal-calls.ts';

/** The schedule of the `renewal-calls` queue in production: every day at 06:30 UTC (BullMQ job scheduler). */
export const RENEWAL_CALLS_CRON = '30 6 * * *';
/** The embedded mode's timer: the day's run every hour (a run that finds every due step sent sends nothing). */
export const RENEWAL_CALLS_EVERY_MS = 60 * 60_000;

/**
 * The `renewal-calls` queue (issue 30 §3, decision 202): gathers the calls, closes their items, sends each
 * call's due step. `renewal_call_steps` (one row per call and step, written with the step's mails) makes a
 * rerun, a retry after a crash, or the hourly embedded run send nothing twice.
 */
export const renewalCallsJob = defineJob<'renewal-calls', RenewalCallsDeps>({
  queue: 'renewal-calls',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createRenewalCallsProcessor(ports),
  onFinalFailure: (ports) => async ({ day }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, day, attemptsMade }, 'renewal calls failed for good; the next run sends what is still due');
  },
});
