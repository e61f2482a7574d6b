/**
 * The embedded database's maintenance (issue 28, decision 175): `npm run bench -- scale`. A PGlite data
 * directory on disk (the embedded default) with BENCH_PATENTS (100,000) demo patents, then:
 * - the default tab's count and list page (admin and agent) before the policy, after it, and after a manual
 *   `VACUUM ANALYZE` of the whole database (the reference, same run);
 * - the policy's statements per table (ms) and the worst latency of a probe query (a session lookup every
 *   20 ms, timed from when it was due: PGlite holds the API's thread, so this is what a request sees);
 * - the same for BENCH_FINDINGS (1,000,000) LEDES findings of one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PatentListQuery } from '@portal/contracts';
import { createMaintenance, openDatabase, type StepResult } from '@portal/db';
import { rowsOf, seedDemoPortfolio } from '@portal/jobs';
import { createLogger } from '@portal/logger';
import type { AppContext } from '../apps/api/src/context.ts';
import { listPatents, type PatentScope } from '../apps/api/src/modules/patents/service.ts';
import { seedBaseData } from '../apps/api/src/seed.ts';

const PATENTS = Number(process.env.BENCH_PATENTS ?? 100_000);
const FINDINGS = Number(process.env.BENCH_FINDINGS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 15);
const PROBE_EVERY_MS = 20;
const TODAY = new Date().toISOString().slice(0, 10);

const ms = (value: number) => value.toFixed(1);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const report = (name: string, a: string, b = '', c = '') => console.log(`${name.padEnd(60)} ${a.padStart(14)} ${b.padStart(14)} ${c.padStart(12)}`);
const load = () => loadavg()[0]!.toFixed(1);

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-vacuum-'));
const database = openDatabase({ driver: 'pglite', dataDir });
const db = database.db;
const timed = async (work: () => Promise<unknown>) => {
  const begun = performance.now();
  await work();
  return performance.now() - begun;
};

/** Runs `work` while a probe query is due every PROBE_EVERY_MS; returns its result and the probe's worst latency from due time. */
async function withProbe<T>(work: () => Promise<T>): Promise<[T, { max: number; p50: number; n: number }]> {
  const latencies: number[] = [];
  let stop = false;
  const probe = (async () => {
    while (!stop) {
      const due = performance.now() + PROBE_EVERY_MS;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      await db.execute(sql`select user_id from sessions where token_hash = ${'probe'}`);
      latencies.push(performance.now() - due);
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    // The probe due during the last statement is answered after it: it counts.
    stop = true;
    await probe;
  }
  return [result, { max: Math.max(0, ...latencies), p50: latencies.length ? percentile(latencies, 50) : 0, n: latencies.length }];
}

try {
  await database.migrate();
  await seedBaseData(db, { email: 'bench@portal.example.com', password: 'bench-admin-password' });
  console.log(`machine: ${cpus().length} cpus, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; PGlite on disk; patents ${PATENTS}, findings ${FINDINGS}; load ${load()}`);
  const seedMs = await timed(() => seedDemoPortfolio(db, { patents: PATENTS, cabinets: 50, today: TODAY, passwordHash: null }));
  report(`seed ${PATENTS} patents`, `${ms(seedMs)} ms`, '', `load ${load()}`);

  const ctx = { db, clock: { now: () => new Date() }, logger: createLogger({ level: 'warn', name: 'bench-vacuum' }) } as unknown as AppContext;
  const [agent] = rowsOf<{ cabinets: string[]; code: string[] }>(
    await db.execute(sql`select u.code, (select array_agg(cabinet_id) from user_cabinets where user_id = u.id) as cabinets from users u where email = 'agent.annuites.01@portal.local'`),
  );
  const agentScope: PatentScope = { kind: 'owned', cabinetIds: agent!.cabinets, codes: agent!.code };
  const base: PatentListQuery = { tab: 'unprocessed', sort: 'DateEcheance', order: 'asc', page: 1, limit: 25 };
  const countTab = sql`select count(*) from patent_records where has_instruction = false`;

  const series = async (work: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(work));
    return `p50 ${ms(percentile(times, 50))}`.padEnd(12) + ` max ${ms(Math.max(...times))}`;
  };
  const lists = async (when: string) => {
    report(`${when}: count, default tab (admin)`, await series(() => db.execute(countTab)), '', `load ${load()}`);
    report(`${when}: list page, default tab (admin)`, await series(() => listPatents(ctx, { kind: 'all' }, base)));
    report(`${when}: list page, default tab (agent)`, await series(() => listPatents(ctx, agentScope, base)));
  };
  const steps = (results: StepResult[]) => {
    for (const r of results) report(`  policy: ${r.action} ${r.table}`, `${ms(r.ms)} ms`);
  };
  const statement = async (label: string, query: SQL) => {
    const [took, probe] = await withProbe(() => timed(() => db.execute(query)));
    report(label, `${ms(took)} ms`, `probe max ${ms(probe.max)}`, `load ${load()}`);
  };

  console.log('\n(ms; probe: a session lookup due every 20 ms, latency from due time)');
  await lists('before');
  const maintenance = createMaintenance({ db });
  const [policy, probe] = await withProbe(async () => {
    const begun = performance.now();
    const results = await maintenance.pass();
    return { results, ms: performance.now() - begun };
  });
  report('policy pass (every table over its thresholds)', `${ms(policy.ms)} ms`, `probe max ${ms(probe.max)}`, `load ${load()}`);
  report('  probe during the pass', `p50 ${ms(probe.p50)}`, `n ${probe.n}`);
  steps(policy.results);
  report('  longest statement', `${ms(Math.max(...policy.results.map((r) => r.ms)))} ms`);
  await lists('after the policy');
  // Variants on the table now vacuumed once (decision 175).
  await statement('patent_records: ANALYZE, default target (100)', sql`analyze patent_records`);
  await statement('patent_records: VACUUM (index cleanup) of a vacuumed table', sql`vacuum patent_records`);
  await statement('patent_records: VACUUM (INDEX_CLEANUP OFF) of a vacuumed table', sql`vacuum (index_cleanup off) patent_records`);
  await statement('reference: manual VACUUM ANALYZE (whole database)', sql`vacuum analyze`);
  await lists('after manual VACUUM ANALYZE (reference)');

  if (FINDINGS > 0) {
    const [admin] = rowsOf<{ id: string }>(await db.execute(sql`select id from users where email = 'bench@portal.example.com'`));
    const [run] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into ledes_runs (owner_id, name, original_name, original_key, size, sha256, office, type)
        values (${admin!.id}, 'bench', 'bench.txt', 'ledes/original/bench', 1, 'x', 'FR', 'patent') returning id`),
    );
    const insertMs = await timed(async () => {
      for (let from = 0; from < FINDINGS; from += 100_000) {
        await db.execute(sql`insert into ledes_findings (run_id, line, code, champ, severity, found, expected)
          select ${run!.id}, g, 'CON-00' || (g % 7), 'FIELD_' || (g % 13), case when g % 3 = 0 then 'warning' else 'error' end, (g % 1000)::text, null
          from generate_series(${from}::int, ${Math.min(FINDINGS, from + 100_000) - 1}::int) g`);
      }
    });
    report(`insert ${FINDINGS} LEDES findings`, `${ms(insertMs)} ms`, '', `load ${load()}`);
    const countRun = sql`select count(*) from ledes_findings where run_id = ${run!.id} and severity = 'error'`;
    report('before: findings of the run (count)', await series(() => db.execute(countRun)));
    const [findingsPolicy, findingsProbe] = await withProbe(() => maintenance.pass({ tables: ['ledes_findings'] }));
    report('policy pass on ledes_findings', `${ms(findingsPolicy.reduce((a, r) => a + r.ms, 0))} ms`, `probe max ${ms(findingsProbe.max)}`, `load ${load()}`);
    steps(findingsPolicy);
    report('after the policy: findings of the run (count)', await series(() => db.execute(countRun)));
    await statement('ledes_findings: ANALYZE, default target (100)', sql`analyze ledes_findings`);
    await statement('reference: manual VACUUM ANALYZE ledes_findings', sql`vacuum analyze ledes_findings`);
    report('after manual VACUUM ANALYZE: findings of the run (count)', await series(() => db.execute(countRun)));
  }
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
