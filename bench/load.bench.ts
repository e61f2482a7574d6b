/**
 * `npm run bench -- load`: 100 connections for 20 s (LOAD_SECONDS, LOAD_CONNECTIONS) on
 * `GET /api/historique` (a user with 5,000 runs, two of the 20 listed refused with 200,000 findings)
 * and on `GET /api/auth/check_token`, beside a hello-world Express server, for each topology:
 * production (the API process, PostgreSQL, Redis on a private port) and embedded (the API alone, on
 * PGlite). Prints req/s, p50, p99, ratio to hello-world, errors, the API's RSS after the load and the
 * latency of one request right after it (a stalled API answers late). All traffic is to 127.0.0.1.
 * LOAD_TOPOLOGIES=production,embedded chooses; production needs PostgreSQL (TEST_DATABASE_URL or
 * 127.0.0.1:5432).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseConfig } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { freePort, startProcess, type RunningProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);
const RUNS = 5000;
const REFUSED_LINES = 200_000;
/** Positions, newest first, of the refused runs: both on the first page of 20. */
const REFUSED_AT = [3, 12];
const TOPOLOGIES = (process.env.LOAD_TOPOLOGIES ?? 'production,embedded').split(',');
/** LOAD_TARGETS=hello,history,check_token chooses what is loaded (all by default). */
const TARGETS = (process.env.LOAD_TARGETS ?? 'hello,history,check_token').split(',');
/** LOAD_CPU_PROF=<dir>: the API runs under the CPU profiler (bench/profiled-entry.ts) and writes its profile there when it stops. */
const CPU_PROF_DIR = process.env.LOAD_CPU_PROF;
const apiKey = BENCH_API_KEY;

interface Row {
  topology: string;
  target: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  rssMiB: number | null;
  afterMs: number;
  /** CPU time per request of the serving process (the API, or the hello server), in µs. */
  cpuUs: number;
  /** CPU time per request of the PostgreSQL backends serving the API (production only), in µs. */
  pgCpuUs: number | null;
}

/** utime + stime of a process, in ms (the kernel counts in ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU of the PostgreSQL backends of one database, read from /proc: on a shared machine the CPU a
 * request costs is steadier than its wall-clock rate. Backends that start during the load count from zero.
 */
async function pgBackendsCpu(url: string): Promise<Map<number, number>> {
  const handle = openDatabase({ driver: 'postgres', url, poolSize: 1 });
  try {
    const result: unknown = await handle.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    const { rows } = result as { rows: Array<{ pid: number }> };
    return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
  } finally {
    await handle.close();
  }
}

function rssMiB(proc: RunningProcess): number | null {
  try {
    const status = readFileSync(`/proc/${proc.child.pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
  } catch {
    return null;
  }
}

/** 5,000 finished runs of the agent, newest first; two refused 200,000-line runs with one error per line. */
async function seed(config: DatabaseConfig, ownerId: string): Promise<void> {
  const handle = openDatabase(config);
  try {
    const { db } = handle;
    await db.execute(sql`
      insert into ledes_runs (owner_id, name, original_name, original_key, treated_key, size, sha256, office, type, id_client,
                              state, lines_checked, accepted, created_at, finished_at)
      select ${ownerId}::uuid, '2026_01_01_00_00_00_bench-' || g || '.txt', 'bench-' || g || '.txt', 'ledes/original/bench/' || g || '.txt',
             'ledes/treated/bench/' || g || '.xlsx', 300000, 'x', 'PAR', 'patent', 'C-1', 'Done', 1000, true,
             now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, ${RUNS}::integer) g`);
    // One warning per accepted run, as most real files have.
    await db.execute(sql`
      insert into ledes_findings (run_id, line, code, champ, severity)
      select id, 0, 'FMT-006', 'LINE_ITEM_DESCRIPTION', 'warning' from ledes_runs where owner_id = ${ownerId}::uuid`);
    for (const position of REFUSED_AT) {
      const key = `ledes/original/bench/${position}.txt`;
      await db.execute(sql`update ledes_runs set accepted = false, lines_checked = ${REFUSED_LINES}::integer where original_key = ${key}`);
      await db.execute(sql`
        insert into ledes_findings (run_id, line, code, champ, severity)
        select r.id, g, 'CON-001', 'INVOICE_TOTAL', 'error' from ledes_runs r, generate_series(0, ${REFUSED_LINES - 1}::integer) g
        where r.original_key = ${key}`);
    }
    // The same summary the worker writes when a run finishes, where the schema has it (not before issue 8).
    const summaryColumn: unknown = await db.execute(sql`select 1 from information_schema.columns where table_name = 'ledes_runs' and column_name = 'error_line_count'`);
    const hasSummary = summaryColumn as { rows: unknown[] };
    if (hasSummary.rows.length > 0) {
      await db.execute(sql`
        update ledes_runs r set
          error_line_count = (select count(distinct f.line) from ledes_findings f where f.run_id = r.id and f.severity = 'error'),
          refused_line_count = (select count(distinct f.line) from ledes_findings f where f.run_id = r.id and f.severity = 'error' and f.line >= 0),
          warning_count = (select count(*) from ledes_findings f where f.run_id = r.id and f.severity = 'warning'),
          first_error_lines = array(select distinct f.line from ledes_findings f where f.run_id = r.id and f.severity = 'error' order by f.line limit 100),
          first_ok_lines = array(select g from generate_series(0, r.lines_checked - 1) g
            where not exists (select 1 from ledes_findings f where f.run_id = r.id and f.line = g and f.severity = 'error') order by g limit 100)
        where r.owner_id = ${ownerId}::uuid`);
    }
    // Steady state: PostgreSQL's autovacuum would have analysed the new rows and set the visibility map
    // within a minute; PGlite has no autovacuum, so the embedded mode is measured the same way.
    await db.execute(sql`vacuum analyze ledes_runs`);
    await db.execute(sql`vacuum analyze ledes_findings`);
  } finally {
    await handle.close();
  }
}

async function hit(url: string, headers: Record<string, string>, pid: number | undefined, databaseUrl: string | undefined): Promise<Omit<Row, 'topology' | 'target' | 'rssMiB' | 'afterMs'>> {
  const cpuBefore = cpuMs(pid);
  const pgBefore = databaseUrl ? await pgBackendsCpu(databaseUrl) : undefined;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, timeout: 10 });
  const cpu = cpuMs(pid) - cpuBefore;
  let pgCpu: number | null = null;
  if (databaseUrl && pgBefore) {
    pgCpu = 0;
    for (const [backend, ms] of await pgBackendsCpu(databaseUrl)) pgCpu += ms - (pgBefore.get(backend) ?? 0);
  }
  const requests = Math.max(1, result.requests.total);
  return {
    cpuUs: (cpu * 1000) / requests,
    pgCpuUs: pgCpu === null ? null : (pgCpu * 1000) / requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** One request on a new connection right after the load: how long the API takes to answer again (-1: no answer). */
function oneRequestMs(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = get(url, { headers, agent: false, timeout: 120_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(performance.now() - started));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(-1));
  });
}

async function measureTopology(topology: string, hello: { url: string; proc: RunningProcess }): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-load-'));
  const scratch = topology === 'production' ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
  const redis = topology === 'production' ? await startRedisServer() : undefined;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = benchProductionEnv({ port, dataDir, logLevel: 'warn', databaseUrl: scratch?.url, redisUrl: redis?.url });
  const profiled = CPU_PROF_DIR ? { ...env, PROFILED_ENTRY: 'apps/api/src/main.ts', CPU_PROF_DIR: path.resolve(CPU_PROF_DIR, topology) } : env;
  const dbConfig: DatabaseConfig = scratch ? { driver: 'postgres', url: scratch.url } : { driver: 'pglite', dataDir: path.join(dataDir, 'db') };
  let api = startProcess('apps/api/src/main.ts', env);
  try {
    await api.waitFor(/Portal ready on/, 120_000);
    const admin = new TestClient(url, { origin: url, apiKey });
    const login = await admin.post('/api/auth/login', BENCH_ADMIN);
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
    const roles = ((await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> }).roles;
    const created = await admin.post('/api/admin/user', {
      company_agent: 'Bench', email: 'agent@bench.example.com', password: 'bench-agent-password',
      roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: ['C-1'],
    });
    if (created.status !== 200) throw new Error(`agent not created: ${created.status} ${JSON.stringify(created.body)}`);
    const agent = new TestClient(url, { origin: url, apiKey });
    await agent.post('/api/auth/login', { email: 'agent@bench.example.com', password: 'bench-agent-password' });
    const agentId = ((await agent.get('/api/auth/verify_token_')).body as { user: { _id: string } }).user._id;
    // The embedded database allows one process: seed with the API stopped, as for both topologies.
    await api.stop();
    const seeding = performance.now();
    await seed(dbConfig, agentId);
    console.log(`${topology}: seeded ${RUNS} runs in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    api = startProcess(CPU_PROF_DIR ? 'bench/profiled-entry.ts' : 'apps/api/src/main.ts', profiled);
    await api.waitFor(/Portal ready on/, 120_000);
    await agent.post('/api/auth/login', { email: 'agent@bench.example.com', password: 'bench-agent-password' });
    const headers = { cookie: agent.cookieHeader(), origin: url, 'x-api-key': apiKey };
    const page = await agent.get('/api/historique?page=1&limit=20');
    if (page.status !== 200 || (page.body as { data: unknown[] }).data.length !== 20) throw new Error(`history page: ${page.status}`);

    const rows: Row[] = [];
    const targets = [
      { name: 'hello', target: 'hello-world Express', url: hello.url, proc: undefined },
      { name: 'history', target: 'GET /api/historique (20 of 5,000)', url: `${url}/api/historique?page=1&limit=20`, proc: api },
      { name: 'check_token', target: 'GET /api/auth/check_token', url: `${url}/api/auth/check_token`, proc: api },
    ].filter((t) => TARGETS.includes(t.name));
    for (const t of targets) {
      const figures = await hit(t.url, headers, (t.proc ?? hello.proc).child.pid, t.proc ? scratch?.url : undefined);
      const afterMs = await oneRequestMs(`${url}/api/auth/check_token`, headers);
      rows.push({ topology, target: t.target, ...figures, rssMiB: t.proc ? rssMiB(t.proc) : null, afterMs });
      if (api.child.exitCode !== null) throw new Error(`the API exited under load:\n${api.output().slice(-3000)}`);
    }
    printTable(rows);
    return rows;
  } finally {
    await api.stop();
    await redis?.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const helloPort = await freePort();
const hello = startProcess('bench/hello-server.ts', { PORT: String(helloPort) });
const all: Row[] = [];
try {
  await hello.waitFor(/hello server ready/);
  for (const topology of TOPOLOGIES) {
    try {
      all.push(...(await measureTopology(topology, { url: `http://127.0.0.1:${helloPort}/`, proc: hello })));
    } catch (error) {
      process.exitCode = 1;
      console.error(`${topology}: ${(error as Error).stack}`);
    }
  }
} finally {
  await hello.stop();
}

function printTable(rows: Row[]): void {
  console.log('| topology | target | req/s | p50 ms | p99 ms | max ms | × hello | errors | API RSS MiB | next request ms | CPU µs/req (process) | CPU µs/req (PostgreSQL) |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const reference = rows.find((h) => h.target.startsWith('hello')) ?? { rps: Number.NaN };
  for (const r of rows) {
    console.log(
      `| ${r.topology} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.max} | ${(r.rps / reference.rps).toFixed(2)} | ${r.errors} | ${r.rssMiB ?? '–'} | ${r.afterMs.toFixed(0)} | ${r.cpuUs.toFixed(0)} | ${r.pgCpuUs === null ? '–' : r.pgCpuUs.toFixed(0)} |`,
    );
  }
}

console.log(`\nLoad: ${CONNECTIONS} connections × ${SECONDS} s per target (autocannon), ${new Date().toISOString().slice(0, 10)}`);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
for (const topology of TOPOLOGIES) printTable(all.filter((r) => r.topology === topology));
console.log('\nGoal for the list: p99 < 100 ms and ≥ 0.2× hello-world.');
