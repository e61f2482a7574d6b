import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createLedesDigestProcessor, type LedesDigestDeps } from '../processors/ledes-digest.ts';

/** The schedule of the `ledes-digest` queue in production: every day at 06:15 UTC, the day before (BullMQ job scheduler). */
export const LEDES_DIGEST_CRON = '15 6 * * *';
/** The embedded mode's timer: yesterday's digest is enqueued every hour (a run that finds it sent sends nothing). */
export const LEDES_DIGEST_EVERY_MS = 60 * 60_000;

/**
 * The `ledes-digest` queue: the admins' daily digest of the LEDES runs (`ledes-digest.ts`, issue 31 §3). The sent log
 * (`ledes_digests`, one row per admin and day) makes a rerun after a failure, or a second run the same day, a no-op.
 */
export const ledesDigestJob = defineJob<'ledes-digest', LedesDigestDeps>({
  queue: 'ledes-digest',
  timeoutMs: 5 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createLedesDigestProcessor(ports),
  onFinalFailure: (ports) => async ({ day }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, day, attemptsMade }, 'ledes digest failed for good; the next run sends what is still due');
  },
});
