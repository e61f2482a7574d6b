import type { Config } from '@portal/config';
import { loadConfig } from '@portal/config';
import type { QueueName } from '@portal/contracts';
import { openDatabase, type DatabaseHandle } from '@portal/db';
import { createLogger, type Logger } from '@portal/logger';
import { checkRedisForQueues, closeGracefully, startBullmqWorker, type OnFailed, type Processor, type RunningWorker } from '@portal/queue';

export interface WorkerSetup<Q extends QueueName> {
  processor: Processor<Q>;
  onFailed?: OnFailed;
  close?: () => Promise<void> | void;
}

/**
 * The common life of a worker process: configuration, Redis sanity, database, one BullMQ
 * worker for one queue, and an ordered shutdown on SIGTERM/SIGINT.
 */
export async function runWorker<Q extends QueueName>(
  queue: Q,
  concurrency: (config: Config) => number,
  setup: (deps: { config: Config; database: DatabaseHandle; logger: Logger }) => Promise<WorkerSetup<Q>> | WorkerSetup<Q>,
): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, name: `worker-${queue}` });
  if (!config.redisUrl || config.database.driver !== 'postgres') {
    logger.fatal(`the ${queue} worker needs REDIS_URL and DATABASE_URL; in the embedded mode the API runs the processors itself`);
    process.exit(1);
  }
  const redis = await checkRedisForQueues(config.redisUrl);
  for (const problem of redis.problems) logger.warn({ problem }, 'redis configuration');
  if (!redis.ok) process.exit(1);

  const database = openDatabase(config.database);
  const built = await setup({ config, database, logger });
  const worker: RunningWorker = startBullmqWorker(queue, built.processor, {
    redisUrl: config.redisUrl,
    concurrency: concurrency(config),
    lockDuration: config.workers.lockDurationMs,
    stalledInterval: config.workers.stalledIntervalMs,
    onFailed: (q, payload, error, info) => {
      logger.error({ err: error, payload, ...info }, `${queue} job failed`);
      built.onFailed?.(q, payload, error, info);
    },
  });
  logger.info({ concurrency: concurrency(config) }, `${queue} worker started`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${queue} worker stopping`);
    await closeGracefully([() => worker.close(), async () => built.close?.(), () => database.close()], 30_000);
    process.exit(0);
  };
  const stopOn = (signal: NodeJS.Signals) => {
    stop(signal).catch((error: unknown) => {
      logger.error({ err: error }, `${queue} worker graceful stop failed`);
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => stopOn('SIGTERM'));
  process.on('SIGINT', () => stopOn('SIGINT'));
}
