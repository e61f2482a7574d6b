import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../src/metrics.ts';
import { startOpsServer, type OpsServer } from '../src/server.ts';

describe('a worker’s ops server', () => {
  let server: OpsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (options: { token?: string; readiness?: Record<string, () => Promise<void>>; stopping?: () => boolean }) => {
    server = await startOpsServer({
      port: 0,
      host: '127.0.0.1',
      metrics: createMetrics({ service: 'worker-test' }),
      metricsToken: options.token,
      readiness: options.readiness ?? { database: async () => {} },
      stopping: options.stopping,
    });
    return `http://127.0.0.1:${server.port}`;
  };

  it('/readyz: 503 with Retry-After when a check fails or hangs, naming it; 200 when all answer', async () => {
    const base = await start({ readiness: { database: async () => {}, redis: () => Promise.reject(new Error('down')), storage: () => new Promise(() => {}) } });
    const started = Date.now();
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'down', storage: 'down' } });
    expect(Date.now() - started).toBeLessThan(4500);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('/readyz: 503 "stopping" once the worker stops taking work', async () => {
    let stopping = false;
    const base = await start({ stopping: () => stopping });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    stopping = true;
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { status: string }).status).toBe('stopping');
  });

  it('/metrics: 404 without a configured token; 401 without or with a wrong one; the text with it', async () => {
    let base = await start({});
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer anything-at-all-here' } })).status).toBe(404);
    await server!.close();
    base = await start({ token: 'a-worker-metrics-token' });
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer a-worker-metrics-tokeN' } })).status).toBe(401);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer a-worker-metrics-token' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/process_cpu_user_seconds_total\{service="worker-test"\}/);
  });

  it('answers GET and HEAD only, and 404 elsewhere', async () => {
    const base = await start({});
    expect((await fetch(`${base}/healthz`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
  });
});
