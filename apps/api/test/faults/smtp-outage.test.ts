import { expect, it } from 'vitest';
import { sleep } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/** The SMTP server goes away for 15 s and comes back on the same port. */
describeFault('fault: SMTP down then up during a stream of uploads', {}, (topology) => {
  it('sends every mail exactly once after SMTP is back', async () => {
    const t = topology();
    const stream = t.stream(STREAM);
    await sleep(2000);
    await t.outage('SMTP', () => t.stopSmtp(), () => t.startSmtp(), 15_000);
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});
