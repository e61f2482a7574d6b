/**
 * The embedded portal under one big LEDES check: `npm run bench -- ledes-embedded`.
 * Starts the embedded API (PGlite, inline queue, local storage) as its own process, reads its idle
 * RSS right after start and once settled (45 s), uploads a generated 200,000-line 1998B file, and while it is checked polls
 * `GET /api/auth/verify_token_` every 20 ms. Prints the API's latency during the check (max, p99),
 * the pipeline's throughput (upload → Done) beside the engine alone on the same file in this
 * process, and the API's RSS. BENCH_LINES changes the file size.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { io } from 'socket.io-client';
import { DEV_API_KEY } from '@portal/config';
import { REALTIME_PATH, type LedesRunDto } from '@portal/contracts';
import { checkLedes, defaultProfile } from '../packages/ledes/src/index.ts';
import { generateLedes } from '../packages/ledes/test/generate.ts';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN } from './production-env.ts';
import { cpuOf, rssOf } from './proc.ts';

const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const POLL_MS = 20;
/** When the idle RSS is read a second time, after start-up's garbage has been given back. */
const IDLE_SETTLE_MS = 45_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Latencies (ms) of the probe's requests: all of them, and those sent after `mark()`. */
interface PollResult { latencies: number[]; checkLatencies: number[]; failures: number }

/**
 * Polls `url` every POLL_MS from a worker thread until `stop()`. A request that fails (a keep-alive
 * socket the server closed while its event loop was blocked) is counted, and the time until the
 * failure still counts as latency.
 */
function startPoller(url: string, headers: Record<string, string>): { mark(): void; stop(): Promise<PollResult> } {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, headers, pollMs } = workerData;
    const latencies = [], checkLatencies = [];
    let failures = 0, marked = false, polling = true;
    parentPort.on('message', (m) => { if (m === 'mark') marked = true; else polling = false; });
    (async () => {
      while (polling) {
        const started = performance.now();
        const afterMark = marked;
        try { const res = await fetch(url, { headers }); await res.arrayBuffer(); } catch { failures++; }
        const ms = performance.now() - started;
        latencies.push(ms);
        if (afterMark) checkLatencies.push(ms);
        await new Promise((r) => setTimeout(r, Math.max(0, pollMs - ms)));
      }
      const asc = (a, b) => a - b;
      parentPort.postMessage({ latencies: latencies.sort(asc), checkLatencies: checkLatencies.sort(asc), failures });
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { url, headers, pollMs: POLL_MS } });
  const result = new Promise<PollResult>((resolve, reject) => {
    worker.once('message', (m: PollResult) => resolve(m));
    worker.once('error', reject);
  });
  return {
    mark: () => worker.postMessage('mark'),
    stop: async () => {
      worker.postMessage('stop');
      const polled = await result;
      await worker.terminate();
      return polled;
    },
  };
}

/** CPU seconds per thread of a process (name from /proc/<pid>/task/<tid>/comm), by thread id. */
function threadCpuOf(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(`${tid} ${name}`, cpuOf(pid, tid));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

async function fileBytes(lines: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of generateLedes(lines)) parts.push(chunk);
  return Buffer.concat(parts);
}

let engineCpu = Infinity;
async function engineLinesPerSecond(file: Buffer): Promise<number> {
  const profile = defaultProfile('PAR', 'patent')!;
  let best = 0;
  for (let i = 0; i < 3; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const chunks = (function* () {
      for (let at = 0; at < file.length; at += 256 * 1024) yield file.subarray(at, at + 256 * 1024);
    })();
    const { summary } = await checkLedes(chunks, { filename: 'bench.txt', profile, clock: () => new Date('2025-06-01T00:00:00Z'), collect: false });
    best = Math.max(best, summary.linesChecked / ((performance.now() - start) / 1000));
    const used = process.cpuUsage(cpu);
    engineCpu = Math.min(engineCpu, (used.user + used.system) / 1e6);
  }
  return best;
}

const file = await fileBytes(LINES);
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-embedded-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const env = {
  NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, SERVE_WEB: 'false', DATA_DIR: dataDir,
  COOKIE_SECURE: 'false', ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, SMTP_URL: 'smtp://127.0.0.1:9',
  // The admin signs in with the password alone, as in the production benches (decision 137).
  MFA_REQUIRED_FOR_ADMINS: 'false',
  UPLOAD_MAX_BYTES: String(Math.max(file.length * 2, 20 * 1024 * 1024)),
  // Profiling the API: BENCH_API_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' (the engine thread gets its own profile).
  ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
};
// EMBEDDED_CPU_PROF=<dir>: the API runs under the CPU profiler (bench/profiled-entry.ts) and writes its main
// thread's profile there when it stops (`--cpu-prof` is refused in NODE_OPTIONS).
const profileDir = process.env.EMBEDDED_CPU_PROF;
const api = profileDir
  ? startProcess('bench/profiled-entry.ts', { ...env, PROFILED_ENTRY: 'apps/api/src/main.ts', CPU_PROF_DIR: path.resolve(profileDir) })
  : startProcess('apps/api/src/main.ts', env);
try {
  await api.waitFor(/Portal ready on/, 120_000);
  await sleep(2000);
  const idle = rssOf(api.child.pid!);
  // Left alone, the process gives memory back within half a minute (V8's memory reducer shrinks the
  // heap it grew during start-up, the allocator returns freed pages): the settled idle figure.
  await sleep(IDLE_SETTLE_MS - 2000);
  const settled = rssOf(api.child.pid!);

  const key = DEV_API_KEY;
  const admin = new TestClient(url, { origin: url, apiKey: key });
  const login = await admin.post('/api/auth/login', BENCH_ADMIN);
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
  const roles = ((await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> }).roles;
  await admin.post('/api/admin/user', { company_agent: 'Bench', email: 'agent@bench.example.com', password: 'bench-agent-password', roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: ['C1'] });
  const agent = new TestClient(url, { origin: url, apiKey: key });
  await agent.post('/api/auth/login', { email: 'agent@bench.example.com', password: 'bench-agent-password' });

  const socket = io(url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: url, cookie: agent.cookieHeader() } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  let finished!: (run: LedesRunDto) => void;
  const done = new Promise<LedesRunDto>((resolve) => (finished = resolve));
  socket.on('ledes:run', (run: LedesRunDto) => {
    if (run.state !== 'in_progress') finished(run);
  });

  // Built before the poller starts: copying 27 MiB blocks this process's event loop, which would count
  // as the first poll's latency.
  const { body, contentType } = multipart({}, [{ filename: 'bench-200k.txt', content: file }]);

  // The poller measures the API's answer time while the check runs, one request every 20 ms, from a
  // thread of its own: on this process's event loop it would also time this process's work (sending
  // 27 MiB), which a user's browser polling beside the upload does not wait for.
  const poller = startPoller(`${url}/api/auth/verify_token_`, { cookie: agent.cookieHeader(), origin: url, 'x-api-key': key });

  const load = [loadavg()[0]!];
  const loadTimer = setInterval(() => load.push(loadavg()[0]!), 1000);
  const cpuBefore = cpuOf(api.child.pid!);
  const threadsBefore = threadCpuOf(api.child.pid!);
  const started = performance.now();
  const res = await fetch(`${url}/api/ledes/file/patent/PAR`, { method: 'POST', headers: { 'content-type': contentType, cookie: agent.cookieHeader(), origin: url, 'x-api-key': key }, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const uploaded = (performance.now() - started) / 1000;
  poller.mark();
  const run = await done;
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuOf(api.child.pid!) - cpuBefore;
  const threadsAfter = threadCpuOf(api.child.pid!);
  clearInterval(loadTimer);
  const { latencies, checkLatencies, failures } = await poller.stop();
  socket.close();
  const busy = rssOf(api.child.pid!);

  const engine = await engineLinesPerSecond(file);
  const pipeline = LINES / seconds;
  const row = (name: string, value: string) => console.log(`| ${name.padEnd(56)} | ${value.padStart(14)} |`);
  console.log(`\nEmbedded portal (PGlite, inline queue) checking one ${LINES.toLocaleString('en-US')}-line 1998B file (${(file.length / 2 ** 20).toFixed(1)} MiB); run ${run.state}, accepted ${String(run.accepted)}`);
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average (1 min) during the check ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}\n`);
  console.log(`| ${'figure'.padEnd(56)} | ${'value'.padStart(14)} |\n|${'-'.repeat(58)}|${'-'.repeat(16)}|`);
  row('API RSS 2 s after start, empty data directory (MB)', idle.rss.toFixed(0));
  row(`API RSS idle ${IDLE_SETTLE_MS / 1000} s after start, nothing done (MB)`, settled.rss.toFixed(0));
  row('API peak RSS over the run (MB)', busy.peak.toFixed(0));
  row(`verify_token_ during the check: requests (failed)`, `${latencies.length} (${failures})`);
  row('verify_token_ during the check: p50 (ms)', percentile(latencies, 50).toFixed(1));
  row('verify_token_ during the check: p99 (ms)', percentile(latencies, 99).toFixed(1));
  row('verify_token_ during the check: max (ms)', (latencies.at(-1) ?? 0).toFixed(1));
  row('verify_token_ after the upload was answered: p99 (ms)', percentile(checkLatencies, 99).toFixed(1));
  row('verify_token_ after the upload was answered: max (ms)', (checkLatencies.at(-1) ?? 0).toFixed(1));
  row('upload answered (s)', uploaded.toFixed(2));
  row('upload → Done (s)', seconds.toFixed(2));
  row('pipeline lines/s (upload → Done)', Math.round(pipeline).toLocaleString('en-US'));
  row('engine alone lines/s (same file, best of 3)', Math.round(engine).toLocaleString('en-US'));
  row('pipeline / engine', (pipeline / engine).toFixed(2));
  row('API CPU time upload → Done, all threads (s)', cpuSeconds.toFixed(2));
  row('API CPU seconds per 100k lines', ((cpuSeconds * 100_000) / LINES).toFixed(2));
  row('engine alone CPU seconds per 100k lines (best of 3)', ((engineCpu * 100_000) / LINES).toFixed(2));
  if (process.env.BENCH_THREADS) {
    // Per-thread CPU seconds of the API over upload → Done (the main thread is the one whose id is the pid).
    for (const [thread, after] of threadsAfter) {
      const used = after - (threadsBefore.get(thread) ?? 0);
      if (used >= 0.01) console.log(`  thread ${thread}: ${used.toFixed(2)} s`);
    }
  }
} finally {
  await api.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
