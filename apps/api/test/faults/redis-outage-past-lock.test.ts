import { expect, it } from 'vitest';
import { describeFault, STREAM } from './fault-suite.ts';

/**
 * Redis dies while a long file runs and stays down longer than the job lock (3 s here); it keeps its
 * data (append-only file), so when it is back the job's lock has expired and another LEDES worker's
 * stalled check takes the job over while the first worker may still be running it.
 */
describeFault('fault: Redis down longer than the job lock during a long file', { persistentRedis: true, ledesWorkers: 2 }, (topology) => {
  it('runs the long file\'s side effects once (one delivery to step 2) and settles every run', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await t.outage('Redis', () => t.killRedis(), () => t.startRedis(), 5000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
