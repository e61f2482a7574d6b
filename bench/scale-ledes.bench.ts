/**
 * LEDES at scale, in both modes (issue 28): `npm run bench -- scale-ledes` (also part of `npm run bench -- scale`).
 * For the embedded portal (`npm start`: PGlite, inline queue, one process) and the production topology
 * (API + LEDES worker + annuities worker, BullMQ on a private redis-server, PostgreSQL):
 *  1. a generated 200,000-line 1998B file, upload → Done over the socket, beside the engine alone on
 *     the same file in this process, measured just before and just after (the same run), wall and CPU
 *     (the portal's processes from /proc, the engine's from process.cpuUsage); then until its treated
 *     workbook is stored (written after Done, decision 182); the RSS of
 *     the process that checks it (the API embedded, the LEDES worker in production), sampled every
 *     100 ms over the run, then 30 s after Done;
 *  2. the same file and a 100,000-row annuity workbook uploaded at once, while a thread polls
 *     `GET /api/auth/verify_token_` every 20 ms: its max and p99, both runs' upload → Done.
 * Needs PostgreSQL for the production mode (TEST_DATABASE_URL or 127.0.0.1:5432). BENCH_LINES, BENCH_ROWS
 * change the sizes; BENCH_MODES=embedded (or production) runs one mode.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { DEV_API_KEY } from '@portal/config';
import { REALTIME_PATH, type AnnuityFileDto, type LedesRunDto } from '@portal/contracts';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { checkLedes, defaultProfile } from '../packages/ledes/src/index.ts';
import { generateLedes } from '../packages/ledes/test/generate.ts';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess, type RunningProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';
import { cpuOf, rssOf } from './proc.ts';

const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MODES = (process.env.BENCH_MODES ?? 'embedded,production').split(',') as Array<'embedded' | 'production'>;
/** BENCH_PHASES=alone or together runs one of the two phases. */
const PHASES = (process.env.BENCH_PHASES ?? 'alone,together').split(',');
const POLL_MS = 20;
const AFTER_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** Samples a process's RSS every 100 ms until stopped: its peak. */
function rssSampler(pid: number): { stop(): number } {
  let peak = rssOf(pid).rss;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid).rss)), 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid).rss);
    },
  };
}

/** The 1-minute load average, sampled every second until stopped: its range. */
function loadSampler(): { stop(): string } {
  const seen = [loadavg()[0]!];
  const timer = setInterval(() => seen.push(loadavg()[0]!), 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return `${Math.min(...seen).toFixed(1)}–${Math.max(...seen).toFixed(1)}`;
    },
  };
}

/** Polls `url` every POLL_MS from a thread of its own (this process's own work must not count as the API's latency). */
function startProbe(url: string, headers: Record<string, string>): { stop(): Promise<{ latencies: number[]; failures: number }> } {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, headers, pollMs } = workerData;
    const latencies = [];
    let failures = 0, polling = true;
    parentPort.on('message', () => { polling = false; });
    (async () => {
      while (polling) {
        const started = performance.now();
        try { const res = await fetch(url, { headers }); await res.arrayBuffer(); if (res.status !== 200) failures++; } catch { failures++; }
        const ms = performance.now() - started;
        latencies.push(ms);
        await new Promise((r) => setTimeout(r, Math.max(0, pollMs - ms)));
      }
      parentPort.postMessage({ latencies: latencies.sort((a, b) => a - b), failures });
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { url, headers, pollMs: POLL_MS } });
  const result = new Promise<{ latencies: number[]; failures: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const polled = await result;
      await worker.terminate();
      return polled;
    },
  };
}

async function ledesBytes(lines: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of generateLedes(lines)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The engine alone on the same bytes, in this process: best of 3, lines per second (wall) and its least CPU seconds. */
const engineCpu: number[] = [];
async function engineAlone(file: Buffer): Promise<number> {
  const profile = defaultProfile('PAR', 'patent')!;
  let best = 0;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const chunks = (function* () {
      for (let at = 0; at < file.length; at += 256 * 1024) yield file.subarray(at, at + 256 * 1024);
    })();
    const { summary } = await checkLedes(chunks, { filename: 'bench.txt', profile, clock: () => new Date('2025-06-01T00:00:00Z'), collect: false });
    best = Math.max(best, summary.linesChecked / ((performance.now() - start) / 1000));
    const used = process.cpuUsage(cpu);
    engineCpu.push((used.user + used.system) / 1e6);
  }
  return best;
}

interface Topology {
  url: string;
  apiKey: string;
  /** The process that runs the LEDES check (its RSS is the one reported). */
  ledesPid: number;
  /** The portal's processes (the API, and the LEDES worker in production): their CPU is the pipeline's. */
  pids: number[];
  stop(): Promise<void>;
}

async function startTopology(mode: 'embedded' | 'production', uploadMax: number): Promise<Topology> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `portal-bench-scale-${mode}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const processes: RunningProcess[] = [];
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dataDir, { recursive: true, force: true })];
  const stop = async () => {
    // BENCH_PROCESS_LOG=<file>: the output of the processes started here is appended to it.
    if (process.env.BENCH_PROCESS_LOG) for (const p of processes) appendFileSync(process.env.BENCH_PROCESS_LOG, p.output());
    for (const p of processes.reverse()) await p.stop();
    for (const c of cleanups.reverse()) await c();
  };
  try {
    if (mode === 'embedded') {
      // SCALE_CPU_PROF=<dir>: the embedded API runs under the CPU profiler (bench/profiled-entry.ts), its main thread's profile written there at exit.
      const profileDir = process.env.SCALE_CPU_PROF;
      const entry = profileDir ? 'bench/profiled-entry.ts' : 'apps/api/src/main.ts';
      const api = startProcess(entry, {
        ...(profileDir ? { PROFILED_ENTRY: 'apps/api/src/main.ts', CPU_PROF_DIR: path.resolve(profileDir) } : {}),
        NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, SERVE_WEB: 'false', DATA_DIR: dataDir,
        COOKIE_SECURE: 'false', ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, SMTP_URL: 'smtp://127.0.0.1:9',
        MFA_REQUIRED_FOR_ADMINS: 'false', UPLOAD_MAX_BYTES: String(uploadMax), UPLOAD_RATE_LIMIT: '10000',
        // The database thread's measuring aids (decision 185): PGLITE_THREAD_TRACE=<file>, PGLITE_THREAD_LANES=off.
        ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('PGLITE_THREAD_') && e[1] !== undefined)),
      });
      processes.push(api);
      await api.waitFor(/Portal ready on/, 120_000);
      return { url, apiKey: DEV_API_KEY, ledesPid: api.child.pid!, pids: [api.child.pid!], stop };
    }
    const database = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    cleanups.push(() => database.drop());
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const env = { ...benchProductionEnv({ port, dataDir, databaseUrl: database.url, redisUrl: redis.url, logLevel: 'warn' }), UPLOAD_MAX_BYTES: String(uploadMax) };
    const api = startProcess('apps/api/src/main.ts', env);
    const ledes = startProcess('workers/src/entrypoints/ledes.ts', { ...env, LOG_LEVEL: 'info' });
    const annuities = startProcess('workers/src/entrypoints/annuities.ts', { ...env, LOG_LEVEL: 'info' });
    processes.push(api, ledes, annuities);
    await api.waitFor(/Portal ready on/, 120_000);
    await ledes.waitFor(/ledes worker started/, 120_000);
    await annuities.waitFor(/annuities worker started/, 120_000);
    return { url, apiKey: BENCH_API_KEY, ledesPid: ledes.child.pid!, pids: [api.child.pid!, ledes.child.pid!], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Posts a body and reads the answer. A browser's upload costs the portal's machine nothing; this client shares its two
 * cores, so it is the cheapest Node has: `http.request` (fetch, undici's web streams, took 20–60 ms more for the same
 * 27 MiB, measured alone). BENCH_UPLOAD_CLIENT=fetch measures with fetch, as before 2026-11-29.
 */
async function post(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  if (process.env.BENCH_UPLOAD_CLIENT === 'fetch') {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Signs in a new user of `role`, with a socket that reports the finished runs of `event`. */
async function userOf(top: Topology, admin: TestClient, role: string, email: string, event: string) {
  const { roles } = (await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> };
  const created = await admin.post('/api/admin/user', { company_agent: 'Bench', email, password: 'bench-user-password', roles: [roles.find((r) => r.slug === role)!._id], ...(role === 'user_agent_ledes' ? { id_client: ['C1'] } : {}) });
  if (created.status >= 300) throw new Error(`user ${email}: ${created.status} ${JSON.stringify(created.body)}`);
  const client = new TestClient(top.url, { origin: top.url, apiKey: top.apiKey });
  const login = await client.post('/api/auth/login', { email, password: 'bench-user-password' });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status}`);
  const socket: Socket = io(top.url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: top.url, cookie: client.cookieHeader() } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  let waiter: ((v: { id: string; state: string }) => void) | null = null;
  let treatedWaiter: (() => void) | null = null;
  socket.on(event, (dto: LedesRunDto | AnnuityFileDto) => {
    const state = 'state' in dto ? dto.state : dto.is_done;
    if (state !== 'in_progress') waiter?.({ id: dto._id, state });
    // A LEDES run's treated workbook, written after Done (decision 182).
    // (A portal from before it, without the field, writes the workbook before Done.)
    const treated = (dto as { treated?: boolean }).treated;
    if ('state' in dto && (treated || (treated === undefined && state !== 'in_progress'))) treatedWaiter?.();
  });
  const headers = { cookie: client.cookieHeader(), origin: top.url, 'x-api-key': top.apiKey };
  return {
    client,
    headers,
    socket,
    /** Uploads `body` to `route`, resolves with the seconds until its run left in_progress. */
    async upload(route: string, form: { body: Buffer; contentType: string }): Promise<{ seconds: number; answered: number; state: string; cpu: number; treated: Promise<{ seconds: number; cpu: number }> }> {
      const finished = new Promise<{ id: string; state: string }>((resolve) => (waiter = resolve));
      const treatedAt = new Promise<void>((resolve) => (treatedWaiter = resolve));
      const cpu = () => top.pids.reduce((sum, pid) => sum + cpuOf(pid), 0);
      const cpuStart = cpu();
      const started = performance.now();
      const res = await post(`${top.url}${route}`, { ...headers, 'content-type': form.contentType }, form.body);
      if (res.status !== 200 && res.status !== 201) throw new Error(`${route} answered ${res.status}: ${res.text}`);
      const answered = (performance.now() - started) / 1000;
      const { state } = await finished;
      const seconds = (performance.now() - started) / 1000;
      const cpuDone = cpu();
      const treated = treatedAt.then(() => ({ seconds: (performance.now() - started) / 1000, cpu: cpu() - cpuStart }));
      return { seconds, answered, state, cpu: cpuDone - cpuStart, treated };
    },
  };
}

const file = await ledesBytes(LINES);
const workbook = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
const ledesForm = multipart({}, [{ filename: 'bench-200k.txt', content: file }]);
const annuityForm = multipart({ title: 'bench' }, [{ filename: 'bench.xlsx', content: workbook }]);
const rows: Array<[string, string, string]> = [];
const row = (mode: string, name: string, value: string) => rows.push([mode, name, value]);

for (const mode of MODES) {
  const top = await startTopology(mode, Math.max(file.length, workbook.length) * 2);
  try {
    await sleep(5000);
    const idle = rssOf(top.ledesPid).rss;
    const admin = new TestClient(top.url, { origin: top.url, apiKey: top.apiKey });
    const login = await admin.post('/api/auth/login', BENCH_ADMIN);
    if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
    const agent = await userOf(top, admin, 'user_agent_ledes', 'agent@bench.example.com', 'ledes:run');
    const owner = await userOf(top, admin, 'user_annuites', 'annuities@bench.example.com', 'annuities:file:updated');

    // 1. LEDES alone, beside the engine alone before and after.
    if (PHASES.includes('alone')) {
      const before = await engineAlone(file);
      const load = loadSampler();
      const rss = rssSampler(top.ledesPid);
      const alone = await agent.upload('/api/ledes/file/patent/PAR', ledesForm);
      const treated = await alone.treated;
      const peak = rss.stop();
      const loadAlone = load.stop();
      const after = await engineAlone(file);
      await sleep(AFTER_MS);
      const settled = rssOf(top.ledesPid).rss;
      const engine = Math.max(before, after);
      const pipeline = LINES / alone.seconds;
      row(mode, `LEDES ${LINES.toLocaleString('en-US')} lines, upload → Done (s), run ${alone.state}`, alone.seconds.toFixed(2));
      row(mode, 'of which the upload, until answered (s)', alone.answered.toFixed(2));
      row(mode, 'pipeline lines/s', Math.round(pipeline).toLocaleString('en-US'));
      row(mode, 'engine alone lines/s, same file (best of 3 before / after)', `${Math.round(before).toLocaleString('en-US')} / ${Math.round(after).toLocaleString('en-US')}`);
      row(mode, 'pipeline ÷ engine alone (goal ≥ 0.4)', (pipeline / engine).toFixed(2));
      const engineCpuLeast = Math.min(...engineCpu.splice(0));
      row(mode, `portal CPU-s, upload → Done (${mode === 'embedded' ? 'API' : 'API + LEDES worker'}) / engine alone CPU-s (least of 6) / ratio`, `${alone.cpu.toFixed(2)} / ${engineCpuLeast.toFixed(2)} / ${(engineCpuLeast / alone.cpu).toFixed(2)}`);
      row(mode, 'treated workbook stored (after Done, decision 182): upload → workbook (s) / portal CPU-s', `${treated.seconds.toFixed(2)} / ${treated.cpu.toFixed(2)}`);
      row(mode, `${mode === 'embedded' ? 'API' : 'LEDES worker'} RSS idle / peak / ${AFTER_MS / 1000} s after Done (MB)`, `${idle.toFixed(0)} / ${peak.toFixed(0)} / ${settled.toFixed(0)}`);
      row(mode, 'load average (1 min) during the LEDES run', loadAlone);
    }

    // 2. LEDES and annuities at once, the API probed every 20 ms.
    if (PHASES.includes('together')) {
      const load = loadSampler();
      const cpuBoth = top.pids.reduce((sum, pid) => sum + cpuOf(pid), 0);
      const probe = startProbe(`${top.url}/api/auth/verify_token_`, agent.headers);
      await sleep(500);
      const [ledes, annuities] = await Promise.all([agent.upload('/api/ledes/file/patent/PAR', ledesForm), owner.upload('/api/brevets/annuite', annuityForm)]);
      await ledes.treated; // the probe covers the workbook written after Done too
      const { latencies, failures } = await probe.stop();
      const loadBoth = load.stop();
      const cpuUsed = top.pids.reduce((sum, pid) => sum + cpuOf(pid), 0) - cpuBoth;
      row(mode, `at once: LEDES upload → Done (s) / annuities ${ROWS.toLocaleString('en-US')} rows upload → Done (s)`, `${ledes.seconds.toFixed(2)} ${ledes.state} / ${annuities.seconds.toFixed(2)} ${annuities.state}`);
      row(mode, `at once: verify_token_ requests (failed)`, `${latencies.length} (${failures})`);
      row(mode, 'at once: verify_token_ p50 / p99 / max (ms) (goal max < 100)', `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} / ${(latencies.at(-1) ?? 0).toFixed(1)}`);
      row(mode, `at once: portal CPU-s until both are Done (${mode === 'embedded' ? 'API' : 'API + LEDES worker'})`, cpuUsed.toFixed(2));
      row(mode, 'load average (1 min) during both runs', loadBoth);
    }
    agent.socket.close();
    owner.socket.close();
  } finally {
    await top.stop();
  }
}

console.log(`\nLEDES at scale: ${LINES.toLocaleString('en-US')}-line 1998B file (${(file.length / 2 ** 20).toFixed(1)} MiB), ${ROWS.toLocaleString('en-US')}-row annuity workbook (${(workbook.length / 2 ** 20).toFixed(1)} MiB)`);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`);
console.log(`| mode | figure | value |\n|---|---|---:|`);
for (const [mode, name, value] of rows) console.log(`| ${mode} | ${name} | ${value} |`);
