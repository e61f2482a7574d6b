/**
 * `npm run bench -- scale`: the patents-by-file list (issue 28, decision 178) on a 100,000-row file
 * (BENCH_FILE_ROWS), in both topologies: production (the API process on PostgreSQL and Redis) and
 * embedded (the API alone, on PGlite). For each query, BENCH_CLIENTS (20) clients for BENCH_SECONDS
 * (3) s: req/s, p50, p95, max and the answer's bytes, beside a hello-world Express server measured the
 * same way in the same run. Queries: the first page, each sort descending, a search that matches a few
 * rows and one that matches all, a colour filter, a deep page; then one client scrolling "All" from
 * the first window to the last (windows per second, bytes per window). A second file of the same size, every row a
 * portfolio patent of the user and half of them paid or lapsed in the ledger, answers its first page, colour filters
 * and colour sort with the ledger's colours (decision 233). The seed also times the insert
 * of a file of that size with the sort indexes of migration 0018 and without the eight it added.
 * Each query is asked once alone (its first answer: a search reads its matches then, decision 188), then for
 * BENCH_WARMUP_SECONDS (1) by two clients, unrecorded (the first query measured otherwise pays the process's
 * warm-up); beside the latencies, the API process's CPU per request (every
 * thread: PGlite's included, embedded), the figure a loaded machine moves least.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ANNUITY_ALL_PAGE_SIZE, ANNUITY_PATENT_SORTS, type AnnuityPatentsResponse } from '@portal/contracts';
import { loadConfig } from '@portal/config';
import { openDatabase, type DatabaseConfig } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { createStorage } from '@portal/storage';
import { startRedisServer } from '@portal/queue/test-support';
import { fillAnnuityFile, linkFileToLedger } from '../apps/api/test/support/annuity-scale.ts';
import { freePort, startProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { exportFixture } from './annuity-fixtures.ts';
import { withDatabase } from './database.ts';
import { cpuOf } from './proc.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv, forecastWarm } from './production-env.ts';

const ROWS = Number(process.env.BENCH_FILE_ROWS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const TOPOLOGIES = (process.env.BENCH_TOPOLOGIES ?? 'production,embedded').split(',');
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
/** BENCH_QUERIES=part,part: only the queries whose name holds one of them (the hello-world references and the scroll always run). */
const ONLY = process.env.BENCH_QUERIES?.split(',');
/** BENCH_CPU_PROF=<dir>: the API (after the seed) runs under the CPU profiler (bench/profiled-entry.ts), its main thread's profile written there at exit. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
/** The sort indexes migration 0018 added (it also rebuilt four with row_index): dropped to time an insert without them. */
const ADDED_INDEXES = ['filing_number', 'name', 'country', 'payer', 'filing_date', 'filing_month', 'previous_number', 'deadline'].map((n) => `annuity_patents_file_${n}_idx`);

const loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0]!), 1000);

interface Figures {
  rps: number;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
  errors: number;
  /** The serving process's CPU per request (ms), when it is known. */
  cpuMs?: number;
  /** Its main thread's share (ms): the rest is the PGlite thread's (embedded) and V8's helpers. */
  mainCpuMs?: number;
  /** The query's first answer, alone, before the warm-up (ms): a search's matches are read then (decision 188). */
  firstMs?: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

/** `clients` loops asking `url` one request after the other for `seconds`: throughput and latencies. */
async function load(url: string | (() => string), headers: Record<string, string>, clients = CLIENTS, seconds = SECONDS, pid?: number): Promise<Figures> {
  const cpuBefore = pid ? cpuOf(pid) : 0;
  const mainBefore = pid ? cpuOf(pid, String(pid)) : 0;
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const begun = performance.now();
        const res = await fetch(typeof url === 'string' ? url : url(), { headers });
        const body = await res.arrayBuffer();
        latencies.push(performance.now() - begun);
        bytes = Math.max(bytes, body.byteLength);
        if (res.status !== 200) errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const cpuMs = pid && latencies.length > 0 ? ((cpuOf(pid) - cpuBefore) * 1000) / latencies.length : undefined;
  const mainCpuMs = pid && latencies.length > 0 ? ((cpuOf(pid, String(pid)) - mainBefore) * 1000) / latencies.length : undefined;
  return {
    rps: latencies.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? Number.NaN, bytes, errors,
    ...(cpuMs === undefined ? {} : { cpuMs }), ...(mainCpuMs === undefined ? {} : { mainCpuMs }),
  };
}

/** The queries on the file linked to the ledger (`linkFileToLedger`). */
const LINKED = (query: string) => `linked to the ledger (half its rows): ${query}`;


async function timedFill(config: DatabaseConfig, ownerId: string, withoutAdded: boolean): Promise<{ fileId: string; ms: number } | null> {
  const handle = openDatabase(config);
  try {
    // Since migration 0023 (decision 190) the sort indexes are gone: nothing to compare.
    const present = await handle.db.execute(sql`select 1 from pg_indexes where indexname = ${ADDED_INDEXES[0]}`);
    if (withoutAdded && (present as { rows: unknown[] }).rows.length === 0) return null;
    if (withoutAdded) for (const name of ADDED_INDEXES) await handle.db.execute(sql.raw(`drop index if exists "${name}"`));
    const begun = performance.now();
    const fileId = await fillAnnuityFile(handle.db, ownerId, ROWS);
    const ms = performance.now() - begun;
    if (withoutAdded) {
      // Put the schema back (the migration's own statements) for the measured file.
      for (const [name, column] of [
        ['filing_number', 'num_depot'], ['name', 'nom'], ['country', 'pays'], ['payer', 'payeur'], ['filing_date', 'date_depot'],
        ['filing_month', 'mois_date_depot'], ['previous_number', 'quant_precedent'], ['deadline', 'limite_date_prochaine_annuite'],
      ] as const) {
        await handle.db.execute(sql.raw(`create index "annuity_patents_file_${name}_idx" on "annuity_patents" ("file_id", "${column}", "row_index", "colour")`));
      }
      await handle.db.execute(sql`vacuum analyze annuity_patents`);
    }
    return { fileId, ms };
  } finally {
    await handle.close();
  }
}

interface Line {
  topology: string;
  query: string;
  figures: Figures;
}

async function measure(topology: string, helloUrl: string): Promise<{ lines: Line[]; notes: string[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-scale-list-'));
  const scratch = topology === 'production' ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
  const redis = topology === 'production' ? await startRedisServer() : undefined;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...benchProductionEnv({ port, dataDir, logLevel: 'warn', databaseUrl: scratch?.url, redisUrl: redis?.url }),
    // The database thread's measuring aids (decision 185): PGLITE_THREAD_TRACE=<file>, PGLITE_THREAD_LANES=off.
    ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('PGLITE_THREAD_') && e[1] !== undefined)),
  };
  const dbConfig: DatabaseConfig = scratch ? { driver: 'postgres', url: scratch.url } : { driver: 'pglite', dataDir: path.join(dataDir, 'db') };
  let api = startProcess('apps/api/src/main.ts', env);
  const notes: string[] = [];
  try {
    await api.waitFor(/Portal ready on/, 180_000);
    const admin = new TestClient(url, { origin: url, apiKey: BENCH_API_KEY });
    if ((await admin.post('/api/auth/login', BENCH_ADMIN)).status !== 200) throw new Error('admin login');
    const roles = ((await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> }).roles;
    const user = { email: 'annuities@bench.example.com', password: 'bench-annuities-password' };
    const created = await admin.post('/api/admin/user', { company_agent: 'Bench', ...user, roles: [roles.find((r) => r.slug === 'user_annuites')!._id] });
    if (created.status !== 200) throw new Error(`user not created: ${created.status} ${JSON.stringify(created.body)}`);
    const client = new TestClient(url, { origin: url, apiKey: BENCH_API_KEY });
    await client.post('/api/auth/login', user);
    const userId = ((await client.get('/api/auth/verify_token_')).body as { user: { _id: string } }).user._id;
    // The embedded database allows one process: seed with the API stopped, in both topologies.
    await api.stop();
    const without = await timedFill(dbConfig, userId, true);
    const measured = (await timedFill(dbConfig, userId, false))!;
    // A second file of that size whose every row is a portfolio patent of the user, half of them paid or lapsed in the
    // ledger: its colours, counts and colour filter read the ledger (decision 233).
    const linkedFileId = await withDatabase(dbConfig, async (db) => {
      const id = await fillAnnuityFile(db, userId, ROWS);
      await linkFileToLedger(db, id, userId);
      return id;
    });
    // Both files get the check's export of a ROWS-row workbook, stored as the worker stores it: the measured file's
    // streams as stored (its rows are nobody's patents), the linked file's is recoloured for the reader (decision 234).
    const exports = await storeExports(env, dbConfig, { plain: measured.fileId, linked: linkedFileId });
    notes.push(
      without
        ? `${topology}: insert of ${ROWS} rows (one INSERT … SELECT, then vacuum analyze): ${(measured.ms / 1000).toFixed(1)} s with the 0018 indexes, ${(without.ms / 1000).toFixed(1)} s without the eight it added`
        : `${topology}: insert of ${ROWS} rows (one INSERT … SELECT, then vacuum analyze), without the sort indexes (migration 0023): ${(measured.ms / 1000).toFixed(1)} s`,
    );
    api = PROFILE_DIR
      ? startProcess('bench/profiled-entry.ts', { ...env, PROFILED_ENTRY: 'apps/api/src/main.ts', CPU_PROF_DIR: path.resolve(PROFILE_DIR) })
      : startProcess('apps/api/src/main.ts', env);
    await api.waitFor(/Portal ready on/, 180_000);
    await client.post('/api/auth/login', user);
    // The forecast is the admins' screen (the annuities user gets 403): an admin waits for its warm-up.
    if ((await admin.post('/api/auth/login', BENCH_ADMIN)).status !== 200) throw new Error('admin login after the restart');
    console.log(`  the forecast's warm-up after start: ${((await forecastWarm((p) => admin.get(p))) / 1000).toFixed(1)} s before the lists are measured`);
    const headers = { cookie: client.cookieHeader(), origin: url, 'x-api-key': BENCH_API_KEY };
    const file = `${url}/api/brevets/file/${measured.fileId}`;

    const queries: Array<[string, string]> = [
      ['first page (30)', ''],
      ...ANNUITY_PATENT_SORTS.filter((s) => s !== 'date_precedente_annuite').map((s): [string, string] => [`sort ${s} desc`, `sort=${s}&order=desc`]),
      ['search, a few rows (ref-1234)', 'search=ref-1234'],
      ['search, every row (device)', 'search=device'],
      ['colour filter (orange)', 'colour=orange'],
      ['colour orange, sort nom desc, page 500', 'colour=orange&sort=nom&order=desc&page=500'],
      ['deep page 3000 of 30, sort payeur desc', 'sort=payeur&order=desc&page=3000'],
      ['"All" window 1', 'limit=all'],
      ['"All" window 400, sort date_prochaine_annuite desc', 'limit=all&page=400&sort=date_prochaine_annuite&order=desc'],
      // Each request another window (a step of 37 through the file's windows): no answer asked twice in a row, as users scrolling do.
      ['"All" windows, each request another, sort date_prochaine_annuite desc', 'limit=all&page=*&sort=date_prochaine_annuite&order=desc'],
      [LINKED('first page (30)'), `linked:`],
      [LINKED('colour filter (nok)'), 'linked:colour=nok'],
      [LINKED('colour ok, page 500'), 'linked:colour=ok&page=500'],
      [LINKED('sort colour desc'), 'linked:sort=colour&order=desc'],
      [LINKED('colour orange, sort nom desc, page 500'), 'linked:colour=orange&sort=nom&order=desc&page=500'],
    ];
    let step = 0;
    const pages = Math.ceil(ROWS / ANNUITY_ALL_PAGE_SIZE);
    const linkedFile = `${url}/api/brevets/file/${linkedFileId}`;
    const urlOf = (query: string) =>
      query.startsWith('linked:') ? `${linkedFile}?${query.slice('linked:'.length)}`
      : query.includes('page=*') ? () => `${file}?${query.replace('page=*', `page=${1 + ((step++ * 37) % pages)}`)}`
      : `${file}?${query}`;
    const lines: Line[] = [{ topology, query: 'hello-world Express (reference)', figures: await load(helloUrl, {}) }];
    for (const [name, query] of queries.filter(([name]) => !ONLY || ONLY.some((part) => name.includes(part)))) {
      const begun = performance.now();
      const url = urlOf(query);
      await (await fetch(typeof url === 'string' ? url : url(), { headers })).arrayBuffer();
      const firstMs = performance.now() - begun;
      if (WARMUP_SECONDS > 0) await load(url, headers, 2, WARMUP_SECONDS);
      lines.push({ topology, query: name, figures: { ...(await load(url, headers, CLIENTS, SECONDS, api.child.pid)), firstMs } });
      if (api.child.exitCode !== null) throw new Error(`the API exited:\n${api.output().slice(-3000)}`);
    }
    lines.push({ topology, query: 'hello-world Express (reference, again)', figures: await load(helloUrl, {}) });

    // One user scrolling "All" to the end, as the web does: windows 1 … totalPages, one after the other.
    const begun = performance.now();
    let windows = 0;
    let bytes = 0;
    let maxBytes = 0;
    let rows = 0;
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = await fetch(`${file}?limit=all&page=${page}&sort=date_prochaine_annuite&order=desc`, { headers });
      const text = await res.text();
      const body = JSON.parse(text) as AnnuityPatentsResponse;
      pages = body.meta.totalPages;
      rows += body.patents.length;
      windows++;
      bytes += text.length;
      maxBytes = Math.max(maxBytes, Buffer.byteLength(text));
    }
    const seconds = (performance.now() - begun) / 1000;
    notes.push(
      `${topology}: scrolling "All" (sort date_prochaine_annuite desc): ${windows} windows, ${rows} rows in ${seconds.toFixed(1)} s = ${(windows / seconds).toFixed(1)} windows/s, ${(bytes / windows / 1024).toFixed(0)} kB per window on average, largest ${(maxBytes / 1024).toFixed(0)} kB`,
    );
    for (const [what, key] of [['the stored export, streamed (no row moved)', exports.plain], ['the export recoloured for the reader’s ledger (half the rows moved)', exports.linked]] as const) {
      const figures = await downloadUnderProbe(`${url}/api/annuite/files/download?file_path=${encodeURIComponent(key)}`, `${url}/api/auth/verify_token_`, headers, api.child.pid);
      notes.push(`${topology}: download of ${what}, ${ROWS} rows: ${figures}`);
    }
    return { lines, notes };
  } finally {
    await api.stop();
    await redis?.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Stores the check's export of a ROWS-row workbook as each file's export (key and name on its row), with the API stopped. */
async function storeExports(env: Record<string, string>, dbConfig: DatabaseConfig, files: { plain: string; linked: string }): Promise<{ plain: string; linked: string }> {
  const storage = await createStorage(loadConfig(env).storage);
  const fixture = await exportFixture(ROWS);
  const keys = { plain: `annuities/export/bench/${files.plain}/checked.xlsx`, linked: `annuities/export/bench/${files.linked}/checked.xlsx` };
  await withDatabase(dbConfig, async (db) => {
    for (const which of ['plain', 'linked'] as const) {
      await storage.put(keys[which], createReadStream(fixture), { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
      await db.execute(sql`update annuity_files set export_key = ${keys[which]} where id = ${files[which]}::uuid`);
    }
  });
  return keys;
}

const DOWNLOADS = 3;
const PROBE_EVERY_MS = 50;
/** A probe slower than this is listed with its place in the run. */
const SLOW_PROBE_MS = 100;

/**
 * DOWNLOADS downloads of `downloadUrl` one after the other while a probe asks `probeUrl` every PROBE_EVERY_MS: the
 * median download, the API's CPU per download, and the probe's worst answer (the API stays responsive, or not).
 */
async function downloadUnderProbe(downloadUrl: string, probeUrl: string, headers: Record<string, string>, pid: number | undefined): Promise<string> {
  const probes: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const begun = performance.now();
      await (await fetch(probeUrl, { headers })).arrayBuffer();
      probes.push(performance.now() - begun);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  const seconds: number[] = [];
  let bytes = 0;
  const cpuBefore = pid ? cpuOf(pid) : 0;
  try {
    for (let i = 0; i < DOWNLOADS; i++) {
      const begun = performance.now();
      const res = await fetch(downloadUrl, { headers });
      if (res.status !== 200) throw new Error(`download ${res.status}: ${await res.text()}`);
      bytes = (await res.arrayBuffer()).byteLength;
      seconds.push((performance.now() - begun) / 1000);
    }
  } finally {
    probing = false;
    await probe;
  }
  const cpu = pid ? (cpuOf(pid) - cpuBefore) / DOWNLOADS : Number.NaN;
  const median = [...seconds].sort((a, b) => a - b)[Math.floor(DOWNLOADS / 2)]!;
  const sorted = [...probes].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
  // Which probes were slow, by their place in the run: one at the start (the reader's colours read once per file
  // version) is not the same finding as slow probes all along (the recolouring itself).
  const slow = probes.flatMap((ms, i) => (ms > SLOW_PROBE_MS ? [`#${i + 1} ${ms.toFixed(0)} ms`] : []));
  return `median ${median.toFixed(2)} s of ${DOWNLOADS} (${(bytes / 1_048_576).toFixed(1)} MB), API ${cpu.toFixed(1)} CPU-s each; verify_token_ every ${PROBE_EVERY_MS} ms meanwhile: p99 ${p99.toFixed(0)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms (${probes.length} probes; over ${SLOW_PROBE_MS} ms: ${slow.join(', ') || 'none'})`;
}

const helloPort = await freePort();
const hello = startProcess('bench/hello-server.ts', { PORT: String(helloPort) });
const lines: Line[] = [];
const notes: string[] = [];
try {
  await hello.waitFor(/hello server ready/);
  for (const topology of TOPOLOGIES) {
    try {
      const result = await measure(topology, `http://127.0.0.1:${helloPort}/`);
      lines.push(...result.lines);
      notes.push(...result.notes);
    } catch (error) {
      process.exitCode = 1;
      console.error(`${topology}: ${(error as Error).stack}`);
    }
  }
} finally {
  await hello.stop();
  clearInterval(sampler);
}

console.log(`\nPatents-by-file list, a ${ROWS}-row file, ${CLIENTS} clients × ${SECONDS} s per query, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}\n`,
);
console.log('| topology | query | first answer ms | req/s | p50 ms | p95 ms | max ms | API CPU per request ms (main thread) | bytes | errors |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { topology, query, figures: f } of lines) {
  console.log(
    `| ${topology} | ${query} | ${f.firstMs === undefined ? '' : f.firstMs.toFixed(0)} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(0)} | ${f.cpuMs === undefined ? '' : `${f.cpuMs.toFixed(2)} (${f.mainCpuMs?.toFixed(2)})`} | ${f.bytes} | ${f.errors} |`,
  );
}
console.log('');
for (const note of notes) console.log(note);
console.log('\nGoal (issue 28): every list and sort p95 < 100 ms with 20 clients; no answer of more than a few MB.');
