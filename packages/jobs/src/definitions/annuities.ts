import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createCheckAnnuitiesProcessor, type CheckAnnuitiesDeps } from '../processors/check-annuities.ts';
import { annuityRunKind } from '../kinds/annuities.ts';

export { ANNUITY_ERROR_CODES, annuityRunKind } from '../kinds/annuities.ts';



/**
 * The `annuities` queue: checks one uploaded spreadsheet, or rewrites the export of a Done file after
 * edits (`check-annuities.ts`), under the run kind's lease.
 */
export const annuitiesJob = defineJob<'annuities', CheckAnnuitiesDeps>({
  queue: 'annuities',
  timeoutMs: annuityRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => annuityRunKind.process(ports, createCheckAnnuitiesProcessor(ports)),
  onFinalFailure: (ports) => annuityRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started checks nobody has worked on for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentAnnuityFiles(ports: Pick<CheckAnnuitiesDeps, 'db' | 'realtime'>, isQueued: (fileId: string) => Promise<boolean>, now: Date, timeoutMs = annuitiesJob.timeoutMs): Promise<number> {
  return annuityRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
