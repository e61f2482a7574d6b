import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesRuns } from '@portal/db';
import { REGISTERED_QUEUES } from '@portal/jobs';
import { startTestPortal, type TestPortal } from './support/portal.ts';

const TOKEN = 'embedded-metrics-token-0123456789';

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('embedded mode: health, metrics and the queue dashboard', () => {
  let t: TestPortal;
  let bare: TestPortal;
  beforeAll(async () => {
    [t, bare] = await Promise.all([startTestPortal('pglite', { METRICS_TOKEN: TOKEN }), startTestPortal('pglite')]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), bare?.close()]);
  });

  it('/healthz and /readyz answer, without the API key; /readyz lists its checks', async () => {
    const live = await fetch(`${t.url}/healthz`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('/readyz answers 503 with Retry-After once the node is stopping, /healthz still 200', async () => {
    t.portal.ctx.lifecycle.stopping = true;
    try {
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBeTruthy();
      expect(((await ready.json()) as { status: string }).status).toBe('stopping');
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    } finally {
      t.portal.ctx.lifecycle.stopping = false;
    }
  });

  it('/metrics is a 404 when no METRICS_TOKEN is configured, whatever the header', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }]) {
      const res = await fetch(`${bare.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('/metrics refuses a missing, malformed or wrong token (401), answers the right one', async () => {
    for (const authorization of [undefined, TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(1)}`, `Bearer  ${TOKEN}`, `Bearer ${TOKEN}${TOKEN}`]) {
      const res = await fetch(`${t.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts jobs run by the inline driver, queue depths from it, and HTTP requests by declared route', async () => {
    const admin = (await t.loginAs('admin')).client;
    const user = await t.createUser('user_annuites');
    // Asking for a first-connection link sends a mail: a `mail` job on the inline driver.
    const sent = await admin.get(`/api/auth/first_connection/${encodeURIComponent(user.email)}`);
    expect(sent.status, sent.text).toBe(200);
    await t.drainQueue();
    expect((await admin.get(`/api/user/${user.id}`)).status).toBe(200);
    expect((await admin.get('/api/user/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.get('/api/no-such-route/12345')).status).toBe(404);

    const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(text, 'portal_job_duration_seconds_count', { service: 'api', queue: 'mail', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    for (const queue of REGISTERED_QUEUES) expect(sample(text, 'portal_queue_jobs', { queue, state: 'waiting' }), queue).toBe(0);
    expect(sample(text, 'portal_http_request_duration_seconds_count', { route: '/api/user/:id', method: 'GET', status: '200' })).toBe(1);
    expect(sample(text, 'portal_http_request_duration_seconds_count', { route: '/api/user/:id', method: 'GET', status: '404' })).toBe(1);
    expect(sample(text, 'portal_http_request_duration_seconds_count', { route: '/api/*', method: 'GET', status: '404' })).toBe(1);
    expect(text).not.toContain(user.id);
    expect(text).not.toContain('no-such-route');
    expect(sample(text, 'portal_socketio_connections', {})).toBe(0);
  });

  it('runs per state come from the run tables', async () => {
    const before = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(before, 'portal_runs', { kind: 'ledes', state: 'Error' })).toBeUndefined();
    const owner = await t.createUser('user_agent_ledes');
    // A finished run row, as the LEDES processor leaves one (the gauge reads the table, whoever wrote it).
    await t.portal.ctx.db.insert(ledesRuns).values({ ownerId: owner.id, name: 'x', originalName: 'x.txt', originalKey: 'ledes/original/ops-test', size: 1, sha256: 'x', office: 'PAR', type: 'patent', state: 'Error' });
    const after = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(after, 'portal_runs', { kind: 'ledes', state: 'Error' })).toBe(1);
  });

  it('the queue dashboard path answers admins with the inline driver’s jobs per queue; others 401 / 403', async () => {
    const admin = (await t.loginAs('admin')).client;
    const res = await admin.get('/api/admin/queues');
    expect(res.status).toBe(200);
    expect(res.body.available).toBe(false);
    expect(res.body.driver).toBe('inline');
    expect(res.body.message).toMatch(/production/);
    expect((res.body.queues as Array<{ queue: string }>).map((q) => q.queue)).toEqual(REGISTERED_QUEUES);
    expect((await t.client().get('/api/admin/queues')).status).toBe(401);
    expect((await (await t.loginAs('admin_test')).client.get('/api/admin/queues')).status).toBe(403);
  });
});
