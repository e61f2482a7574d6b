export { createProcessors, createCheckLedesProcessor, createSendMailProcessor, markLedesRunFailed, publishRun, type ProcessorDeps } from './processors/index.ts';
export { loadResult, loadRun, loadRuns, toRunDto, FIRST_RESULT_LINE, FORMAT_OK_LIMIT, RESULT_PAGE_FINDINGS, type LedesRunRow, type ResultPage } from './ledes/runs.ts';
