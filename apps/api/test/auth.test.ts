import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { mails, passwordTokens, sessions } from '@portal/db';
import { databaseKinds, startTestPortal, type TestPortal } from './support/portal.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

function linkFrom(raw: string): { id: string; token: string; url: string } {
  // Quoted-printable soft breaks (=\r\n) and =3D must be undone before reading the link.
  const decoded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = decoded.match(/(https?:\/\/[^\s"<>]+\/password_reset\?id=([0-9a-f-]+)&(?:amp;)?token=([A-Za-z0-9_-]+))/);
  if (!match) throw new Error('no link in mail');
  return { url: match[1]!, id: match[2]!, token: match[3]! };
}

describe.each(databaseKinds())('auth over HTTP (%s)', (kind) => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal(kind);
  });
  afterAll(async () => t.close());

  it('logs in with the seeded admin and reports the session through verify_token_', async () => {
    const client = t.client();
    const anonymous = await client.get('/api/auth/verify_token_');
    expect(anonymous.body).toMatchObject({ success: true, isAuthenticated: false, roles: [] });
    const res = await client.post('/api/auth/login', { email: 'admin@portal.test', password: 'admin-password-for-tests' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, roles: ['admin'] });
    const me = await client.get('/api/auth/verify_token_');
    expect(me.body).toMatchObject({ isAuthenticated: true, is_admin: true, roles: ['admin'], user: { email: 'admin@portal.test' } });
  });

  it('answers a wrong password with the catalogue message, in both languages', async () => {
    const en = await t.client().post('/api/auth/login', { email: 'admin@portal.test', password: 'wrong-password' });
    expect(en.status).toBe(401);
    expect(en.body).toEqual({ success: false, code: 'login_failed', message: 'Incorrect email or password.' });
    const fr = await t.client({ lang: 'fr-FR,fr;q=0.9' }).post('/api/auth/login', { email: 'admin@portal.test', password: 'wrong-password' });
    expect(fr.body).toEqual({ success: false, code: 'login_failed', message: 'E-mail ou mot de passe incorrect.' });
  });

  it('a language chosen before login wins over the account language and becomes the account language', async () => {
    const user = await t.createUser('user_annuites', { langue: 'en' });
    const client = t.client();
    const res = await client.post('/api/auth/login', { email: user.email, password: user.password, langue: 'fr' });
    expect(res.status).toBe(200);
    expect(res.body.user.langue).toBe('fr');
    expect((await client.get('/api/auth/verify_token_')).body.user.langue).toBe('fr');
    // A later login without a choice keeps the saved language; a wrong password changes nothing.
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password })).body.user.langue).toBe('fr');
    expect((await t.client().post('/api/auth/login', { email: user.email, password: 'not-the-password', langue: 'en' })).status).toBe(401);
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password })).body.user.langue).toBe('fr');
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password, langue: 'de' })).status).toBe(400);
  });

  it("an account's language counts as chosen only once its user picked it at login (decision 154)", async () => {
    // The admin's pick at creation (for the mails) is not the user's choice: the interface follows the browser.
    const user = await t.createUser('user_annuites', { langue: 'fr' });
    const first = await t.client().post('/api/auth/login', { email: user.email, password: user.password });
    expect(first.body.user).toMatchObject({ langue: 'fr', langue_chosen: false });
    // Picking the very same language is a choice too.
    const picked = await t.client().post('/api/auth/login', { email: user.email, password: user.password, langue: 'fr' });
    expect(picked.body.user).toMatchObject({ langue: 'fr', langue_chosen: true });
    expect((await t.client().post('/api/auth/login', { email: user.email, password: user.password })).body.user).toMatchObject({ langue: 'fr', langue_chosen: true });
  });

  it('AUTH-18 same status and body for an unknown e-mail and a wrong password', async () => {
    const user = await t.createUser('user_annuites');
    const known = await t.client().post('/api/auth/login', { email: user.email, password: 'not-the-password' });
    const unknown = await t.client().post('/api/auth/login', { email: 'nobody-here@portal.test', password: 'not-the-password' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
  });

  it('HARD-11 five failures lock the e-mail for five minutes, even with the right password; the lock then lifts', async () => {
    const user = await t.createUser('user_agent_ledes');
    const client = t.client();
    for (let i = 0; i < 5; i++) expect((await client.post('/api/auth/login', { email: user.email, password: 'bad-password' })).status).toBe(401);
    const locked = await client.post('/api/auth/login', { email: user.email, password: user.password });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ success: false, code: 'too_many_attempts', message: 'Too many attempts, please try again in 5 minutes' });
    // Retry-After says when the lock lifts, to the second.
    expect(locked.headers.get('retry-after')).toBe('300');
    t.clock.advance(4 * 60_000 + 59_000);
    const stillLocked = await client.post('/api/auth/login', { email: user.email, password: user.password });
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.headers.get('retry-after')).toBe('1');
    t.clock.advance(2_000);
    expect((await client.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('AUTH-07 at most 60 password evaluations per hour for one account', async () => {
    const user = await t.createUser('user_annuites');
    const client = t.client({ lang: 'en' });
    let evaluated = 0;
    // 200 attempts spread over one hour of fake time; only the 401s were evaluated.
    for (let i = 0; i < 200; i++) {
      const res = await client.post('/api/auth/login', { email: user.email, password: `guess-${i}` }, { 'x-forwarded-for': `10.0.${i}.1` });
      if (res.status === 401) evaluated += 1;
      t.clock.advance(18_000);
    }
    expect(evaluated).toBeLessThanOrEqual(100);
    expect(evaluated).toBeLessThanOrEqual(60);
    // Let the per-IP window close so the next tests from this loopback address start clean.
    t.clock.advance(16 * 60_000);
  });

  it('SESS-02 a new session id at login, and the pre-login id is dead', async () => {
    const user = await t.createUser('user_annuites');
    const client = t.client();
    await client.post('/api/auth/login', { email: user.email, password: user.password });
    const first = client.cookieHeader();
    await client.post('/api/auth/login', { email: user.email, password: user.password });
    const second = client.cookieHeader();
    expect(second).not.toBe(first);
    const replay = t.client();
    const res = await replay.get('/api/auth/verify_token_', { cookie: first });
    expect(res.body.isAuthenticated).toBe(false);
  });

  it('SESS-04 a copied cookie stops working after logout', async () => {
    const { client } = await t.loginAs('user_annuites');
    const copied = client.cookieHeader();
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    const replay = await t.client().get('/api/auth/verify_token_', { cookie: copied });
    expect(replay.body.isAuthenticated).toBe(false);
    const protectedCall = await t.client().get('/api/cabinet', { cookie: copied });
    expect(protectedCall.status).toBe(401);
  });

  it('SESS-10 SESS-11 the session cookie is HttpOnly, SameSite=Lax, path /, 30 days', async () => {
    const user = await t.createUser('user_annuites');
    const res = await t.client().post('/api/auth/login', { email: user.email, password: user.password });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('portal_sid='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!).getTime();
    expect(Math.round((expires - t.clock.now().getTime()) / 86_400_000)).toBe(30);
    const [row] = await t.portal.ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(cookie.split(';')[0]!.split('=')[1]!)));
    expect(row).toBeDefined();
  });

  it('AUTH-16 AUTH-17 HARD-01 HARD-02 HARD-06 reset link: 32 random bytes, only the SHA-256 stored, built from the public URL', async () => {
    const user = await t.createUser('user_annuites', { langue: 'fr' });
    const before = t.outbox().length;
    const res = await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(res.status).toBe(200);
    await t.drainQueue();
    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    const link = linkFrom(mails[0]!.raw);
    expect(link.url.startsWith(`${t.config.http.publicUrl}/password_reset?`)).toBe(true);
    expect(mails[0]!.raw).not.toContain('evil.example');
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32);
    const rows = await t.portal.ctx.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(rows.map((r) => r.tokenHash)).toContain(sha256(link.token));
    expect(rows.some((r) => r.tokenHash.includes(link.token))).toBe(false);
    // The mail is in the user's language.
    expect(mails[0]!.raw).toMatch(/Subject: .*(mot de passe|=\?UTF-8\?)/i);
  });

  it('AUTH-14 HARD-05 the reset link is valid at 9:59 and refused at 10:01', async () => {
    const user = await t.createUser('user_annuites');
    const before = t.outbox().length;
    await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
    await t.drainQueue();
    const link = linkFrom(t.outbox()[before]!.raw);
    t.clock.advance(9 * 60_000 + 59_000);
    expect((await t.client().get(`/api/verify_token/?id=${link.id}&token=${link.token}`)).body).toMatchObject({ success: true, invalid: false, purpose: 'reset' });
    t.clock.advance(2_000);
    expect((await t.client().get(`/api/verify_token/?id=${link.id}&token=${link.token}`)).body).toMatchObject({ invalid: true, purpose: null });
    const reset = await t.client().put(`/api/auth/reset_password/${link.token}/${link.id}`, { password: 'a-brand-new-password' });
    expect(reset.status).toBe(410);
    expect(reset.body.code).toBe('link_expired');
  });

  it('AUTH-15 HARD-03 HARD-09 single use, bound to its user, newest only, and it ends the other sessions', async () => {
    const user = await t.createUser('user_annuites');
    const other = await t.createUser('user_annuites');
    const { client: session } = { client: t.client() };
    await session.post('/api/auth/login', { email: user.email, password: user.password });
    const before = t.outbox().length;
    await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
    await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
    await t.drainQueue();
    // The outbox lists mails in the order they were sent, which concurrent sends may swap: the
    // order of the requests is the order of the mail rows.
    const delivered = t.outbox().slice(before).map((m) => linkFrom(m.raw));
    const requested = await t.portal.ctx.db
      .select({ params: mails.params })
      .from(mails)
      .where(eq(mails.recipient, user.email))
      .orderBy(asc(mails.createdAt));
    const [older, newer] = requested.map(({ params }) => delivered.find((link) => (params as { link: string }).link.includes(`token=${link.token}`)));
    expect(delivered).toHaveLength(2);
    expect((await t.client().put(`/api/auth/reset_password/${older!.token}/${older!.id}`, { password: 'new-password-one' })).status).toBe(410);
    expect((await t.client().put(`/api/auth/reset_password/${newer!.token}/${other.id}`, { password: 'new-password-one' })).status).toBe(410);
    const ok = await t.client().put(`/api/auth/reset_password/${newer!.token}/${newer!.id}`, { password: 'new-password-one' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, message: 'Password reset successfully.' });
    expect((await t.client().put(`/api/auth/reset_password/${newer!.token}/${newer!.id}`, { password: 'new-password-two' })).status).toBe(410);
    expect((await session.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(false);
    expect((await t.client().post('/api/auth/login', { email: user.email, password: 'new-password-one' })).status).toBe(200);
  });

  it('AUTH-18 HARD-04 reset requests answer the same for unknown e-mails and send nothing', async () => {
    const user = await t.createUser('user_annuites');
    const before = t.outbox().length;
    const known = await t.client().get(`/api/auth/request_reset_password/${encodeURIComponent(user.email)}`);
    const unknown = await t.client().get('/api/auth/request_reset_password/nobody-at-all%40portal.test');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await t.drainQueue();
    expect(t.outbox().length - before).toBe(1);
  });

  it('refuses a malformed e-mail and an empty one on the reset request', async () => {
    expect((await t.client().get('/api/auth/request_reset_password/not-an-email')).body.code).toBe('wrong_email');
    expect((await t.client().get('/api/auth/request_reset_password/%20')).body.code).toBe('email_empty');
  });

  it('first_connection sends a 72-hour set-your-password link in the user language', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.createUser('user_agent_ledes', { langue: 'fr' });
    const before = t.outbox().length;
    const res = await admin.client.get(`/api/auth/first_connection/${encodeURIComponent(user.email)}`);
    expect(res.status).toBe(200);
    await t.drainQueue();
    const link = linkFrom(t.outbox()[before]!.raw);
    t.clock.advance(71 * 3_600_000);
    // The screen reads it as an activation ("Choose your password"), not a reset.
    expect((await t.client().get(`/api/verify_token/?id=${link.id}&token=${link.token}`)).body).toMatchObject({ invalid: false, purpose: 'first_connection' });
    t.clock.advance(2 * 3_600_000);
    expect((await t.client().get(`/api/verify_token/?id=${link.id}&token=${link.token}`)).body.invalid).toBe(true);
  });

  it('contact queues a mail to the support address with the message', async () => {
    const before = t.outbox().length;
    const res = await t.client().post('/api/contact', { mail: 'client@example.com', issue: 'ledes', topic: 'ledes_display', details: 'The result page shows nothing.' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Email sent.' });
    await t.drainQueue();
    const mail = t.outbox()[before]!.raw;
    expect(mail).toContain(`To: ${t.config.mail.supportAddress}`);
    expect(mail).toContain('Reply-To: client@example.com');
    // The labels the sender chose, not the form's codes.
    expect(mail).toMatch(/Subject: LEDES\r?\nTopic: LEDES display/);
    expect(mail).not.toContain('ledes_display');
  });

  it('contact validates the issue and topic map with the catalogue codes', async () => {
    const c = t.client();
    expect((await c.post('/api/contact', { mail: 'a@b.co', issue: '', topic: 'x', details: 'x' })).body.code).toBe('issue_empty');
    expect((await c.post('/api/contact', { mail: 'a@b.co', issue: 'ledes', topic: 'patent_missing', details: 'x' })).body.code).toBe('topic_empty');
    expect((await c.post('/api/contact', { mail: 'a@b.co', issue: 'ledes', topic: 'ledes_display', details: ' ' })).body.code).toBe('message_empty');
    expect((await c.post('/api/contact', { mail: '', issue: 'ledes', topic: 'ledes_display', details: 'x' })).body.code).toBe('email_empty');
  });
});
