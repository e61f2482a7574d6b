import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@portal/contracts';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { REGISTERED_QUEUES } from '@portal/jobs';
import { startSmtpSink } from '@portal/mail/test-support';
import { multipart } from './support/multipart.ts';
import { freePort, PRODUCTION_ADMIN, startProcess, startProductionPortal, waitForRowState, type RunningProcess } from './support/processes.ts';
import { TestClient } from './support/portal.ts';

const baseUrl = testDatabaseBaseUrl();
const METRICS_TOKEN = 'metrics-token-for-the-ops-test';

/** A valid LEDES 1998B file of a few lines. */
function smallLedesFile(): Buffer {
  const header =
    'LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\n';
  const line = (i: number) => `20240225|1000|C-1|0528|700.00|20240101|20240131|For services rendered|${i}|F|2.00|0|700|20240115|L510||A102|22547|Research and drafting of the reply|24-6437381|350|Arnsley, Robert|PT|423-987[]`;
  return Buffer.from(header + [1, 2, 3].map(line).join('\n') + '\n');
}

/** The value of one series of a Prometheus text, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const found = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[2]);
  }
  return undefined;
}

const scrape = (base: string, token?: string) => fetch(`${base}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

describe.skipIf(!baseUrl)('production mode: health, metrics and the queue dashboard on the API and every worker', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let env: Record<string, string>;
  let url: string;
  let apiKey: string;
  let db: pg.Client;
  const workers = new Map<string, { process: RunningProcess; base: string }>();
  let api: RunningProcess;

  beforeAll(async () => {
    // A real SMTP server: the mail worker is ready only when its server greets it (issue 26).
    const smtp = await startSmtpSink();
    cleanups.push(() => smtp.stop());
    const portal = await startProductionPortal(baseUrl!, { METRICS_TOKEN, SMTP_URL: smtp.url });
    cleanups.push(() => portal.stop());
    ({ env, url, apiKey, db, api } = portal);
    // Every worker kind of the registry, each on its own health port.
    await Promise.all(
      REGISTERED_QUEUES.map(async (queue) => {
        const port = await freePort();
        const worker = startProcess(`workers/src/entrypoints/${queue}.ts`, { ...env, WORKER_HTTP_PORT: String(port), WORKER_HTTP_HOST: '127.0.0.1' });
        cleanups.push(() => worker.stop());
        await worker.waitFor(new RegExp(`${queue} worker started`), 90_000);
        workers.set(queue, { process: worker, base: `http://127.0.0.1:${port}` });
      }),
    );
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('/healthz and /readyz answer on the API (and its documented /health/* names) and on every worker', async () => {
    for (const base of [url, ...[...workers.values()].map((w) => w.base)]) {
      const live = await fetch(`${base}/healthz`);
      expect(live.status, `${base}/healthz`).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      expect(ready.status, `${base}/readyz ${JSON.stringify(body)}`).toBe(200);
      expect(body.checks.database).toBe('ok');
      expect(body.checks.redis).toBe('ok');
      for (const alias of ['/health/live', '/health/ready']) expect((await fetch(`${base}${alias}`)).status, `${base}${alias}`).toBe(200);
    }
    // The API and the workers that keep files check their storage too.
    expect(((await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, string> }).checks.storage).toBe('ok');
    expect(((await (await fetch(`${workers.get('ledes')!.base}/readyz`)).json()) as { checks: Record<string, string> }).checks.storage).toBe('ok');
    expect(((await (await fetch(`${workers.get('mail')!.base}/readyz`)).json()) as { checks: Record<string, string> }).checks.smtp).toBe('ok');
  });

  it('/metrics refuses a missing or wrong bearer token, on the API and on every worker', async () => {
    for (const base of [url, ...[...workers.values()].map((w) => w.base)]) {
      for (const token of [undefined, 'wrong-token-of-the-same-kind', `${METRICS_TOKEN}x`]) {
        const res = await scrape(base, token);
        expect(res.status, `${base} with ${token ?? 'no token'}`).toBe(401);
        expect(await res.text()).not.toContain('portal_');
      }
    }
  });

  it('/metrics: HTTP by declared route, queue depth of every registered queue, job duration and outcome, runs per state, sockets', async () => {
    const admin = new TestClient(url, { origin: url, apiKey });
    expect((await admin.post('/api/auth/login', PRODUCTION_ADMIN)).status).toBe(200);
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const email = 'ops-agent@portal.example.com';
    await admin.post('/api/admin/user', { company_agent: 'Agent', email, password: 'agent-password-123', roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: ['C-1'] });
    const agent = new TestClient(url, { origin: url, apiKey });
    expect((await agent.post('/api/auth/login', { email, password: 'agent-password-123' })).status).toBe(200);

    const { body, contentType } = multipart({ user_id: '' }, [{ filename: 'ops.txt', content: smallLedesFile() }]);
    const res = await fetch(`${url}/api/ledes/file/patent/PAR`, { method: 'POST', headers: { 'content-type': contentType, cookie: agent.cookieHeader(), origin: url, 'x-api-key': apiKey }, body });
    expect(res.status).toBe(200);
    const runId = ((await res.json()) as { runs: Array<{ _id: string }> }).runs[0]!._id;
    await waitForRowState(db, 'select state from ledes_runs where id = $1', runId, 'Done', 60_000);
    // A run read by id: its label must be the pattern, never the id.
    expect((await agent.get(`/api/ledes/runs/${runId}`)).status).toBe(200);

    const socket: Socket = io(url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: url, cookie: agent.cookieHeader() }, reconnection: false });
    cleanups.push(() => void socket.close());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });

    const apiText = await (await scrape(url, METRICS_TOKEN)).text();
    expect(sample(apiText, 'portal_http_request_duration_seconds_count', { service: 'api', route: '/api/ledes/file/:type/:office', method: 'POST', status: '200' })).toBe(1);
    expect(sample(apiText, 'portal_http_request_duration_seconds_count', { route: '/api/ledes/runs/:id', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(apiText).not.toContain(runId);
    for (const queue of REGISTERED_QUEUES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(sample(apiText, 'portal_queue_jobs', { queue, state }), `${queue} ${state}`).toBeTypeOf('number');
    }
    expect(sample(apiText, 'portal_runs', { kind: 'ledes', state: 'Done' })).toBe(1);
    expect(sample(apiText, 'portal_socketio_connections', {})).toBe(1);
    expect(sample(apiText, 'process_resident_memory_bytes', { service: 'api' })).toBeGreaterThan(0);

    // The job goes on after Done: it writes the treated workbook (decision 182), then completes.
    await waitForRowState(db, "select case when treated_key is null then 'pending' else 'stored' end as state from ledes_runs where id = $1", runId, 'stored', 60_000);
    const ledesCompleted = async () => {
      const text = await (await scrape(workers.get('ledes')!.base, METRICS_TOKEN)).text();
      return { text, completed: sample(text, 'portal_job_duration_seconds_count', { service: 'worker-ledes', queue: 'ledes', outcome: 'completed' }) };
    };
    let scraped = await ledesCompleted();
    for (const deadline = Date.now() + 10_000; scraped.completed === undefined && Date.now() < deadline; scraped = await ledesCompleted()) await new Promise((resolve) => setTimeout(resolve, 100));
    const ledesText = scraped.text;
    expect(scraped.completed).toBe(1);
    expect(sample(ledesText, 'portal_queue_jobs', { queue: 'ledes', state: 'waiting' })).toBe(0);
    // Each worker times its own queue only.
    for (const [queue, worker] of workers) {
      const text = await (await scrape(worker.base, METRICS_TOKEN)).text();
      expect(sample(text, 'portal_queue_jobs', { service: `worker-${queue}`, queue, state: 'active' }), queue).toBeTypeOf('number');
    }
  });

  it('the queue dashboard (bull-board) shows every registered queue to an admin only', async () => {
    const anonymous = await fetch(`${url}/api/admin/queues`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('unauthorized');

    const admin = new TestClient(url, { origin: url, apiKey });
    await admin.post('/api/auth/login', PRODUCTION_ADMIN);
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const email = 'ops-annuities@portal.example.com';
    await admin.post('/api/admin/user', { company_agent: 'Annuities', email, password: 'annuities-password-123', roles: [roles.find((r) => r.slug === 'user_annuites')!._id] });
    const user = new TestClient(url, { origin: url, apiKey });
    await user.post('/api/auth/login', { email, password: 'annuities-password-123' });
    // A browser opens the page with its session cookie and no API key.
    const asUser = await fetch(`${url}/api/admin/queues`, { headers: { cookie: user.cookieHeader() } });
    expect(asUser.status).toBe(403);
    expect((await fetch(`${url}/api/admin/queues/api/queues`, { headers: { cookie: user.cookieHeader() } })).status).toBe(403);

    const page = await fetch(`${url}/api/admin/queues`, { headers: { cookie: admin.cookieHeader() } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('IP Portal queues');
    const api = await fetch(`${url}/api/admin/queues/api/queues`, { headers: { cookie: admin.cookieHeader() } });
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: Array<{ name: string; readOnlyMode: boolean }> };
    expect(queues.map((q) => q.name).sort()).toEqual([...REGISTERED_QUEUES].sort());
    expect(queues.every((q) => q.readOnlyMode)).toBe(true);
    // Read-only: no method but GET reaches bull-board, even for an admin.
    const retry = await fetch(`${url}/api/admin/queues/api/queues/ledes/retry/failed`, { method: 'PUT', headers: { cookie: admin.cookieHeader(), origin: url, 'x-api-key': apiKey } });
    expect(retry.status).toBe(404);
  });

  it('SIGTERM: an idle worker closes its HTTP port and connections and exits 0 at once', async () => {
    const worker = workers.get('patent-reminders')!;
    worker.process.child.kill('SIGTERM');
    await new Promise<void>((resolve) => worker.process.child.once('exit', () => resolve()));
    expect(worker.process.child.exitCode).toBe(0);
    expect(worker.process.output()).toMatch(/patent-reminders worker stopping/);
    await expect(fetch(`${worker.base}/healthz`)).rejects.toThrow();
  });

  it('SIGTERM: the API stops taking requests, closes its sockets and connections, and exits 0 well within its 30 s bound', async () => {
    const started = Date.now();
    api.child.kill('SIGTERM');
    await new Promise<void>((resolve) => api.child.once('exit', () => resolve()));
    expect(api.child.exitCode, api.output().slice(-2000)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
