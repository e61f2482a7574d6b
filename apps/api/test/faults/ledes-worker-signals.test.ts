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

  it('SIGTERM during a job longer than the shutdown grace: the worker hands it back and exits cleanly; the restarted worker finishes it', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long-terminated.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    // A slow store (1 MiB/s) keeps the long file running past the worker's 30 s shutdown grace, as a
    // million-line file would; full speed again once the worker has exited.
    t.s3.throttleReads(1024 * 1024);
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await sleep(1000);
    const worker = t.ledesWorkers[0]!;
    const terminate = async () => {
      await t.signal(worker, 'SIGTERM');
      t.s3.throttleReads(null);
    };
    await t.outage('LEDES worker (SIGTERM)', terminate, async () => {
      await t.restartLedesWorker(worker);
    }, 1000);
    const { exitCode } = worker.process.child;
    await stream;
    const problems = await t.violations();
    if (exitCode !== 0) problems.unshift(`the worker exited with code ${exitCode} on SIGTERM instead of handing the job back and exiting 0:\n${worker.process.output().slice(-1500)}`);
    expect(problems).toEqual([]);
  });
});
