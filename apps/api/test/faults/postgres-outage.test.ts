import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

describeFault('fault: PostgreSQL stopped 20 s during a stream of uploads', {}, (topology) => {
  it('keeps every worker alive, settles every run and mail once, answers 503 while the database is down', async () => {
    const t = topology();
    // A long file is mid-run when the fault hits, as are the small files of the stream.
    const longRun = await t.upload(await t.longFile(), 'long.txt');
    expect(longRun, 'the long file was not accepted').toBeDefined();
    const stream = t.stream(STREAM);
    await t.waitForStart(longRun!);
    await sleep(1000);
    await t.outage('PostgreSQL', () => t.stopPostgres(), () => t.startPostgres(), 20_000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
