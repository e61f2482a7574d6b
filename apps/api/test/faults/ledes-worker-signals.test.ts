import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/** One LEDES worker, so the one stopped is the one running the long file. */
describeFault('fault: LEDES worker stopped during a long file', { ledesWorkers: 1 }, (topology) => {
  it('SIGKILL: the restarted worker takes the run over; nothing lost, nothing delivered twice', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long-killed.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await sleep(1000);
    const worker = t.ledesWorkers[0]!;
    await t.outage('LEDES worker (SIGKILL)', () => t.signal(worker, 'SIGKILL'), async () => {
      await t.restartLedesWorker(worker);
    }, 2000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });

  it('SIGTERM: the worker hands the long file back and exits cleanly; the restarted worker finishes it', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long-terminated.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await sleep(1000);
    const worker = t.ledesWorkers[0]!;
    await t.outage('LEDES worker (SIGTERM)', () => t.signal(worker, 'SIGTERM'), async () => {
      await t.restartLedesWorker(worker);
    }, 1000);
    expect(worker.process.child.exitCode, `the worker did not exit cleanly on SIGTERM:\n${worker.process.output().slice(-3000)}`).toBe(0);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
