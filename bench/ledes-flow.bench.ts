/**
 * Upload → Done latency of a 1,000-line LEDES file through the production path: the API process,
 * BullMQ on a private redis-server, a separately started LEDES worker, PostgreSQL, and the live
 * `ledes:run` event over socket.io. Needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { REALTIME_PATH, type LedesRunDto } from '@portal/contracts';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);
/** Uploads sent at once in the second phase (issue 8: 50 concurrent 1,000-line uploads, p95 < 1.5 s). */
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 50);
const WARMUP = 5;

function ledesFile(lines: number): Buffer {
  const header =
    'LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\n';
  const rows: string[] = [];
  for (let i = 1; i <= lines; i++) {
    rows.push(`20240225|INV-${Date.now()}|C-1|0528|${(lines * 700).toFixed(2)}|20240101|20240131|For services rendered|${i}|F|2.00|0|700.00|20240115|L510||A102|22547|Research and drafting of the reply|24-6437381|350.00|Arnsley, Robert|PARTNR|423-987[]`);
  }
  return Buffer.from(header + rows.join('\n') + '\n');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = await createScratchDatabase(baseUrl);
const redis = await startRedisServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const apiKey = BENCH_API_KEY;
const env = benchProductionEnv({ port, dataDir, databaseUrl: database.url, redisUrl: redis.url });
const api = startProcess('apps/api/src/main.ts', env);
const worker = startProcess('workers/src/entrypoints/ledes.ts', env);
try {
  await api.waitFor(/Portal ready on/, 60_000);
  await worker.waitFor(/ledes worker started/, 60_000);
  const admin = new TestClient(url, { origin: url, apiKey });
  await admin.post('/api/auth/login', BENCH_ADMIN);
  const { roles } = (await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> };
  await admin.post('/api/admin/user', { company_agent: 'Bench', email: 'agent@bench.example.com', password: 'bench-agent-password', roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: ['C-1'] });
  const agent = new TestClient(url, { origin: url, apiKey });
  await agent.post('/api/auth/login', { email: 'agent@bench.example.com', password: 'bench-agent-password' });

  const socket = io(url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: url, cookie: agent.cookieHeader() } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  // A run may finish before its upload's answer is read: finished runs are kept until asked for.
  const finished = new Map<string, LedesRunDto>();
  const waiters = new Map<string, (run: LedesRunDto) => void>();
  socket.on('ledes:run', (run: LedesRunDto) => {
    if (run.state === 'in_progress') return;
    finished.set(run._id, run);
    waiters.get(run._id)?.(run);
  });
  const finishedRun = (runId: string) =>
    new Promise<LedesRunDto>((resolve) => {
      const done = finished.get(runId);
      if (done) resolve(done);
      else waiters.set(runId, resolve);
    });
  /** One upload: the time its answer took, and the time until its run was Done. */
  const upload = async (name: string) => {
    const { body, contentType } = multipart({}, [{ filename: name, content: ledesFile(1000) }]);
    const started = performance.now();
    const res = await fetch(`${url}/api/ledes/file/patent/PAR`, { method: 'POST', headers: { 'content-type': contentType, cookie: agent.cookieHeader(), origin: url, 'x-api-key': apiKey }, body });
    const json = (await res.json()) as { runs: LedesRunDto[] };
    const answered = performance.now() - started;
    await finishedRun(json.runs[0]!._id);
    return { answered, done: performance.now() - started };
  };

  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const { done } = await upload(`bench-${i}.txt`);
    if (i >= WARMUP) latencies.push(done);
  }
  const together = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => upload(`together-${i}.txt`)));
  socket.close();
  latencies.sort((a, b) => a - b);
  const answers = together.map((t) => t.answered).sort((a, b) => a - b);
  const dones = together.map((t) => t.done).sort((a, b) => a - b);
  const row = (name: string, value: string) => console.log(`| ${name.padEnd(44)} | ${value.padStart(12)} |`);
  console.log(`\nLEDES upload → Done through BullMQ and a separate worker (${RUNS} runs of 1,000 lines after ${WARMUP} warm-up)`);
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`);
  console.log(`| ${'figure'.padEnd(44)} | ${'value'.padStart(12)} |\n|${'-'.repeat(46)}|${'-'.repeat(14)}|`);
  row('upload → Done p50 (ms)', percentile(latencies, 50).toFixed(0));
  row('upload → Done p95 (ms)', percentile(latencies, 95).toFixed(0));
  row('upload → Done max (ms)', latencies.at(-1)!.toFixed(0));
  row('target p95 (ms)', '< 1000');
  row(`${CONCURRENT} at once: upload answered p50 (ms)`, percentile(answers, 50).toFixed(0));
  row(`${CONCURRENT} at once: upload answered p95 (ms)`, percentile(answers, 95).toFixed(0));
  row(`${CONCURRENT} at once: upload → Done p95 (ms)`, percentile(dones, 95).toFixed(0));
  row(`${CONCURRENT} at once: all Done (ms)`, dones.at(-1)!.toFixed(0));
  row('target: upload answered p95 (ms)', '< 1500');
} finally {
  await worker.stop();
  await api.stop();
  await redis.stop();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
