import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/**
 * Two LEDES workers on the same queue, as `docker compose up --scale worker-ledes=2` runs them: the
 * one stopped is the one holding the long file, found by the job it logged.
 */
describeFault('fault: the LEDES worker holding a long file is stopped, a second one running', { ledesWorkers: 2 }, (topology) => {
  it('SIGKILL: another worker takes the run over once its lock expires; nothing lost, nothing delivered twice', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long-killed.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    const worker = await t.holderOf(longRun!);
    await sleep(1000);
    await t.outage('LEDES worker (SIGKILL)', () => t.signal(worker, 'SIGKILL'), async () => {
      await t.restartLedesWorker(worker);
    }, 2000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });

  it('SIGTERM during a job longer than the shutdown grace: the worker hands it back and exits 0; the other worker ends it Done, its side effects once', async () => {
    const t = topology();
    const longRun = await t.upload(await t.longFile(), 'long-terminated.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    // A slow store (1 MiB/s) keeps the long file running past the worker's 30 s shutdown grace, as a
    // million-line file would; full speed again once the worker has exited.
    t.s3.throttleReads(1024 * 1024);
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    const holder = await t.holderOf(longRun!);
    const other = t.ledesWorkers.find((w) => w !== holder)!;
    await sleep(1000);
    // No restart: the second worker, already running, is the one that must finish the run.
    await t.outage('LEDES worker (SIGTERM)', async () => {
      await t.signal(holder, 'SIGTERM');
      t.s3.throttleReads(null);
    }, () => undefined, 0);
    const { exitCode } = holder.process.child;
    await stream;
    const problems = await t.violations();
    if (exitCode !== 0) problems.unshift(`the worker exited with code ${exitCode} on SIGTERM instead of handing the job back and exiting 0:\n${holder.process.output().slice(-1500)}`);
    expect(problems).toEqual([]);

    const { rows } = await t.db.query('select state from ledes_runs where id = $1', [longRun]);
    expect(rows[0]).toMatchObject({ state: 'Done' });
    const finished = (w: typeof holder) => w.process.output().split('\n').some((line) => line.includes('ledes run done') && line.includes(longRun!));
    expect(finished(other), 'the second worker did not finish the run').toBe(true);
    expect(finished(holder), 'the stopped worker finished the run before exiting').toBe(false);
    // One set of findings: a handed-back attempt's partial findings are replaced, never added to.
    const findings = (await t.db.query('select count(*)::int as n, count(distinct (line, code, champ))::int as d from ledes_findings where run_id = $1', [longRun])).rows[0] as { n: number; d: number };
    expect(findings.n).toBe(findings.d);
    // The file is valid: accepted, delivered to step 2 exactly once.
    const [run] = (await t.db.query('select accepted, delivered_key from ledes_runs where id = $1', [longRun])).rows as Array<{ accepted: boolean; delivered_key: string | null }>;
    expect(run).toMatchObject({ accepted: true });
    expect(t.s3.created.get(run!.delivered_key!)).toBe(1);
  });
});
