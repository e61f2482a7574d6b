/**
 * A generated 100,000-row .xlsx through the production path: the API process, BullMQ on a private
 * redis-server, a separately started annuities worker, PostgreSQL, and the live
 * `annuities:file:updated` events over socket.io. Measures upload → Done, progress events per second,
 * the API's p95 for GET /api/annuite/files during the run, then GET /api/brevets/file/{id} for
 * search, sort, colour filter and page 500. Needs PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432).
 * BENCH_ROWS sets the rows (100,000), BENCH_QUERY_RUNS the requests per query (30), BENCH_KEEP_DB=1 keeps the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { REALTIME_PATH, type AnnuityFileDto } from '@portal/contracts';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = await createScratchDatabase(baseUrl);
const redis = await startRedisServer();
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const apiKey = BENCH_API_KEY;
const env = benchProductionEnv({ port, dataDir, databaseUrl: database.url, redisUrl: redis.url });
const loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0]!), 1000);
const api = startProcess('apps/api/src/main.ts', env);
const worker = startProcess('workers/src/entrypoints/annuities.ts', env);
try {
  const workbook = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
  await api.waitFor(/Portal ready on/, 60_000);
  await worker.waitFor(/annuities worker started/, 60_000);
  const admin = new TestClient(url, { origin: url, apiKey });
  await admin.post('/api/auth/login', BENCH_ADMIN);
  const { roles } = (await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> };
  await admin.post('/api/admin/user', { company_agent: 'Bench', email: 'annuities@bench.example.com', password: 'bench-user-password', roles: [roles.find((r) => r.slug === 'user_annuites')!._id] });
  const user = new TestClient(url, { origin: url, apiKey });
  await user.post('/api/auth/login', { email: 'annuities@bench.example.com', password: 'bench-user-password' });

  const socket = io(url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: url, cookie: user.cookieHeader() } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const progress: number[] = [];
  let done: (file: AnnuityFileDto) => void = () => {};
  const finished = new Promise<AnnuityFileDto>((resolve) => (done = resolve));
  socket.on('annuities:file:updated', (file: AnnuityFileDto) => {
    if (file.is_done === 'in_progress' && file.rows_done > 0) progress.push(performance.now());
    if (file.is_done !== 'in_progress') done(file);
  });

  // The file list, polled during the run as a screen would (and harder).
  const listLatencies: number[] = [];
  let running = true;
  const poller = (async () => {
    while (running) {
      const t0 = performance.now();
      await user.get('/api/annuite/files?limit=5');
      listLatencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const { body, contentType } = multipart({ title: 'bench' }, [{ filename: 'bench.xlsx', content: workbook }]);
  const started = performance.now();
  const res = await fetch(`${url}/api/brevets/annuite`, { method: 'POST', headers: { 'content-type': contentType, cookie: user.cookieHeader(), origin: url, 'x-api-key': apiKey }, body });
  const answered = performance.now() - started;
  const { _id: fileId } = (await res.json()) as { _id: string };
  const file = await finished;
  const total = performance.now() - started;
  running = false;
  await poller;
  socket.close();
  if (file.is_done !== 'Done') throw new Error(`file ended ${file.is_done} ${file.error_code}`);

  const gaps = progress.slice(1).map((t, i) => t - progress[i]!);
  const firstProgress = progress.length > 0 ? progress[0]! - started : Number.NaN;
  const query = async (q: string) => {
    const times: number[] = [];
    for (let i = 0; i < QUERY_RUNS; i++) {
      const t0 = performance.now();
      const r = await user.get(`/api/brevets/file/${fileId}?${q}`);
      times.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`${q}: ${r.status}`);
    }
    return times;
  };
  const queries: Array<[string, string]> = [
    ['first page (30)', 'limit=30'],
    ['search "ref-4242"', 'search=ref-4242&limit=30'],
    ['sort date_prochaine_annuite desc', 'sort=date_prochaine_annuite&order=desc&limit=30'],
    ['sort date_predecent_annuite asc', 'sort=date_predecent_annuite&order=asc&limit=30'],
    ['colour nok', 'colour=nok&limit=30'],
    ['page 500 (limit 100)', 'page=500&limit=100'],
  ];
  const row = (name: string, value: string) => console.log(`| ${name.padEnd(52)} | ${value.padStart(14)} |`);
  console.log(`\nAnnuity flow: ${ROWS.toLocaleString('en')}-row .xlsx (${(workbook.length / 2 ** 20).toFixed(1)} MiB) through the API, BullMQ and a separate annuities worker on PostgreSQL`);
  console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}`);
  console.log(`Load average (1 min) during the run: min ${Math.min(...loads).toFixed(1)}, max ${Math.max(...loads).toFixed(1)}\n`);
  console.log(`| ${'figure'.padEnd(52)} | ${'value'.padStart(14)} |\n|${'-'.repeat(54)}|${'-'.repeat(16)}|`);
  row('upload answered (ms)', answered.toFixed(0));
  row('upload → Done (ms), target < 10,000', total.toFixed(0));
  row('progress events seen by the owner', String(progress.length));
  row('first progress event after upload (ms)', firstProgress.toFixed(0));
  row('progress events per second (while storing)', progress.length > 1 ? ((progress.length - 1) / ((progress.at(-1)! - progress[0]!) / 1000)).toFixed(2) : '-');
  row('longest gap between progress events (ms)', gaps.length > 0 ? Math.max(...gaps).toFixed(0) : '-');
  row(`GET /annuite/files during the run: p95 (ms) of ${listLatencies.length}`, percentile(listLatencies, 95).toFixed(1));
  for (const [name, q] of queries) {
    const times = await query(q);
    row(`GET /brevets/file/{id} ${name}: p50 / p95 (ms)`, `${percentile(times, 50).toFixed(1)} / ${percentile(times, 95).toFixed(1)}`);
  }
} finally {
  clearInterval(sampler);
  await worker.stop();
  await api.stop();
  await redis.stop();
  // BENCH_KEEP_DB=1 keeps the 100,000 patents to look at the plans (EXPLAIN) afterwards.
  if (process.env.BENCH_KEEP_DB) console.log(`\nDatabase kept: ${database.url}`);
  else await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
