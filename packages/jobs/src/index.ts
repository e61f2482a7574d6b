export { createProcessors, createCheckLedesProcessor, createSendMailProcessor, markLedesRunFailed, publishRun, type ProcessorDeps } from './processors/index.ts';
export { loadResult, loadRun, loadRuns, toRunDto, FORMAT_OK_LIMIT, type LedesRunRow } from './ledes/runs.ts';
