import type { Processor } from '@portal/queue';
import { runRenewalCalls, type RenewalCallsDeps } from '../calls/run.ts';

export type { RenewalCallsDeps } from '../calls/run.ts';

/** The `renewal-calls` job: the day given, or the job's own day (the schedule's 'today', UTC). Staff's "send now" calls `sendCallStep` from the API. */
export function createRenewalCallsProcessor(deps: RenewalCallsDeps): Processor<'renewal-calls'> {
  return async ({ day }) => {
    const resolved = day === 'today' ? (deps.clock?.now() ?? new Date()).toISOString().slice(0, 10) : day;
    const begun = performance.now();
    const result = await runRenewalCalls(deps, resolved);
    deps.logger.info({ event: 'renewal_calls_done', ...result, ms: Math.round(performance.now() - begun) }, 'renewal calls run done');
  };
}
