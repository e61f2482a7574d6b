import { afterAll, beforeAll, describe } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { faultSuiteUnavailable, jobStarts, sleep, startFaultTopology, type FaultTopology, type TopologyOptions } from '../support/fault-topology.ts';
import { describedRunKinds, type RunKindFaults } from '../support/run-kinds.ts';

/** Why the suite skips here: it runs where the PostgreSQL suites run and PostgreSQL's binaries are installed. */
function skipReason(): string | null {
  if (!testDatabaseBaseUrl()) return 'no TEST_DATABASE_URL: the PostgreSQL suites are off';
  return faultSuiteUnavailable();
}

/**
 * One fault scenario on its own production topology (started before, torn down after). The body
 * declares its tests with `its`, reading the topology through the getter once it is up.
 */
export function describeFault(title: string, options: TopologyOptions, body: (topology: () => FaultTopology) => void): void {
  const reason = skipReason();
  if (reason) console.warn(`[faults] ${title}: skipped, ${reason}`);
  describe.skipIf(reason !== null)(reason ? `${title} (skipped: ${reason})` : title, () => {
    let topology: FaultTopology | undefined;
    beforeAll(async () => {
      topology = await startFaultTopology(options);
    });
    afterAll(async () => {
      await topology?.cleanup();
    });
    body(() => {
      if (!topology) throw new Error('the fault topology did not start');
      return topology;
    });
  });
}

/** The stream every scenario runs its fault under: ~20 s of uploads, logins and reset mails. */
export const STREAM = { files: 24, durationMs: 20_000, mails: 4, logins: 10 } as const;

/** One long run of one run kind, with the row's attempts and state sampled over the test. */
export interface LongRun {
  kind: RunKindFaults;
  id: string;
  /** `<queue>-<id>`, the BullMQ job id the workers log. */
  jobId: string;
  /** Whenever the row's attempts or state changed: when, to what. */
  samples: Array<{ at: number; attempts: number; state: string }>;
}

export interface LongRuns {
  runs: LongRun[];
  /** Until every run's row says it started and it has done part of its input. */
  midway(timeoutMs?: number): Promise<void>;
  /** Stops sampling the rows. */
  stop(): Promise<void>;
}

/**
 * Starts one long run of every run kind together over HTTP (`run-kinds.ts`), so one topology takes
 * each fault over all of them, and samples each row every 200 ms (a read failing during an outage is
 * skipped). `tag` keeps the inputs of two tests of one topology apart.
 */
export async function startLongRuns(t: FaultTopology, tag: string): Promise<LongRuns> {
  const kinds = describedRunKinds();
  const ids = await Promise.all(kinds.map((kind) => kind.start(t, `${tag}-${kind.queue}`)));
  const runs: LongRun[] = kinds.map((kind, i) => ({ kind, id: ids[i]!, jobId: `${kind.queue}-${ids[i]}`, samples: [] }));
  let sampling = true;
  const sample = async () => {
    for (const run of runs) {
      try {
        const { rows } = await t.db.query(`select attempts, state from ${run.kind.table} where id = $1`, [run.id]);
        const row = rows[0] as { attempts: number; state: string } | undefined;
        const last = run.samples.at(-1);
        if (row && (!last || last.attempts !== row.attempts || last.state !== row.state)) run.samples.push({ at: Date.now(), ...row });
      } catch {
        // the database is down: the next sample reads it again
      }
    }
  };
  const loop = (async () => {
    while (sampling) {
      await sample();
      await sleep(200);
    }
  })();
  return {
    runs,
    async midway(timeoutMs = 120_000) {
      await Promise.all(runs.map((run) => runMidway(t, run, timeoutMs)));
    },
    async stop() {
      sampling = false;
      await loop;
    },
  };
}

/** Until the run's row says it started and it has done part of its input. */
export async function runMidway(t: FaultTopology, run: LongRun, timeoutMs = 120_000): Promise<void> {
  await t.waitForStart(run.id, timeoutMs, run.kind.table);
  const deadline = Date.now() + timeoutMs;
  while (!(await run.kind.midway(t, run.id))) {
    if (Date.now() > deadline) throw new Error(`${run.jobId} never got part-way`);
    await sleep(100);
  }
}

export interface RunExpectations {
  /** The states the runs may end in (Done only, unless the fault may exhaust the attempts). */
  states?: ReadonlyArray<'Done' | 'Error'>;
}

/**
 * What the long runs must show once the topology settled (after `violations()`): each ended in an
 * expected state; a Done run's rows once and its result objects written at most once per attempt; and
 * never two processors on one run at once.
 */
export async function longRunProblems(t: FaultTopology, longRuns: LongRuns, expectations: RunExpectations = {}): Promise<string[]> {
  await longRuns.stop();
  const states = expectations.states ?? ['Done'];
  const problems: string[] = [];
  const ended: string[] = [];
  for (const run of longRuns.runs) {
    const { rows } = await t.db.query(`select state, attempts, error_code from ${run.kind.table} where id = $1`, [run.id]);
    const row = rows[0] as { state: 'in_progress' | 'Done' | 'Error'; attempts: number; error_code: string | null };
    if (!states.includes(row.state as 'Done' | 'Error')) problems.push(`${run.jobId} ended ${row.state} (error ${row.error_code ?? 'none'}, attempts ${row.attempts}); expected ${states.join(' or ')}`);
    if (row.state === 'Done') {
      problems.push(...(await run.kind.once(t, run.id)));
      // An attempt that failed before its Done commit (PostgreSQL down) leaves nothing the retry does not
      // rewrite under the same key: one write per claim at most; two claims at once are twoAtOnce's.
      for (const key of await run.kind.results(t, run.id)) {
        const times = t.s3.created.get(key) ?? 0;
        if (times < 1 || times > row.attempts) problems.push(`${run.jobId}: its result ${key} was written ${times} times in ${row.attempts} attempt(s) (expected once per attempt at most)`);
      }
    }
    problems.push(...twoAtOnce(t, run));
    ended.push(`${run.kind.queue} ${row.state}${row.error_code ? ` (${row.error_code})` : ''} after ${row.attempts} attempt(s)`);
  }
  console.info(`[faults] long runs: ${ended.join(', ')}`);
  return problems;
}

/**
 * Two processors on one run at once: each processor claims the run by raising its `attempts`; a claim
 * made while another worker was still on the run (it started the job, and had neither logged the job's
 * failure nor been stopped, nor exited) means two processed it side by side. A worker that receives the
 * job but leaves a run another holds (a lease) does not claim it, and is not counted.
 */
export function twoAtOnce(t: FaultTopology, run: LongRun): string[] {
  const problems: string[] = [];
  const workers = t.everyWorkerOf(run.kind.queue);
  for (let i = 1; i < run.samples.length; i++) {
    const claim = run.samples[i]!;
    if (claim.attempts <= run.samples[i - 1]!.attempts) continue;
    if (claim.attempts < 2) continue;
    // Each start of the job since the worker's last logged failure of it is a processor still on it,
    // unless the worker was stopped or exited before the claim.
    const onIt = workers.flatMap((w) => {
      if (Math.min(w.signalledAt ?? Infinity, w.exitedAt ?? Infinity) <= claim.at) return [];
      const lastFailure = Math.max(-Infinity, ...jobFailures(w, run.jobId).filter((f) => f <= claim.at));
      return jobStarts(w, run.jobId)
        .filter((s) => s <= claim.at && s > lastFailure)
        .map(() => w.name);
    });
    if (onIt.length >= 2) {
      problems.push(`${run.jobId} was processed twice at once: attempt ${claim.attempts} claimed it while ${onIt.length} processors were on it (${onIt.join(', ')}), none failed nor stopped`);
    }
  }
  return problems;
}

/** When a worker logged that the job failed (`<queue> job failed`). */
function jobFailures(worker: ReturnType<FaultTopology['everyWorkerOf']>[number], jobId: string): number[] {
  const times: number[] = [];
  for (const line of worker.process.output().split('\n')) {
    if (!line.includes(`"jobId":"${jobId}"`) || !line.includes('job failed')) continue;
    try {
      times.push(Date.parse((JSON.parse(line) as { time: string }).time));
    } catch {
      continue;
    }
  }
  return times;
}
