import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createExportPatentsProcessor, type ExportPatentsDeps } from '../processors/export-patents.ts';

/** Every hour: the schedule of the `patent-export` queue (BullMQ job scheduler; a timer in the embedded mode). */
export const PATENT_EXPORT_EVERY_MS = 60 * 60_000;

/**
 * The `patent-export` queue: writes the validated instructions not exported yet to dated xlsx and CSV
 * files for the back office, one batch per transaction (`export-patents.ts`). Nothing to retry by
 * hand after a failure: the patents stay unexported and the next run takes them.
 */
export const patentExportJob = defineJob<'patent-export', ExportPatentsDeps>({
  queue: 'patent-export',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createExportPatentsProcessor(ports),
  onFinalFailure: (ports) => async ({ trigger }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, trigger: trigger === 'scheduled' ? 'scheduled' : 'manual', attemptsMade }, 'patent export failed for good; the next run takes the same patents');
  },
});
