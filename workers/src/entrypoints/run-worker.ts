import type { Config } from '@portal/config';
import { loadConfig } from '@portal/config';
import { openDatabase, type DatabaseHandle } from '@portal/db';
import type { RegisteredQueue } from '@portal/jobs';
import { createLogger, type Logger } from '@portal/logger';
import { bindJob, closeGracefully, type JobDefinition } from '@portal/queue';
import { checkRedisForQueues, inspectQueues, startBullmqWorker, type RunningWorker } from '@portal/queue/redis';
import { cachedProbe, createMetrics, instrumentJob, startOpsServer, storageWriteProbe, type OpsServer, type Readiness } from '@portal/ops';

/** The whole shutdown must fit in this; docker-compose's `stop_grace_period` leaves a margin above it. */
export const SHUTDOWN_GRACE_MS = 30_000;
/** Jobs still running this long after SIGTERM are handed back to waiting (not failed) for another worker. */
export const HAND_BACK_AFTER_MS = 20_000;

export interface WorkerPorts<Ports> {
  ports: Ports;
  close?: () => Promise<void> | void;
  /** Checks of the worker's own dependencies for /readyz (the mail worker's SMTP server), besides database, Redis and storage. */
  readiness?: Readiness;
}

/**
 * The common life of a worker process: configuration, Redis sanity, database, one BullMQ
 * worker running the queue's registry definition, and an ordered shutdown on SIGTERM/SIGINT that
 * hands long jobs back instead of being killed mid-job.
 */
export async function runWorker<Q extends RegisteredQueue, Ports>(
  definition: JobDefinition<Q, Ports>,
  setup: (deps: { config: Config; database: DatabaseHandle; logger: Logger }) => Promise<WorkerPorts<Ports>> | WorkerPorts<Ports>,
): Promise<void> {
  const queue = definition.queue;
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: `worker-${queue}` });
  // A stray rejection (a dependency failing in a callback nobody awaits) is a bug to log, not a
  // reason to abandon every job this process holds.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  if (!config.redisUrl || config.database.driver !== 'postgres') {
    logger.fatal(`the ${queue} worker needs REDIS_URL and DATABASE_URL; in the embedded mode the API runs the processors itself`);
    process.exit(1);
  }
  const redis = await checkRedisForQueues(config.redisUrl);
  for (const problem of redis.problems) logger.warn({ problem }, 'redis configuration');
  if (!redis.ok) process.exit(1);

  const database = openDatabase(config.database);
  const built = await setup({ config, database, logger });
  // Its own queue's depth, read on scrape on a connection of its own (a hung Redis leaves the series out).
  const inspected = inspectQueues({ redisUrl: config.redisUrl, queues: [queue], onError: (error) => logger.debug({ err: error }, 'queue inspection: redis unavailable') });
  const metrics = createMetrics({ service: `worker-${queue}`, queueDepth: { queues: [queue], counts: (name) => inspected.counts(name) } });
  const handler = instrumentJob(bindJob(definition, built.ports, { concurrency: (config.workers.concurrency as Partial<Record<string, number>>)[queue] }), metrics);
  const worker: RunningWorker = startBullmqWorker(handler, {
    redisUrl: config.redisUrl,
    lockDuration: config.workers.lockDurationMs,
    stalledInterval: config.workers.stalledIntervalMs,
    report: (message, error) => logger.error({ err: error }, message),
  });
  // Which process holds which job: the job id names the row (`ledes-<runId>`).
  worker.worker.on('active', (job) => logger.info({ jobId: job.id, attempt: job.attemptsMade + 1 }, `${queue} job started`));
  worker.worker.on('failed', (job, error) => logger.error({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, `${queue} job failed`));

  let stopping = false;
  // WORKER_HTTP_PORT: /healthz, /readyz (database, Redis, storage when the worker uses one, its own
  // checks) and /metrics (decision 128). Storage must take a write (a read-only store refuses every
  // job's output), probed at most every few seconds (`cachedProbe`).
  let ops: OpsServer | undefined;
  if (config.workers.http) {
    const storage = (built.ports as { storage?: Parameters<typeof storageWriteProbe>[0] }).storage;
    ops = await startOpsServer({
      ...config.workers.http,
      metrics,
      metricsToken: config.metrics.token,
      stopping: () => stopping,
      readiness: {
        database: () => database.ping(),
        redis: () => inspected.ping(),
        ...(storage ? { storage: cachedProbe(storageWriteProbe(storage)) } : {}),
        ...built.readiness,
      },
      onError: (error) => logger.error({ err: error }, 'ops server request failed'),
    });
  }
  logger.info({ concurrency: handler.concurrency, httpPort: ops?.port }, `${queue} worker started`);

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${queue} worker stopping`);
    try {
      // Stops fetching at once, waits for the running jobs (handing back those still running after
      // HAND_BACK_AFTER_MS), then closes its connections; /readyz says 503 from the first moment.
      await closeGracefully(
        [() => worker.close(false, HAND_BACK_AFTER_MS), async () => built.close?.(), () => inspected.close(), async () => ops?.close(), () => database.close()],
        SHUTDOWN_GRACE_MS,
      );
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${queue} worker did not stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM').catch((error: unknown) => logger.error({ err: error }, 'shutdown failed'));
  });
  process.on('SIGINT', () => {
    stop('SIGINT').catch((error: unknown) => logger.error({ err: error }, 'shutdown failed'));
  });
}
