import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createImportPatentsProcessor, type ImportPatentsDeps } from '../processors/import-patents.ts';
import { patentImportRunKind } from '../kinds/patent-import.ts';

export { patentImportRunKind } from '../kinds/patent-import.ts';


/** The `patent-import` queue: upserts one uploaded portfolio file (`import-patents.ts`), under the run kind's lease. */
export const patentImportJob = defineJob<'patent-import', ImportPatentsDeps>({
  queue: 'patent-import',
  timeoutMs: patentImportRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => patentImportRunKind.process(ports, createImportPatentsProcessor(ports)),
  onFinalFailure: (ports) => patentImportRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started imports silent for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentPatentImports(ports: Pick<ImportPatentsDeps, 'db' | 'realtime'>, isQueued: (importId: string) => Promise<boolean>, now: Date, timeoutMs = patentImportJob.timeoutMs): Promise<number> {
  return patentImportRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
