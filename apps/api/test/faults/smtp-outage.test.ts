import { expect, it } from 'vitest';
import { sleep, type FaultTopology, type ReadinessAnswer } from '../support/fault-topology.ts';
import { describeFault, STREAM } from './fault-suite.ts';

/** The SMTP server goes away for 15 s and comes back on the same port. */
describeFault('fault: SMTP down then up during a stream of uploads', {}, (topology) => {
  it('sends every mail exactly once after SMTP is back', async () => {
    const t = topology();
    const stream = t.stream(STREAM);
    await sleep(2000);
    // Issue 26: the mail worker's readiness includes its SMTP server (nodemailer verify, cached 5 s).
    let mailReadiness: Promise<ReadinessAnswer | undefined> | undefined;
    await t.outage(
      'SMTP',
      async () => {
        await t.stopSmtp();
        mailReadiness = mailWorkerUntil(t, (r) => r.status === 503 && r.checks.smtp === 'down', 10_000);
      },
      () => t.startSmtp(),
      15_000,
    );
    expect(await mailReadiness, 'the mail worker said ready while SMTP was down').toMatchObject({ status: 503, checks: { smtp: 'down' } });
    expect(await mailWorkerUntil(t, (r) => r.status === 200, 15_000)).toMatchObject({ status: 200, checks: { smtp: 'ok' } });
    await stream;
    expect(await t.violations()).toEqual([]);
  });
});

/** Polls the mail worker's /readyz until `ok` or `timeoutMs` passed; its last answer. */
async function mailWorkerUntil(t: FaultTopology, ok: (answer: ReadinessAnswer) => boolean, timeoutMs: number): Promise<ReadinessAnswer | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = (await t.readiness()).find((r) => r.name === 'mail worker');
    if ((answer && ok(answer)) || Date.now() > deadline) return answer;
    await sleep(500);
  }
}
