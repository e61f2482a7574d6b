export { createMetrics, instrumentJob, instrumentJobs, hasMetricsToken, QUEUE_STATES, RUN_TABLES, SCRAPE_SOURCE_TIMEOUT_MS, type JobRunOutcome, type MetricsOptions, type PortalMetrics, type QueueDepthSource } from './metrics.ts';
export { checkReadiness, CHECK_TIMEOUT_MS, type Readiness } from './readiness.ts';
export { startOpsServer, type OpsServer, type OpsServerOptions } from './server.ts';
