import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { startSmtpSink } from '@portal/mail/test-support';
import { startProcess, startProductionServices, type RunningProcess } from './support/processes.ts';
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
  let apiKey: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    cleanups.push(() => smtp.stop());
    const services = await startProductionServices(baseUrl!, { SMTP_URL: smtp.url, MAIL_FROM: 'IP Portal <no-reply@portal.example.com>' });
    cleanups.push(() => services.stop());
    ({ url, apiKey } = services);
    const env = services.env;
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
    // The worker logs after the SMTP exchange ends, so its line may trail the delivery a little.
    while (!/mail sent/.test(worker.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(worker.output()).toMatch(/mail sent/);
    expect(api.output()).not.toMatch(/mail sent/);

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
