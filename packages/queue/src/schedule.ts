import type { JobPayload, QueueName } from '@portal/contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DEFAULT_PREFIX } from './bullmq.ts';

/**
 * Upserts a BullMQ job scheduler (a repeatable job) for a queue: the same id every start, so workers
 * restarting or running side by side keep one schedule. `every` in ms, or a cron `pattern` (UTC).
 * The job carries the payload given (validated again by the worker like any other).
 */
export async function upsertSchedule<Q extends QueueName>(
  redisUrl: string,
  queue: Q,
  schedulerId: string,
  repeat: { every: number } | { pattern: string },
  payload: JobPayload<Q>,
  logger: { info(fields: object, message: string): void },
): Promise<void> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const producer = new Queue(queue, { connection, prefix: DEFAULT_PREFIX });
  try {
    await producer.upsertJobScheduler(schedulerId, 'pattern' in repeat ? { pattern: repeat.pattern, tz: 'UTC' } : repeat, { name: queue, data: payload });
    logger.info({ schedulerId, ...repeat }, `${queue} schedule set`);
  } finally {
    await producer.close();
    connection.disconnect();
  }
}
