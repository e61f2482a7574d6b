// The patent queues' schedules are upserted through the queue package, which owns the BullMQ and
// Redis connections (no process imports bullmq or ioredis itself).
export { upsertSchedule } from '@portal/queue/redis';
