export { createMetrics, instrumentJob, instrumentJobs, hasMetricsToken, QUEUE_STATES, SCRAPE_SOURCE_TIMEOUT_MS, type JobRunOutcome, type MetricsOptions, type PortalMetrics, type QueueDepthSource } from './metrics.ts';
export { cachedProbe, checkReadiness, CHECK_TIMEOUT_MS, PROBE_CACHE_MS, PROBE_TIMEOUT_MS, STORAGE_PROBE_KEY, storageWriteProbe, type CachedProbeOptions, type Readiness } from './readiness.ts';
export { startOpsServer, type OpsServer, type OpsServerOptions } from './server.ts';
