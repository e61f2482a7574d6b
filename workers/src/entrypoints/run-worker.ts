import type { Config } from '@portal/config';
import { loadConfig } from '@portal/config';
import { openDatabase, type DatabaseHandle } from '@portal/db';
import type { RegisteredQueue } from '@portal/jobs';
import { createLogger, type Logger } from '@portal/logger';
import { bindJob, closeGracefully, type JobDefinition } from '@portal/queue';
import { checkRedisForQueues, startBullmqWorker, type RunningWorker } from '@portal/queue/redis';

/** The whole shutdown must fit in this; docker-compose's `stop_grace_period` leaves a margin above it. */
export const SHUTDOWN_GRACE_MS = 30_000;
/** Jobs still running this long after SIGTERM are handed back to waiting (not failed) for another worker. */
export const HAND_BACK_AFTER_MS = 20_000;

export interface WorkerPorts<Ports> {
  ports: Ports;
  close?: () => Promise<void> | void;
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
  const handler = bindJob(definition, built.ports, { concurrency: (config.workers.concurrency as Partial<Record<string, number>>)[queue] });
  const worker: RunningWorker = startBullmqWorker(handler, {
    redisUrl: config.redisUrl,
    lockDuration: config.workers.lockDurationMs,
    stalledInterval: config.workers.stalledIntervalMs,
    report: (message, error) => logger.error({ err: error }, message),
  });
  worker.worker.on('failed', (job, error) => logger.error({ err: error, jobId: job?.id, attemptsMade: job?.attemptsMade }, `${queue} job failed`));
  logger.info({ concurrency: handler.concurrency }, `${queue} worker started`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${queue} worker stopping`);
    try {
      await closeGracefully([() => worker.close(false, HAND_BACK_AFTER_MS), async () => built.close?.(), () => database.close()], SHUTDOWN_GRACE_MS);
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
