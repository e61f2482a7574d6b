/**
 * A 100,000-row annuity workbook at scale, in both modes: `npm run bench -- scale`.
 * - embedded: the API process alone on a PGlite data directory (inline queue, local storage), as `npm start` runs it;
 * - production: the API, a separately started annuities worker, BullMQ on a private redis-server and PostgreSQL
 *   (TEST_DATABASE_URL or 127.0.0.1:5432).
 * Per mode: upload → Done, the peak RSS of the process that runs the engine and writes the rows (/proc
 * VmRSS sampled every 100 ms, and VmHWM), its RSS 30 s after Done, the longest `GET /api/auth/verify_token_`
 * while the file is checked (polled every 20 ms from a thread of its own), and the p95 of a search of
 * the file's list (`GET /api/brevets/file/{id}?search=`). The reference, measured in the same run: the
 * engine alone on the same file (read + compute + write the export) in a process of its own.
 * BENCH_ROWS sets the rows (100,000); BENCH_MODES picks `embedded`, `production` or both (default).
 * CPU seconds over upload → Done (user + sys from /proc, every thread; robust to a shared machine's load): the
 * process that runs the engine and writes the rows, the API (production) and the scratch database's backends.
 * SCALE_CPU_PROF=<dir>: that process runs under the CPU profiler (bench/profiled-entry.ts), main thread only.
 * Also: that process's CPU seconds per thread, and its memory by kind (bench/proc.ts memoryKinds: PGlite's WebAssembly
 * memory, other anonymous memory, files) at its highest sample and 30 s after Done; SCALE_MEM_TRACE=<prefix> writes the
 * samples (every 500 ms) to <prefix>.<mode>.json; SCALE_API_ENV=<JSON> adds to the API's and worker's environment.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { checkSpreadsheet, parseIsoDate, type Day } from '../packages/annuities/src/index.ts';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess, type RunningProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';
import { backendsCpu, cpuOf, memoryKinds, ownPeakRssMb, rssOf, threadsCpu } from './proc.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MODES = (process.env.BENCH_MODES ?? 'embedded,production').split(',');
const AFTER_DONE_MS = 30_000;
const SEARCH_RUNS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.max(0, Math.ceil((p / 100) * values.length) - 1))] ?? 0;

/**
 * Samples a process's RSS every 100 ms until stopped: the highest sample and VmHWM; every 500 ms also its
 * memory by kind (memoryKinds: PGlite's WebAssembly memory, other anonymous, files), kept for the breakdown.
 */
function sampleRss(pid: number) {
  let peak = 0;
  let ticks = 0;
  const started = performance.now();
  const kinds: Array<{ t: number; rss: number; wasm: number; anon: number; file: number }> = [];
  const timer = setInterval(() => {
    try {
      const rss = rssOf(pid).rss;
      peak = Math.max(peak, rss);
      if (ticks++ % 5 === 0) kinds.push({ t: (performance.now() - started) / 1000, rss, ...memoryKinds(pid) });
    } catch {
      // the process ended
    }
  }, 100);
  return { stop: () => (clearInterval(timer), Math.max(peak, rssOf(pid).peak)), kinds };
}

/** Polls `url` every 20 ms from a worker thread (this thread's own work must not count as the API's latency). */
function startPoller(url: string, headers: Record<string, string>): { stop(): Promise<number[]> } {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const latencies = []; let polling = true;
    parentPort.on('message', () => { polling = false; });
    (async () => {
      while (polling) {
        const started = performance.now();
        try { const res = await fetch(workerData.url, { headers: workerData.headers }); await res.arrayBuffer(); } catch {}
        const ms = performance.now() - started;
        latencies.push(ms);
        await new Promise((r) => setTimeout(r, Math.max(0, 20 - ms)));
      }
      parentPort.postMessage(latencies);
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { url, headers } });
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const latencies = await result;
      await worker.terminate();
      return latencies;
    },
  };
}

interface ModeResult {
  mode: string;
  seconds: number;
  peak: number;
  idleBefore: number;
  after: number;
  verifyMax: number;
  verifyP99: number;
  searchP95: number;
  load: [number, number];
  /** CPU seconds over upload → Done: the runner, the API when it is another process, the database's backends. */
  cpu: { runner: number; api: number | null; backends: number | null };
  /** The runner's threads' CPU seconds over upload → Done, most first: [thread, seconds] (the main thread is 'main'; 'new' ones started during the run). */
  threads: Array<[string, number]>;
  /** The runner's memory by kind at its highest RSS sample, and at the end (MB). */
  kindsAtPeak: { t: number; rss: number; wasm: number; anon: number; file: number } | undefined;
  kindsAfter: { wasm: number; anon: number; file: number };
}

async function runMode(mode: 'embedded' | 'production', file: Buffer): Promise<ModeResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `portal-bench-scale-${mode}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = mode === 'production' ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : null;
  const redis = mode === 'production' ? await startRedisServer() : null;
  const env = {
    ...benchProductionEnv({ port, dataDir, logLevel: 'warn', ...(database && redis ? { databaseUrl: database.url, redisUrl: redis.url } : {}) }),
    ...(mode === 'embedded' ? { NODE_ENV: 'development' } : {}),
    UPLOAD_MAX_BYTES: String(Math.max(file.length * 2, 20 * 1024 * 1024)),
    // SCALE_API_ENV: more environment for the API and the worker, as JSON (e.g. NODE_OPTIONS with a preload that logs each thread's heap).
    ...(process.env.SCALE_API_ENV ? (JSON.parse(process.env.SCALE_API_ENV) as Record<string, string>) : {}),
  };
  const processes: RunningProcess[] = [];
  const profileDir = process.env.SCALE_CPU_PROF;
  const start = (entry: string, entryEnv: Record<string, string>) =>
    profileDir ? startProcess('bench/profiled-entry.ts', { ...entryEnv, PROFILED_ENTRY: entry, CPU_PROF_DIR: path.resolve(profileDir, mode) }) : startProcess(entry, entryEnv);
  try {
    const api = mode === 'embedded' ? start('apps/api/src/main.ts', env) : startProcess('apps/api/src/main.ts', env);
    processes.push(api);
    await api.waitFor(/Portal ready on/, 120_000);
    let runner = api;
    if (mode === 'production') {
      runner = start('workers/src/entrypoints/annuities.ts', { ...env, LOG_LEVEL: 'info' });
      processes.push(runner);
      await runner.waitFor(/annuities worker started/, 120_000);
    }
    const admin = new TestClient(url, { origin: url, apiKey: BENCH_API_KEY });
    const login = await admin.post('/api/auth/login', BENCH_ADMIN);
    if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
    const { roles } = (await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> };
    await admin.post('/api/admin/user', { company_agent: 'Bench', email: 'annuities@bench.example.com', password: 'bench-user-password', roles: [roles.find((r) => r.slug === 'user_annuites')!._id] });
    const user = new TestClient(url, { origin: url, apiKey: BENCH_API_KEY });
    await user.post('/api/auth/login', { email: 'annuities@bench.example.com', password: 'bench-user-password' });
    const headers = { cookie: user.cookieHeader(), origin: url, 'x-api-key': BENCH_API_KEY };
    const { body, contentType } = multipart({ title: 'scale' }, [{ filename: 'scale.xlsx', content: file }]);

    await sleep(2000);
    const pid = runner.child.pid!;
    const idleBefore = rssOf(pid).rss;
    const load = [loadavg()[0]!];
    const loadTimer = setInterval(() => load.push(loadavg()[0]!), 1000);
    const rss = sampleRss(pid);
    const poller = startPoller(`${url}/api/auth/verify_token_`, headers);
    const databaseName = database ? new URL(database.url).pathname.slice(1) : null;
    const cpuBefore = { runner: cpuOf(pid), api: cpuOf(api.child.pid!), backends: databaseName ? backendsCpu(databaseName) : 0 };
    const threadsBefore = threadsCpu(pid);
    const started = performance.now();
    const res = await fetch(`${url}/api/brevets/annuite`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
    if (res.status !== 200 && res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    const { _id: fileId } = (await res.json()) as { _id: string };
    // Polled every 100 ms: the state the owner's screen shows.
    for (;;) {
      const files = (await user.get('/api/annuite/files?limit=5')).body as { data?: Array<{ _id: string; is_done: string; error_code: string | null }> };
      const mine = files.data?.find((f) => f._id === fileId);
      if (mine && mine.is_done !== 'in_progress') {
        if (mine.is_done !== 'Done') throw new Error(`file ended ${mine.is_done} ${mine.error_code}`);
        break;
      }
      await sleep(100);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = {
      runner: cpuOf(pid) - cpuBefore.runner,
      api: mode === 'production' ? cpuOf(api.child.pid!) - cpuBefore.api : null,
      backends: databaseName ? backendsCpu(databaseName) - cpuBefore.backends : null,
    };
    const threads = [...threadsCpu(pid)]
      .map(([tid, s]): [string, number] => [tid === String(pid) ? 'main' : threadsBefore.has(tid) ? `t${tid}` : `new t${tid}`, s - (threadsBefore.get(tid) ?? 0)])
      .filter(([, s]) => s >= 0.1)
      .sort((a, b) => b[1] - a[1]);
    const latencies = await poller.stop();
    clearInterval(loadTimer);
    await sleep(AFTER_DONE_MS);
    const after = rssOf(pid).rss;
    const kindsAfter = memoryKinds(pid);
    const peak = rss.stop();
    const kindsAtPeak = rss.kinds.reduce<(typeof rss.kinds)[number] | undefined>((a, b) => (a && a.rss >= b.rss ? a : b), undefined);
    if (process.env.SCALE_MEM_TRACE) writeFileSync(`${process.env.SCALE_MEM_TRACE}.${mode}.json`, JSON.stringify(rss.kinds));
    const searches: number[] = [];
    for (let i = 0; i < SEARCH_RUNS; i++) {
      const t0 = performance.now();
      const r = await user.get(`/api/brevets/file/${fileId}?search=ref-${4242 + i * 113}&limit=30`);
      searches.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`search: ${r.status}`);
    }
    return {
      mode, seconds, peak, idleBefore, after, verifyMax: Math.max(...latencies), verifyP99: percentile(latencies, 99), searchP95: percentile(searches, 95),
      load: [Math.min(...load), Math.max(...load)],
      cpu, threads, kindsAtPeak, kindsAfter,
    };
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await redis?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The reference: the engine alone on the same file (read, compute, write the export), in a process of its own. */
function engineAlone(filePath: string): { seconds: number; peak: number } {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--engine', filePath], { cwd: path.join(path.dirname(self), '..'), encoding: 'utf8' });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`engine alone failed: ${child.stderr}`);
  return JSON.parse(line) as { seconds: number; peak: number };
}

const engineIndex = process.argv.indexOf('--engine');
if (engineIndex !== -1) {
  const input = process.argv[engineIndex + 1]!;
  const started = performance.now();
  const bytes = readFileSync(input);
  const out = createWriteStream(`${input}.export.xlsx`);
  const result = await checkSpreadsheet(bytes, 'scale.xlsx', { today: parseIsoDate('2026-11-27') as Day, out });
  out.end();
  await finished(out);
  if (!result.ok) throw new Error(result.reason);
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, peak: ownPeakRssMb() })}\n`);
} else {
  const file = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-scale-'));
  const filePath = path.join(dir, 'scale.xlsx');
  writeFileSync(filePath, file);
  try {
    const results: Array<ModeResult & { engine: { seconds: number; peak: number } }> = [];
    for (const mode of MODES as Array<'embedded' | 'production'>) {
      const run = await runMode(mode, file);
      // Right after the mode's run, on the same machine state: the ratio's reference.
      results.push({ ...run, engine: engineAlone(filePath) });
    }
    console.log(`\nAnnuity workbook at scale: ${ROWS.toLocaleString('en')} rows (.xlsx, ${(file.length / 2 ** 20).toFixed(1)} MiB), upload → Done`);
    console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}\n`);
    console.log('| mode | load (1 min) | upload → Done (s), goal < 10 | engine alone (s) | ratio | peak RSS (MB), goal < 400 | engine alone peak RSS (MB) | RSS before / 30 s after Done (MB) | verify_token_ p99 / max (ms) | file search p95 (ms) | CPU s: runner / API / DB backends |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(
        `| ${r.mode} | ${r.load[0].toFixed(1)}–${r.load[1].toFixed(1)} | ${r.seconds.toFixed(2)} | ${r.engine.seconds.toFixed(2)} | ${(r.seconds / r.engine.seconds).toFixed(2)} | ${r.peak.toFixed(0)} | ${r.engine.peak.toFixed(0)} | ${r.idleBefore.toFixed(0)} / ${r.after.toFixed(0)} | ${r.verifyP99.toFixed(0)} / ${r.verifyMax.toFixed(0)} | ${r.searchP95.toFixed(0)} | ${r.cpu.runner.toFixed(1)} / ${r.cpu.api?.toFixed(1) ?? '—'} / ${r.cpu.backends?.toFixed(1) ?? '—'} |`,
      );
    }
    console.log('\nThe runner\'s threads (CPU s over upload → Done) and its memory by kind (MB: PGlite\'s WebAssembly / other anonymous / files):');
    for (const r of results) {
      const k = r.kindsAtPeak;
      console.log(`- ${r.mode}: threads ${r.threads.map(([t, s]) => `${t} ${s.toFixed(1)}`).join(', ')}; at the highest sample (${k?.t.toFixed(1)} s, RSS ${k?.rss.toFixed(0)}): ${k?.wasm.toFixed(0)} / ${k?.anon.toFixed(0)} / ${k?.file.toFixed(0)}; 30 s after Done: ${r.kindsAfter.wasm.toFixed(0)} / ${r.kindsAfter.anon.toFixed(0)} / ${r.kindsAfter.file.toFixed(0)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
