import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { registerSyncRunKind } from '../kinds/register-sync.ts';
import { createRegisterSyncProcessor, openScheduledRun, type RegisterSyncDeps } from '../registers/sync.ts';
import type { RunKind } from '../run-kind.ts';

export { registerSyncRunKind } from '../kinds/register-sync.ts';

/** The schedule of the `register-sync` queue in production: every day at 02:30 UTC (BullMQ job scheduler). */
export const REGISTER_SYNC_CRON = '30 2 * * *';
/** The embedded mode's timer: the tick every hour starts the day's run once, and resumes a paused one. */
export const REGISTER_SYNC_EVERY_MS = 60 * 60_000;

/**
 * The `register-sync` queue (issue 29 §3): one run (`runId`) under the run kind's lease, or the schedule's tick
 * (`scheduled`), which opens the day's run or takes the current one again.
 */
export const registerSyncJob = defineJob<'register-sync', RegisterSyncDeps>({
  queue: 'register-sync',
  timeoutMs: registerSyncRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => {
    const kind = registerSyncRunKind as unknown as RunKind;
    const run = registerSyncRunKind.process(ports, createRegisterSyncProcessor(ports, kind));
    return async (payload, ctx) => {
      if (payload.runId !== 'scheduled') return run(payload, ctx);
      const runId = await openScheduledRun(ports.db, ports.clock?.now() ?? new Date());
      if (runId) await run({ runId }, ctx);
    };
  },
  onFinalFailure: (ports) => registerSyncRunKind.onFinalFailure(ports),
});
