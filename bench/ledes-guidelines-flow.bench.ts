/**
 * Client guidelines at pipeline level (issue 31 §1, done-when 3): `npm run bench -- ledes-guidelines-flow`.
 * A generated LEDES 1998B file uploaded through the API until its run is Done, in both modes: embedded (the API
 * process alone: PGlite, inline queue, engine thread) and production (API + a separate LEDES worker, BullMQ on a
 * private redis-server, PostgreSQL). Each upload goes to a client of its own (CON-007 scopes invoice numbers by
 * client, so every run is accepted and writes the same rows): without guidelines, or with the 30-rule set the file
 * passes (bench/thirty-rules.ts), alternating, BENCH_ROUNDS rounds. Upload → Done wall time and the CPU seconds of
 * the portal's processes (API, worker; PostgreSQL's backends not counted) per run, best of the rounds, and the
 * ratio with rules / without (the issue asks ≥ 0.8×). BENCH_LINES changes the file size; BENCH_MODES=embedded or
 * production runs one mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { DEV_API_KEY } from '@portal/config';
import { createScratchDatabase } from '@portal/db/testing';
import { startRedisServer } from '@portal/queue/test-support';
import { generateLedes } from '../packages/ledes/test/generate.ts';
import { multipart } from '../apps/api/test/support/multipart.ts';
import { freePort, startProcess } from '../apps/api/test/support/processes.ts';
import { TestClient } from '../apps/api/test/support/portal.ts';
import { BENCH_ADMIN, BENCH_API_KEY, benchProductionEnv } from './production-env.ts';
import { cpuOf } from './proc.ts';
import { THIRTY_RULES } from './thirty-rules.ts';

const LINES = Number(process.env.BENCH_LINES ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODES = (process.env.BENCH_MODES ?? 'embedded,production').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const parts: Buffer[] = [];
for await (const chunk of generateLedes(LINES)) parts.push(chunk);
const file = Buffer.concat(parts);
const iso = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
/** The API's rule shape: dates as YYYY-MM-DD, an upload delay of at most 3,660 days (the generated file's periods are recent). */
const apiRules = THIRTY_RULES.map((r) =>
  r.kind === 'max_rate' ? { ...r, ...(r.from ? { from: iso(r.from) } : {}), ...(r.to ? { to: iso(r.to) } : {}) } : r.kind === 'max_upload_delay' ? { ...r, max_days: Math.min(r.max_days, 3660) } : r,
);

interface Sample { wall: number; cpu: number }

async function measure(mode: string): Promise<{ none: Sample; rules: Sample; load: [number, number] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `portal-bench-gdl-${mode}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const production = mode === 'production';
  const database = production ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : undefined;
  const redis = production ? await startRedisServer() : undefined;
  const env: Record<string, string> = production
    ? { ...benchProductionEnv({ port, dataDir, databaseUrl: database!.url, redisUrl: redis!.url, logLevel: 'info' }), UPLOAD_MAX_BYTES: String(file.length * 2) }
    : {
        NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, SERVE_WEB: 'false', DATA_DIR: dataDir,
        COOKIE_SECURE: 'false', ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, SMTP_URL: 'smtp://127.0.0.1:9',
        MFA_REQUIRED_FOR_ADMINS: 'false', UPLOAD_MAX_BYTES: String(file.length * 2),
      };
  const apiKey = production ? BENCH_API_KEY : DEV_API_KEY;
  const api = startProcess('apps/api/src/main.ts', env);
  const worker = production ? startProcess('workers/src/entrypoints/ledes.ts', env) : undefined;
  try {
    await api.waitFor(/Portal ready on/, 120_000);
    await worker?.waitFor(/ledes worker started/, 120_000);
    const admin = new TestClient(url, { origin: url, apiKey });
    const login = await admin.post('/api/auth/login', BENCH_ADMIN);
    if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
    const clients = Array.from({ length: ROUNDS }, (_, i) => [`C-NONE-${i}`, `C-RULES-${i}`]).flat();
    const roles = ((await admin.get('/api/role')).body as { roles: Array<{ _id: string; slug: string }> }).roles;
    await admin.post('/api/admin/user', { company_agent: 'Bench', email: 'agent@bench.example.com', password: 'bench-agent-password', roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: clients });
    for (const c of clients.filter((c) => c.startsWith('C-RULES'))) {
      const res = await admin.post(`/api/ledes/guidelines/${c}`, { effective_from: '2020-01-01', rules: apiRules });
      if (res.status !== 200) throw new Error(`guidelines: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const agent = new TestClient(url, { origin: url, apiKey });
    await agent.post('/api/auth/login', { email: 'agent@bench.example.com', password: 'bench-agent-password' });
    const pids = [api.child.pid!, ...(worker ? [worker.child.pid!] : [])];
    const cpu = () => pids.reduce((t, pid) => t + cpuOf(pid), 0);

    const run = async (idClient: string): Promise<Sample> => {
      const { body, contentType } = multipart({ id_client: idClient }, [{ filename: `${idClient}.txt`, content: file }]);
      const cpu0 = cpu();
      const t0 = performance.now();
      const res = await fetch(`${url}/api/ledes/file/patent/PAR`, { method: 'POST', headers: { 'content-type': contentType, cookie: agent.cookieHeader(), origin: url, 'x-api-key': apiKey }, body });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
      const runId = ((await res.json()) as { runs: Array<{ _id: string }> }).runs[0]!._id;
      for (;;) {
        const state = (await agent.get(`/api/ledes/runs/${runId}`)).body as { run: { state: string; accepted: boolean | null; guidelines?: unknown[] } };
        if (state.run.state !== 'in_progress') {
          if (state.run.state !== 'Done' || !state.run.accepted) throw new Error(`run ${idClient}: ${JSON.stringify(state.run)}`);
          if (idClient.startsWith('C-RULES') && !state.run.guidelines?.length) throw new Error('the set was not applied');
          break;
        }
        await sleep(50);
      }
      const wall = (performance.now() - t0) / 1000;
      // The treated workbook follows Done (decision 182): let it finish so it is not counted in the next run.
      await sleep(0);
      return { wall, cpu: cpu() - cpu0 };
    };
    const waitIdle = async () => {
      // The previous run's workbook pass: wait until the processes are quiet (CPU grows < 0.05 s in 500 ms).
      for (let last = cpu(); ; ) {
        await sleep(500);
        const now = cpu();
        if (now - last < 0.05) return;
        last = now;
      }
    };
    const load0 = loadavg()[0]!;
    await waitIdle();
    const none: Sample[] = [];
    const rules: Sample[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      none.push(await run(`C-NONE-${i}`));
      await waitIdle();
      rules.push(await run(`C-RULES-${i}`));
      await waitIdle();
    }
    const best = (s: Sample[]): Sample => ({ wall: Math.min(...s.map((x) => x.wall)), cpu: Math.min(...s.map((x) => x.cpu)) });
    return { none: best(none), rules: best(rules), load: [load0, loadavg()[0]!] };
  } finally {
    await worker?.stop();
    await api.stop();
    await redis?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`\nLEDES upload → Done with and without a 30-rule guideline set, ${LINES.toLocaleString('en-US')} lines of 1998B (${(file.length / 2 ** 20).toFixed(1)} MiB), best of ${ROUNDS}; ${cpus().length} cores, Node ${process.version}\n`);
console.log('| Mode | without rules: wall s / CPU s | with 30 rules: wall s / CPU s | speed with rules (wall) | (CPU) | load avg start / end |\n|---|---:|---:|---:|---:|---:|');
for (const mode of MODES) {
  const r = await measure(mode);
  console.log(`| ${mode} | ${r.none.wall.toFixed(2)} / ${r.none.cpu.toFixed(2)} | ${r.rules.wall.toFixed(2)} / ${r.rules.cpu.toFixed(2)} | ${(r.none.wall / r.rules.wall).toFixed(2)}× | ${(r.none.cpu / r.rules.cpu).toFixed(2)}× | ${r.load[0].toFixed(1)} / ${r.load[1].toFixed(1)} |`);
}
