/**
 * The production drivers: BullMQ queues and workers on Redis, and the Redis settings check. A
 * subpath of its own (`@portal/queue/redis`) so the embedded portal, which runs the inline driver,
 * never loads BullMQ and ioredis.
 */
export {
  createBullmqQueue,
  inspectQueues,
  startBullmqWorker,
  startSandboxedBullmqWorker,
  toBullmqProcessor,
  DEFAULT_PREFIX,
  type BullmqQueueOptions,
  type InspectedQueues,
  type BullmqWorkerOptions,
  type RunningWorker,
} from './bullmq.ts';
export { checkRedisForQueues, type RedisQueueCheck } from './health.ts';
export { upsertSchedule } from './schedule.ts';
