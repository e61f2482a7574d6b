import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { multipart } from './support/multipart.ts';
import { startS3Server, type TestS3 } from './support/s3-server.ts';
import { PROBE_CACHE_MS } from '@portal/ops';

/** Brings a stopped test Redis back on its port, so the portal can close cleanly. */
async function restartRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += String(d);
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return child;
}

const UNAVAILABLE_FR = { success: false, code: 'service_unavailable', message: 'Le service est momentanément indisponible. Veuillez réessayer dans un instant.' };

async function upload(t: TestPortal, client: TestClient) {
  const { body, contentType } = multipart({}, [{ filename: 'invoice.txt', content: 'LEDES1998B[]' }]);
  const res = await fetch(`${t.url}/api/ledes/file/patent/PAR`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: t.origin, 'x-api-key': t.config.security.apiKey, 'accept-language': 'fr' },
    body,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function health(t: TestPortal, path: string) {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('health: liveness and readiness (embedded)', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal('pglite');
  });
  afterAll(async () => t.close());

  it('keeps an idle connection open for a minute, so a client reusing it is not reset', async () => {
    // Node's 5 s reset a reused connection after a large answer on a busy machine (decision 145).
    const agent = new http.Agent({ keepAlive: true });
    try {
      const keepAlive = await new Promise<string>((resolve, reject) => {
        http.get(`${t.url}/health/live`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers['keep-alive'] ?? '')));
        }).on('error', reject);
      });
      expect(Number(/timeout=(\d+)/.exec(keepAlive)?.[1])).toBeGreaterThanOrEqual(60);
    } finally {
      agent.destroy();
    }
  });

  it('/health/live, /health/ready and /health answer ok with each dependency checked', async () => {
    expect(await health(t, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await health(t, '/health/ready')).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } });
    expect((await health(t, '/health')).body).toEqual((await health(t, '/health/ready')).body);
  });
});

describe.skipIf(!testDatabaseBaseUrl())('503, not 500, while a dependency is down (production mode)', () => {
  describe('Redis down', () => {
    let redis: TestRedis;
    let stopped = false;
    let restarted: ChildProcess | undefined;
    let t: TestPortal;
    beforeAll(async () => {
      redis = await startRedisServer();
      t = await startTestPortal('postgres', {
        NODE_ENV: 'production',
        API_KEY: 'availability-test-api-key',
        MFA_ENCRYPTION_KEY: '5a'.repeat(32),
        PUBLIC_URL: 'https://portal.example.com',
        REDIS_URL: redis.url,
      });
    });
    afterAll(async () => {
      if (stopped) restarted ??= await restartRedis(redis.port);
      await t.close();
      restarted?.kill('SIGKILL');
      await redis.stop();
    });

    it('Redis down: login, forgot password and uploads answer 503 with Retry-After; readiness 503, liveness ok', async () => {
      const agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
      const user = await t.createUser('user_annuites');
      expect(await health(t, '/health/ready')).toMatchObject({ status: 200, body: { checks: { database: 'ok', redis: 'ok', storage: 'ok' } } });

      await redis.stop();
      stopped = true;

      const login = await t.client({ lang: 'fr' }).post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.status).toBe(503);
      expect(login.body).toEqual(UNAVAILABLE_FR);
      expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);

      const reset = await t.client({ lang: 'fr' }).get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
      expect(reset.status).toBe(503);
      expect(reset.body).toEqual(UNAVAILABLE_FR);
      expect(reset.headers.get('retry-after')).not.toBeNull();

      const sent = await upload(t, agent.client);
      expect(sent.status).toBe(503);
      expect(sent.body).toEqual(UNAVAILABLE_FR);
      expect(sent.headers.get('retry-after')).not.toBeNull();

      const ready = await health(t, '/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', redis: 'down', storage: 'ok' } } });
      expect(ready.headers.get('retry-after')).not.toBeNull();
      expect((await health(t, '/health')).status).toBe(503);
      expect(await health(t, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });

      // Back up: the same node serves again without a restart.
      restarted = await restartRedis(redis.port);
      await expect.poll(async () => (await health(t, '/health/ready')).status, { timeout: 20_000, interval: 200 }).toBe(200);
      expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
    });
  });

  describe('PostgreSQL down', () => {
    let t: TestPortal;
    beforeAll(async () => {
      t = await startTestPortal('postgres');
    });
    afterAll(async () => t.close());

    it('PostgreSQL down: login, forgot password and uploads answer 503 with Retry-After; readiness 503, liveness ok', async () => {
      const agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
      const user = await t.createUser('user_annuites');
      // This test's own database goes away (never the shared server): connections end, new ones are refused.
      const url = new URL((t.config.database as { url: string }).url);
      const admin = new pg.Client({ connectionString: testDatabaseBaseUrl()! });
      await admin.connect();
      try {
        await admin.query(`drop database "${url.pathname.slice(1)}" with (force)`);
      } finally {
        await admin.end();
      }

      const login = await t.client({ lang: 'fr' }).post('/api/auth/login', { email: user.email, password: user.password });
      expect(login.status).toBe(503);
      expect(login.body).toEqual(UNAVAILABLE_FR);
      expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);

      const reset = await t.client({ lang: 'fr' }).get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
      expect(reset.status).toBe(503);
      expect(reset.body).toEqual(UNAVAILABLE_FR);

      const sent = await upload(t, agent.client);
      expect(sent.status).toBe(503);
      expect(sent.body).toEqual(UNAVAILABLE_FR);

      expect(await health(t, '/health/ready')).toMatchObject({ status: 503, body: { checks: { database: 'down', storage: 'ok' } } });
      expect((await health(t, '/health/live')).status).toBe(200);
    });
  });
});

// Issue 26: the probe only read (`stat`), so a store refusing writes left the node "ready" while
// every upload answered 503. Readiness now writes and deletes a small object (bounded, cached a few seconds).
describe('readiness: storage that reads but refuses writes (S3)', () => {
  let s3: TestS3;
  let t: TestPortal;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestPortal('pglite', { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'portal-readiness', S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.destroy();
  });

  it('/readyz 503 (storage down) while the store is read-only, 200 again once it takes writes; the probe leaves no object', async () => {
    expect(await health(t, '/readyz')).toMatchObject({ status: 200, body: { checks: { storage: 'ok' } } });
    s3.setReadOnly(true);
    // The answer before the fault may be reused for PROBE_CACHE_MS.
    const down = await until(async () => health(t, '/readyz'), (r) => r.status === 503, PROBE_CACHE_MS + 5000);
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', storage: 'down' } } });
    expect(down.headers.get('retry-after')).not.toBeNull();
    s3.setReadOnly(false);
    const up = await until(async () => health(t, '/readyz'), (r) => r.status === 200, PROBE_CACHE_MS + 5000);
    expect((up.body as { checks: Record<string, string> }).checks.storage).toBe('ok');
    expect((await s3.keys('portal-readiness')).filter((key) => key.startsWith('health/'))).toEqual([]);
  });
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
