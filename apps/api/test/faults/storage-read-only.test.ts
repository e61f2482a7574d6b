import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
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
    await t.outage('storage (read-only)', () => t.s3.setReadOnly(true), () => t.s3.setReadOnly(false), 20_000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
