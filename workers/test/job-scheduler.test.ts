import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { PATENT_EXPORT_EVERY_MS, PATENT_REMINDERS_CRON } from '@portal/jobs';
import { createLogger } from '@portal/logger';
import { DEFAULT_PREFIX } from '@portal/queue/redis';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { upsertSchedule } from '../src/entrypoints/job-scheduler.ts';

describe('job schedulers of the patent queues (production)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 60_000);
  afterAll(async () => redis?.stop());

  it('one scheduler per queue however many workers start: the same id is upserted, with its payload', async () => {
    const logger = createLogger({ level: 'silent', name: 'test' });
    for (let i = 0; i < 2; i++) {
      await upsertSchedule(redis.url, 'patent-reminders', 'patent-reminders-daily', { pattern: PATENT_REMINDERS_CRON }, { day: 'today' }, logger);
      await upsertSchedule(redis.url, 'patent-export', 'patent-export-hourly', { every: PATENT_EXPORT_EVERY_MS }, { trigger: 'scheduled' }, logger);
    }
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      const reminders = new Queue('patent-reminders', { connection, prefix: DEFAULT_PREFIX });
      const schedulers = await reminders.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: 'patent-reminders-daily', pattern: '0 6 * * *', tz: 'UTC' });
      const exports = new Queue('patent-export', { connection, prefix: DEFAULT_PREFIX });
      const exportSchedulers = await exports.getJobSchedulers();
      expect(exportSchedulers).toHaveLength(1);
      expect(Number(exportSchedulers[0]!.every)).toBe(PATENT_EXPORT_EVERY_MS);
      // The first run waits as a delayed job carrying the payload the worker validates.
      const delayed = await reminders.getDelayed();
      expect(delayed.map((job) => job.data)).toEqual([{ day: 'today' }]);
      await Promise.all([reminders.close(), exports.close()]);
    } finally {
      connection.disconnect();
    }
  });
});
