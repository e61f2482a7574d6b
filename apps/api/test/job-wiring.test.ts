import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { mails } from '@portal/db';
import { enqueueCommitted } from '@portal/jobs';
import { startTestPortal, type TestPortal } from './support/portal.ts';

/** The API wired to a private Redis (BullMQ producer, counters, realtime), with no worker consuming. */
describe.skipIf(!testDatabaseBaseUrl())('API job wiring when Redis goes away and comes back', () => {
  let redis: TestRedis | undefined;
  let t: TestPortal;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await startTestPortal('postgres', { REDIS_URL: redis.url });
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void consoleErrors.push(args.map(String).join(' ')));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
    await redis?.stop();
  });

  it('no unhandled ioredis error events during an outage; the request accepted meanwhile is enqueued as soon as Redis is back', async () => {
    const port = redis!.port;
    await redis!.stop();
    // A mail recorded during the outage (as the reset request does): the row is committed, its enqueue fails.
    const [mail] = await t.portal.ctx.db
      .insert(mails)
      .values({ recipient: t.config.admin.email, template: 'reset_password', locale: 'en', params: { link: `${t.origin}/reset?token=x` } })
      .returning();
    await enqueueCommitted(t.portal.ctx, 'mail', [{ mailId: mail!.id }]);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a few reconnection attempts
    expect(consoleErrors.filter((line) => line.includes('Unhandled error event'))).toEqual([]);

    // The portal's clock is a test clock, frozen when the portal started (which may take a while on a
    // loaded machine): bring it to a minute past the real now, well under the 2 minutes after which
    // the periodic sweep would take the mail, but past the mail's creation.
    t.clock.advance(Date.now() + 60_000 - t.clock.now().getTime());
    redis = await startRedisServer({ port });
    // Not the minute sweep (which also waits 2 minutes for a row to be "old"): the reconnection.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const counts = await t.portal.ctx.queue.counts('mail').catch(() => undefined);
      if (counts && counts.waiting > 0) break;
      if (Date.now() > deadline) throw new Error(`the waiting mail was not enqueued after the reconnection:\n${t.logs.slice(-5).join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
