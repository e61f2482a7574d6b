import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from './support/portal.ts';

const EVIL = 'https://evil.example';

describe('auth hardening (issue 8 §3)', () => {
  let t: TestPortal;
  beforeAll(async () => {
    // One proxy hop trusted, so tests can speak from several client addresses.
    t = await startTestPortal('pglite', { TRUST_PROXY: '1' });
  });
  afterAll(async () => t.close());

  it('CSRF on mail-sending GETs is not bypassed by the path case: /api/AUTH/… sends nothing', async () => {
    const user = await t.createUser('user_annuites');
    const email = encodeURIComponent(user.email);
    await t.drainQueue();
    const before = t.outbox().length;
    for (const path of [`/api/AUTH/request_reset_password/${email}`, `/api/auth/REQUEST_RESET_PASSWORD/${email}`, `/api/Auth/Request_Reset_Password/${email}`]) {
      const fromEvil = await t.client({ origin: EVIL }).get(path);
      expect([403, 404], path).toContain(fromEvil.status);
      const crossSite = await t.client({ origin: null }).get(path, { 'sec-fetch-site': 'cross-site' });
      expect([403, 404], path).toContain(crossSite.status);
      // Routes match case-sensitively: even a same-origin caller does not reach the route this way.
      expect((await t.client().get(path)).status, path).toBe(404);
    }
    await t.drainQueue();
    expect(t.outbox().length).toBe(before);
    // The route as written still refuses cross-site callers and serves the portal's own pages.
    expect((await t.client({ origin: EVIL }).get(`/api/auth/request_reset_password/${email}`)).status).toBe(403);
    expect((await t.client().get(`/api/auth/request_reset_password/${email}`)).status).toBe(200);
    await t.drainQueue();
    expect(t.outbox().length).toBe(before + 1);
  });

  it('forgot password: a known and an unknown e-mail get the same answer after the same work', async () => {
    const user = await t.createUser('user_annuites');
    const ctx = t.portal.ctx;
    // Every database and queue call made before the answer's headers are written is recorded.
    let calls: string[] = [];
    const realDb = ctx.db;
    const realEnqueue = ctx.queue.enqueue;
    ctx.db = new Proxy(realDb, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push(`db.${prop}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    ctx.queue.enqueue = ((...args: Parameters<typeof realEnqueue>) => {
      calls.push('queue.enqueue');
      return realEnqueue.apply(ctx.queue, args);
    });
    const beforeAnswer: string[][] = [];
    const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
        beforeAnswer.push([...calls]);
        return writeHead.apply(this, args);
      } as typeof writeHead;
    };
    t.portal.server.prependListener('request', onRequest);
    try {
      await t.drainQueue();
      const mailsBefore = t.outbox().length;
      calls = [];
      const known = await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
      // The known account's work after its answer (a lookup, the link's transaction) ends before the next request:
      // with the database on its thread (decision 180) it may still run while the next one is answered.
      await t.drainQueue();
      calls = [];
      const unknown = await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(`nobody.${Date.now()}@portal.test`)}`);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      expect(beforeAnswer).toHaveLength(2);
      expect(beforeAnswer[1]).toEqual(beforeAnswer[0]);
      await t.drainQueue();
      // The work after the answer still sends the known account its link, and nothing to the unknown one.
      expect(t.outbox().length).toBe(mailsBefore + 1);
      expect(t.outbox().at(-1)!.raw).toContain(user.email);
    } finally {
      t.portal.server.removeListener('request', onRequest);
      ctx.db = realDb;
      ctx.queue.enqueue = realEnqueue;
    }
  });

  it('SESS-05 an admin session ends after 30 minutes idle; a user session does not', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.loginAs('user_annuites');
    const authenticated = async (client: typeof admin.client) => (await client.get('/api/auth/verify_token_')).body.isAuthenticated as boolean;
    t.clock.advance(29 * 60_000);
    expect(await authenticated(admin.client)).toBe(true);
    t.clock.advance(31 * 60_000);
    expect(await authenticated(admin.client)).toBe(false);
    expect((await admin.client.get('/api/user')).status).toBe(401);
    expect(await authenticated(user.client)).toBe(true);
  });

  it('SESS-05 an admin session ends 12 hours after login, even when active', async () => {
    const admin = await t.loginAs('admin');
    for (let minutes = 0; minutes < 12 * 60; minutes += 20) {
      t.clock.advance(20 * 60_000);
      expect(await (await admin.client.get('/api/auth/verify_token_')).body.isAuthenticated, `${minutes + 20} min`).toBe(true);
    }
    t.clock.advance(60_000);
    expect((await admin.client.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(false);
  });

  it('LOAD-08 lockout is per account and IP: an attacker locks only himself out, not the owner elsewhere', async () => {
    const victim = await t.createUser('user_agent_ledes');
    const attacker = t.client();
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 5; i++) {
      expect((await attacker.post('/api/auth/login', { email: victim.email, password: `guess-${i}` }, from('203.0.113.7'))).status).toBe(401);
    }
    expect((await attacker.post('/api/auth/login', { email: victim.email, password: victim.password }, from('203.0.113.7'))).status).toBe(429);
    expect((await t.client().post('/api/auth/login', { email: victim.email, password: victim.password }, from('198.51.100.9'))).status).toBe(200);
    t.clock.advance(16 * 60_000);
  });

  it('HARD-12 the per-IP ceiling still stops one address spraying many accounts', async () => {
    const sprayer = t.client();
    const ip = { 'x-forwarded-for': '192.0.2.44' };
    for (let i = 0; i < 30; i++) {
      expect((await sprayer.post('/api/auth/login', { email: `sprayed.${i}@portal.test`, password: 'Summer2026!' }, ip)).status).toBe(401);
    }
    const user = await t.createUser('user_annuites');
    expect((await sprayer.post('/api/auth/login', { email: user.email, password: user.password }, ip)).status).toBe(429);
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password }, { 'x-forwarded-for': '192.0.2.45' })).status).toBe(200);
    t.clock.advance(16 * 60_000);
  });

  it('HARD-12 the per-account ceiling stops guessing one account from many addresses', async () => {
    const user = await t.createUser('user_annuites');
    for (let i = 0; i < 50; i++) {
      const res = await t.client().post('/api/auth/login', { email: user.email, password: `guess-${i}` }, { 'x-forwarded-for': `10.9.${i}.1` });
      expect(res.status).toBe(401);
    }
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password }, { 'x-forwarded-for': '10.9.200.1' })).status).toBe(429);
    t.clock.advance(61 * 60_000);
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password }, { 'x-forwarded-for': '10.9.200.1' })).status).toBe(200);
  });
});
