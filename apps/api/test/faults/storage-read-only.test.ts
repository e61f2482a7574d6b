import { expect, it } from 'vitest';
import { sleep, type FaultTopology, type ReadinessAnswer } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/**
 * The S3 store refuses every write for 20 s (503; a write under way fails as a whole), as a store whose disk
 * turned read-only does; reads keep working.
 */
describeFault('fault: storage read-only 20 s during a stream of uploads', {}, (topology) => {
  it('keeps every worker alive, leaves no partial or orphan object, answers 503 to uploads meanwhile', async () => {
    const t = topology();
    // A long file is mid-run when the fault hits, as are the small files of the stream.
    const longRun = await t.upload(await t.longFile(), 'long.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await sleep(1000);
    // Issue 26: readiness read the store only (a stat), so the API and every worker said ready while
    // every upload got 503. Each probes a write now (cached 5 s, bounded 2 s): all say 503 within 10 s.
    let notReady: Promise<ReadinessAnswer[]> | undefined;
    await t.outage(
      'storage (read-only)',
      () => {
        t.s3.setReadOnly(true);
        notReady = readinessUntil(t, (r) => r.status === 503 && r.checks.storage === 'down', 10_000);
      },
      () => t.s3.setReadOnly(false),
      20_000,
    );
    const during = await notReady!;
    expect(during.length, 'the API, the LEDES workers and the mail worker answer /readyz').toBe(2 + t.ledesWorkers.length);
    expect(during.filter((r) => r.status !== 503 || r.checks.storage !== 'down'), 'ready while storage refused writes').toEqual([]);
    // Ready again once it takes writes.
    const after = await readinessUntil(t, (r) => r.status === 200, 15_000);
    expect(after.filter((r) => r.status !== 200)).toEqual([]);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});

/** Polls /readyz everywhere until every answer satisfies `ok` or `timeoutMs` passed; the last answers. */
async function readinessUntil(t: FaultTopology, ok: (answer: ReadinessAnswer) => boolean, timeoutMs: number): Promise<ReadinessAnswer[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answers = await t.readiness();
    if (answers.every(ok) || Date.now() > deadline) return answers;
    await sleep(500);
  }
}
