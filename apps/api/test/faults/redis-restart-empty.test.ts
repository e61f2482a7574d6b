import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/** Redis is killed (SIGKILL) and comes back empty: every queued job and lock is gone. */
describeFault('fault: Redis killed and restarted empty during a stream of uploads', {}, (topology) => {
  it('re-enqueues what Redis lost as soon as it is back, and answers 503 while it is down', async () => {
    const t = topology();
    const stream = t.stream(STREAM);
    await sleep(5000);
    await t.outage('Redis', () => t.killRedis(), () => t.startRedis(), 5000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
