import { expect, it } from 'vitest';
import { sleep, type FaultTopology, type ReadinessAnswer } from '../support/fault-topology.ts';
import { RUN_KIND_FAULTS } from '../support/run-kinds.ts';
import { describeFault, longRunProblems, runMidway, startLongRuns, STREAM } from './fault-suite.ts';

/**
 * A dependency goes away while one long run of every run kind is mid-input and a stream of uploads,
 * logins and reset mails goes on; one topology for the three faults (two workers per kind, so a run
 * Redis lost could be taken by an idle worker while its own still works on it). Each test starts its
 * own long runs; the topology's checks cover every run so far.
 */
describeFault('fault: a dependency down during one long run of every kind and a stream of uploads', { workersPerKind: 2 }, (topology) => {
  it('PostgreSQL stopped 20 s: every worker stays alive, every run ends within a minute, once; 503 while it is down', async () => {
    const t = topology();
    const long = await startLongRuns(t, 'pg');
    const stream = t.stream(STREAM);
    await long.midway();
    await sleep(1000);
    await t.outage('PostgreSQL', () => t.stopPostgres(), () => t.startPostgres(), 20_000);
    await stream;
    const problems = await t.violations();
    problems.push(...(await longRunProblems(t, long, { states: ['Done', 'Error'] })));
    expect(problems).toEqual([]);
  });

  it('storage read-only 20 s: every worker stays alive and says not ready, no partial or orphan object, every run ends once; 503 to uploads meanwhile', async () => {
    const t = topology();
    const long = await startLongRuns(t, 'ro');
    const stream = t.stream(STREAM);
    await long.midway();
    await sleep(1000);
    // Issue 26: readiness read the store only (a stat), so the API and every worker said ready while
    // every upload got 503. Each probes a write now (cached 5 s, bounded 2 s): all say 503 within 10 s.
    let notReady: Promise<ReadinessAnswer[]> | undefined;
    await t.outage(
      'storage (read-only)',
      () => {
        t.s3.setReadOnly(true);
        const storeless = new Set(RUN_KIND_FAULTS.filter((k) => k.usesStorage === false).flatMap((k) => t.workersOf(k.queue).map((w) => w.name)));
        notReady = readinessUntil(t, (r) => storeless.has(r.name) || (r.status === 503 && r.checks.storage === 'down'), 10_000);
      },
      () => t.s3.setReadOnly(false),
      20_000,
    );
    const during = await notReady!;
    const workers = RUN_KIND_FAULTS.reduce((n, kind) => n + t.workersOf(kind.queue).length, 0);
    expect(during.length, 'the API, the mail worker and every run kind worker answer /readyz').toBe(2 + workers);
    // The workers of a kind that stores nothing (the register sync) have no storage to check: they stay ready.
    const storeless = new Set(RUN_KIND_FAULTS.filter((k) => k.usesStorage === false).flatMap((k) => t.workersOf(k.queue).map((w) => w.name)));
    expect(during.filter((r) => !storeless.has(r.name) && (r.status !== 503 || r.checks.storage !== 'down')), 'ready while storage refused writes').toEqual([]);
    expect(during.filter((r) => storeless.has(r.name) && (r.status !== 200 || 'storage' in r.checks)), 'a worker without storage said not ready').toEqual([]);
    // Ready again once it takes writes.
    const after = await readinessUntil(t, (r) => r.status === 200, 15_000);
    expect(after.filter((r) => r.status !== 200)).toEqual([]);
    await stream;
    const problems = await t.violations();
    problems.push(...(await longRunProblems(t, long, { states: ['Done', 'Error'] })));
    expect(problems).toEqual([]);
  });

  /**
   * Issue 29 (done-when 3): OPS answers 429 with Retry-After mid-batch. The run pauses (`paused_until`, its lease
   * held by nobody until then), its job ends; once the pause is over and the run silent, the sweep takes it again
   * and it resumes from its cursor to Done, each patent read once and written once.
   */
  it('OPS throttles the register sync mid-batch: paused until Retry-After, then resumed from its cursor to Done, nothing read or written twice', { timeout: 480_000 }, async () => {
    const t = topology();
    const kind = RUN_KIND_FAULTS.find((k) => k.queue === 'register-sync')!;
    const id = await kind.start(t, 'throttled-register-sync');
    const run = { kind, id, jobId: `${kind.queue}-${id}`, samples: [] };
    await runMidway(t, run);
    t.ops.throttle(1, 2);
    let paused: { paused_until: Date | null; pause_reason: string | null; done: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (!paused?.paused_until && Date.now() < deadline) {
      await sleep(100);
      paused = (await t.db.query('select paused_until, pause_reason, done from register_sync_runs where id = $1', [id])).rows[0];
    }
    expect(t.ops.throttled, 'OPS answered 429 once').toBe(1);
    expect(paused, 'the run paused on the 429').toMatchObject({ paused_until: expect.any(Date), pause_reason: 'throttled' });
    // Resumed: the API's sweep (every minute) enqueues it once its 2 s pause is over, not three heartbeats of silence
    // (SILENT_RUN_AFTER_MS, 3 min) after it paused.
    const pausedAt = Date.now();
    let row: { state: string; attempts: number; paused_until: Date | null; done: number } | undefined;
    const read = async () => (row = (await t.db.query('select state, attempts, paused_until, done from register_sync_runs where id = $1', [id])).rows[0]);
    while (Date.now() < pausedAt + 90_000 && (await read())?.paused_until) await sleep(500);
    expect(row, 'the paused run resumed within a sweep of its pause ending').toMatchObject({ paused_until: null });
    const doneBy = Date.now() + 240_000;
    while (Date.now() < doneBy && (await read())?.state === 'in_progress') await sleep(1000);
    expect(row, 'the resumed run ended Done').toMatchObject({ state: 'Done', paused_until: null });
    expect(row!.done).toBeGreaterThan(paused!.done);
    expect(await kind.once(t, id)).toEqual([]);
  });

  /**
   * Issue 27: Redis comes back empty and the API's sweep enqueues every run in progress again,
   * those a live worker still processes included; an idle worker takes the job and the same run is
   * processed twice side by side. Last of the file: a run processed twice leaves its marks for later tests.
   */
  it('Redis killed and restarted empty: what it lost is enqueued again, no run processed twice at once, 503 while it is down', async () => {
    const t = topology();
    const long = await startLongRuns(t, 'redis');
    const stream = t.stream(STREAM);
    await long.midway();
    await t.outage('Redis', () => t.killRedis(), () => t.startRedis(), 5000);
    await stream;
    const problems = await t.violations();
    problems.push(...(await longRunProblems(t, long)));
    expect(problems).toEqual([]);
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
