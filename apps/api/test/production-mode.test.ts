import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, testDatabaseBaseUrl } from '@portal/db/testing';
import { startSmtpSink } from '@portal/mail/test-support';
import { startRedisServer } from '@portal/queue/test-support';
import { freePort, startProcess, type RunningProcess } from './support/processes.ts';
import { TestClient } from './support/portal.ts';

const baseUrl = testDatabaseBaseUrl();

/**
 * The production topology on one machine: PostgreSQL, a private Redis, an S3 server and an SMTP
 * server on loopback, with the API and the mail worker as two separate processes.
 */
describe.skipIf(!baseUrl)('production mode: separate API and mail worker processes', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let api: RunningProcess;
  let worker: RunningProcess;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let url: string;
  const apiKey = 'production-mode-test-api-key';

  beforeAll(async () => {
    const database = await createScratchDatabase(baseUrl!);
    cleanups.push(() => database.drop());
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const s3Dir = mkdtempSync(path.join(tmpdir(), 'portal-s3-'));
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true });
    const { port: s3Port } = await s3.run();
    cleanups.push(async () => {
      await s3.close();
      rmSync(s3Dir, { recursive: true, force: true });
    });
    smtp = await startSmtpSink();
    cleanups.push(() => smtp.stop());

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://portal.example.com',
      CORS_ORIGINS: url,
      API_KEY: apiKey,
      SERVE_WEB: 'false',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: 'portal-prod-test',
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'IP Portal <no-reply@portal.example.com>',
      ADMIN_EMAIL: 'ops@portal.example.com',
      ADMIN_PASSWORD: 'production-admin-password',
    };
    api = startProcess('apps/api/src/main.ts', env);
    cleanups.push(() => api.stop());
    await api.waitFor(/Portal ready on/);
    worker = startProcess('workers/src/entrypoints/mail.ts', env);
    cleanups.push(() => worker.stop());
    await worker.waitFor(/mail worker started/);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('delivers the forgot-password mail over SMTP from the separate worker, and the link resets the password', async () => {
    const client = new TestClient(url, { origin: url, apiKey });
    const res = await client.get('/api/auth/request_reset_password/ops%40portal.example.com');
    expect(res.status).toBe(200);

    const deadline = Date.now() + 20_000;
    while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.rcptTo).toEqual(['ops@portal.example.com']);
    expect(api.output()).not.toMatch(/mail sent/);
    expect(worker.output()).toMatch(/mail sent/);

    const raw = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /https:\/\/portal\.example\.com\/password_reset\?id=([0-9a-f-]+)&(?:amp;)?token=([A-Za-z0-9_-]+)/.exec(raw);
    expect(link).not.toBeNull();
    const [, id, token] = link!;
    const reset = await client.put(`/api/auth/reset_password/${token}/${id}`, { password: 'a-new-production-password' });
    expect(reset.status).toBe(200);
    const login = await client.post('/api/auth/login', { email: 'ops@portal.example.com', password: 'a-new-production-password' });
    expect(login.status).toBe(200);
    // Production cookies are Secure and host-bound.
    expect(login.headers.getSetCookie().join()).toMatch(/__Host-portal_sid=.*Secure/);
  });
});
