import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from './support/portal.ts';

const EVIL = 'https://evil.example';

describe('HTTP security', () => {
  let t: TestPortal;
  beforeAll(async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    t = await startTestPortal('pglite', { SERVE_WEB: 'true', WEB_DIST_DIR: web });
  });
  afterAll(async () => t.close());

  it('HDR-01 HSTS of at least one year with subdomains, on API and page responses', async () => {
    for (const res of [await t.client().get('/api/auth/check_token'), await fetch(`${t.url}/login`)]) {
      const hsts = res.headers.get('strict-transport-security')!;
      expect(Number(/max-age=(\d+)/.exec(hsts)![1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
    }
  });

  it("HDR-02 CSP: pages forbid objects and base; API answers forbid everything", async () => {
    const page = await fetch(`${t.url}/login`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    const api = await t.client().get('/api/auth/check_token');
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('API answers may not be stored, so they carry no ETag (hashing every answer for a validator no client may use)', async () => {
    const pages = [await t.client().get('/api/auth/check_token'), await t.client().get('/api/no-such-route')];
    for (const res of pages) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
    // The web app's shell is still revalidated, by its date: an unchanged one answers 304.
    const shell = await fetch(`${t.url}/login`);
    const modified = shell.headers.get('last-modified');
    expect(modified).not.toBeNull();
    // (fetch adds `Cache-Control: no-cache` to a conditional request unless one is given; a browser revalidating sends max-age=0.)
    expect((await fetch(`${t.url}/login`, { headers: { 'if-modified-since': modified!, 'cache-control': 'max-age=0' } })).status).toBe(304);
  });

  it('HDR-03 nosniff on every kind of response, errors included', async () => {
    const responses = [
      await t.client().get('/api/auth/check_token'),
      await t.client().get('/api/no-such-route'),
      await t.client({ apiKey: null }).get('/api/auth/check_token'),
      await t.client().post('/api/auth/login', '{not json'),
    ];
    for (const res of responses) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${t.url}/password_reset?id=x&token=y`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HDR-04 the reset page sends no referrer', async () => {
    const res = await fetch(`${t.url}/password_reset?id=1&token=secret`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("HDR-05 no framing: frame-ancestors 'none'", async () => {
    const res = await fetch(`${t.url}/`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('HDR-06 CORS echoes only allow-listed origins, never null or *', async () => {
    const allowed = await t.client().get('/api/auth/check_token');
    expect(allowed.headers.get('access-control-allow-origin')).toBe(t.origin);
    for (const origin of [EVIL, 'null']) {
      const res = await t.client({ origin }).get('/api/auth/check_token');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${t.url}/api/auth/login`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('HDR-07 no version banner, and a failure shows no stack trace', async () => {
    const res = await t.client().get('/api/auth/check_token');
    expect(res.headers.get('x-powered-by')).toBeNull();
    const broken = await t.client().post('/api/auth/login', '{"email":');
    expect(broken.status).toBe(400);
    expect(broken.text).not.toMatch(/at .*\.ts:\d+|SyntaxError|node_modules/);
  });

  it('requires the API key on every call', async () => {
    const res = await t.client({ apiKey: null }).get('/api/auth/check_token');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_api_key' });
    expect((await t.client({ apiKey: 'wrong-key-wrong-key' }).get('/api/auth/check_token')).status).toBe(403);
  });

  it('HARD-20 cross-site writes are refused whatever the body shape, even with the victim cookie', async () => {
    const victim = await t.loginAs('admin');
    const cookie = victim.client.cookieHeader();
    const shapes: Array<[string, string]> = [
      ['application/x-www-form-urlencoded', 'company_agent=x&email=x%40y.z'],
      ['text/plain', '{"company_agent":"x"}'],
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n'],
      ['application/json', '{"company_agent":"x"}'],
    ];
    for (const [type, body] of shapes) {
      const res = await fetch(`${t.url}/api/admin/user`, { method: 'POST', headers: { origin: EVIL, cookie, 'content-type': type, 'x-api-key': t.config.security.apiKey }, body });
      expect(res.status).toBe(403);
      const noKey = await fetch(`${t.url}/api/admin/user`, { method: 'POST', headers: { origin: EVIL, cookie, 'content-type': type }, body });
      expect(noKey.status).toBe(403);
    }
    const noOrigin = await fetch(`${t.url}/api/admin/user`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', 'x-api-key': t.config.security.apiKey }, body: '{}' });
    expect(noOrigin.status).toBe(403);
  });

  it('HARD-21 the spec GET routes that send mail refuse cross-site callers', async () => {
    const before = t.outbox().length;
    const res = await t.client({ origin: null }).get('/api/auth/request_reset_password/admin%40portal.test', { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    const fromEvil = await t.client({ origin: EVIL }).get('/api/auth/request_reset_password/admin%40portal.test');
    expect(fromEvil.status).toBe(403);
    await t.drainQueue();
    expect(t.outbox().length).toBe(before);
  });

  it('HARD-22 login CSRF: a cross-site login is refused', async () => {
    const res = await t.client({ origin: EVIL }).post('/api/auth/login', { email: 'admin@portal.test', password: 'admin-password-for-tests' });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toHaveLength(0);
  });

  it('VAL-11 a JSON route refuses other content types with 415', async () => {
    const res = await t.client().post('/api/contact', 'mail=a', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('VAL-03 prototype pollution payloads are refused and pollute nothing', async () => {
    const admin = await t.loginAs('admin');
    const payloads = [
      '{"__proto__":{"polluted":true},"email":"a@b.co","password":"x"}',
      '{"constructor":{"prototype":{"polluted":true}},"email":"a@b.co","password":"x"}',
      '{"email":"a@b.co","password":"x","__proto__":{"isAdmin":true}}',
    ];
    for (const body of payloads) {
      for (const route of ['/api/auth/login', '/api/admin/user', '/api/contact']) {
        const res = await admin.client.post(route, body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('bodies over the limit get a translated 413', async () => {
    const res = await t.client({ lang: 'fr' }).post('/api/contact', JSON.stringify({ details: 'x'.repeat(200_000) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, code: 'payload_too_large', message: 'Le fichier ou la requête est trop volumineux.' });
  });

  it('AC-09 no metadata files are served', async () => {
    for (const p of ['/.git/HEAD', '/.env', '/api/../.env', '/data/db']) {
      const res = await fetch(`${t.url}${p}`, { headers: { accept: 'application/json' } });
      expect([404, 403]).toContain(res.status);
    }
  });

  it('LOG-01 passwords, tokens, cookies and reset links never reach the logs', async () => {
    const user = await t.createUser('user_annuites', { password: 'very-secret-password-123' });
    const client = t.client();
    await client.post('/api/auth/login', { email: user.email, password: 'very-secret-password-123' });
    const cookie = [...client.cookies.values()][0]!;
    await client.post('/api/auth/login', { email: user.email, password: 'wrong-secret-password-456' });
    const before = t.outbox().length;
    await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
    await t.drainQueue();
    const raw = t.outbox()[before]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /token=([A-Za-z0-9_-]+)/.exec(raw)![1]!;
    await t.client().get(`/api/verify_token/?id=${user.id}&token=${token}`);
    await t.client().put(`/api/auth/reset_password/${token}/${user.id}`, { password: 'another-secret-password-789' });
    const logs = t.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of ['very-secret-password-123', 'wrong-secret-password-456', 'another-secret-password-789', token, cookie, t.config.security.apiKey]) {
      expect(logs).not.toContain(secret);
    }
  });
});
