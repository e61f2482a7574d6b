export { createCheckLedesProcessor, createSendMailProcessor, markLedesRunFailed, publishRun, type CheckLedesDeps, type SendMailDeps } from './processors/index.ts';
export { loadResult, loadRun, loadRuns, toRunDto, FORMAT_OK_LIMIT, RESULT_PAGE_FINDINGS, type LedesRunRow, type ResultPage } from './ledes/runs.ts';
export { JOB_REGISTRY, REGISTERED_QUEUES, bindJobs, consumedQueues, isRegisteredQueue, retryPolicies, type JobPorts, type RegisteredQueue } from './registry.ts';
export { ledesJob, closeSilentLedesRuns, withHeartbeat, LEDES_ERROR_CODES, LEDES_HEARTBEAT_MS } from './definitions/ledes.ts';
export { mailJob } from './definitions/mail.ts';
export { sweepJobs, enqueueCommitted, NOT_STARTED_AFTER_MS, SILENT_RUN_AFTER_MS, type SweepPorts } from './sweep.ts';
export { sharedThreadEngine, createThreadEngine, type ThreadEngine } from './ledes/engine-thread.ts';
export { runEngineInThread, type LedesEngine } from './ledes/engine.ts';
