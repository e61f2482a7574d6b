import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { mfaChallenges, mfaRecoveryCodes, roles, securityEvents, sessions, userMfa, userRoles } from '@portal/db';
import { loadConfig } from '@portal/config';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decryptSecret, encryptSecret, matchTotp, resolveMfaKeys, totpStep } from '../src/security/mfa.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/** RFC 6238 appendix B, SHA-1 rows: the seed is the ASCII "12345678901234567890"; our codes are the last six digits. */
const RFC_SEED = Secret.fromLatin1('12345678901234567890').base32;
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('accepts the appendix B codes at their times, and gives their time step', () => {
    for (const [seconds, eight] of RFC_VECTORS) {
      const at = new Date(seconds * 1000);
      expect(matchTotp(RFC_SEED, eight.slice(-6), at), String(seconds)).toBe(Math.floor(seconds / 30));
      // The library draws the same 8-digit code with the RFC's parameters.
      expect(new TOTP({ secret: Secret.fromBase32(RFC_SEED), digits: 8, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() })).toBe(eight);
    }
  });

  it('takes one step either side, not two, and nothing but six digits', () => {
    const [seconds, eight] = RFC_VECTORS[3]!;
    const code = eight.slice(-6);
    const at = (offset: number) => new Date((seconds + offset) * 1000);
    expect(matchTotp(RFC_SEED, code, at(30))).toBe(totpStep(at(0)));
    expect(matchTotp(RFC_SEED, code, at(-30))).toBe(totpStep(at(0)));
    expect(matchTotp(RFC_SEED, code, at(90))).toBeNull();
    expect(matchTotp(RFC_SEED, code, at(-90))).toBeNull();
    expect(matchTotp(RFC_SEED, `${code} `, at(0))).toBeNull();
    expect(matchTotp(RFC_SEED, eight, at(0))).toBeNull();
  });

  it('encrypts the secret with AES-256-GCM bound to its user; the embedded key is generated once and kept', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mfa-key-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const keys = resolveMfaKeys(config);
      const stored = encryptSecret(keys, 'user-a', RFC_SEED);
      expect(stored).not.toContain(RFC_SEED);
      expect(decryptSecret(keys, 'user-a', stored)).toBe(RFC_SEED);
      expect(() => decryptSecret(keys, 'user-b', stored)).toThrow();
      // The same key at the next start: the file is read back, not drawn again.
      expect(readFileSync(config.mfa.keyFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      expect(decryptSecret(resolveMfaKeys(loadConfig({ DATA_DIR: dataDir })), 'user-a', stored)).toBe(RFC_SEED);
      // Another key cannot read it.
      expect(() => decryptSecret(resolveMfaKeys(loadConfig({ DATA_DIR: dataDir, MFA_ENCRYPTION_KEY: 'ab'.repeat(32) })), 'user-a', stored)).toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('production without MFA_ENCRYPTION_KEY is a configuration error naming it', () => {
    const config = loadConfig({ NODE_ENV: 'production', API_KEY: 'a-production-api-key', PUBLIC_URL: 'https://portal.example.com' });
    expect(() => resolveMfaKeys(config)).toThrow(/MFA_ENCRYPTION_KEY/);
    expect(() => loadConfig({ MFA_ENCRYPTION_KEY: 'not-hex' })).toThrow(/MFA_ENCRYPTION_KEY/);
  });
});

const code = (secret: string, t: TestPortal) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
const nextStep = (t: TestPortal) => t.clock.advance(30_000);

describe.each(databaseKinds())('second factor (%s)', (kind) => {
  let t: TestPortal;
  beforeAll(async () => {
    // Required, as in production and embedded mode; one proxy hop trusted so each test speaks from its own address.
    t = await startTestPortal(kind, { MFA_REQUIRED_FOR_ADMINS: 'true', TRUST_PROXY: '1' });
  });
  afterAll(async () => t.close());

  let ipCounter = 0;
  /** A client from an address of its own: the lockout of one test never reaches another. */
  function client(lang?: string): TestClient {
    ipCounter += 1;
    const c = t.client({ lang });
    const ip = `203.0.113.${ipCounter}`;
    const request = c.request.bind(c);
    c.request = (method, p, body, headers = {}) => request(method, p, body, { 'x-forwarded-for': ip, ...headers });
    return c;
  }

  /** Signs an admin in for the first time through the forced enrolment; returns its secret and recovery codes. */
  async function enrolledAdmin() {
    const user = await t.createUser('admin');
    const c = client();
    const login = await c.post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true, mfa: 'enrol' });
    const challenge = await c.get('/api/auth/mfa/challenge');
    const secret = challenge.body.enrolment.secret as string;
    const enrol = await c.post('/api/auth/mfa/enrol', { code: code(secret, t) });
    expect(enrol.status).toBe(200);
    expect((await c.post('/api/auth/mfa/enrol/complete')).status).toBe(200);
    return { ...user, secret, recoveryCodes: enrol.body.recovery_codes as string[], client: c };
  }

  it('an admin without a second factor gets no session after the password, but an enrolment: QR code, secret, code, ten recovery codes, then the session', async () => {
    const user = await t.createUser('admin');
    const c = client();
    const login = await c.post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.body).toEqual({ success: true, message: expect.any(String), mfa: 'enrol' });
    expect([...c.cookies.keys()]).toEqual(['portal_mfa']);
    expect((await c.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(false);
    // The challenge cookie opens nothing but the sign-in steps.
    expect((await c.get('/api/user')).status).toBe(401);
    expect((await c.get('/api/account/mfa')).status).toBe(401);

    const challenge = await c.get('/api/auth/mfa/challenge');
    expect(challenge.status).toBe(200);
    expect(challenge.body.purpose).toBe('enrol');
    const { secret, qr, otpauth_uri } = challenge.body.enrolment;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.*algorithm=SHA1.*digits=6.*period=30/);
    // A reload shows the same secret; the row holds it encrypted.
    expect((await c.get('/api/auth/mfa/challenge')).body.enrolment.secret).toBe(secret);
    const [row] = await t.portal.ctx.db.select().from(userMfa).where(eq(userMfa.userId, user.id));
    expect(row!.confirmedAt).toBeNull();
    expect(row!.secretEncrypted).not.toContain(secret);

    // Completing before confirming is refused.
    expect((await c.post('/api/auth/mfa/enrol/complete')).body.code).toBe('mfa_not_enabled');
    const wrong = await c.post('/api/auth/mfa/enrol', { code: '000000' === code(secret, t) ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    // At enrolment no recovery code exists yet: the message does not offer one.
    expect(wrong.body).toMatchObject({ success: false, code: 'mfa_enrol_code_invalid' });
    expect(wrong.body.message).not.toMatch(/recovery/i);

    const enrol = await c.post('/api/auth/mfa/enrol', { code: code(secret, t) });
    expect(enrol.status).toBe(200);
    const codes = enrol.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const rc of codes) expect(rc).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Still no session until the codes are acknowledged; the challenge no longer shows the secret.
    expect((await c.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(false);
    expect((await c.get('/api/auth/mfa/challenge')).body).toEqual({ success: true, purpose: 'enrol', enrolment: null });

    const done = await c.post('/api/auth/mfa/enrol/complete');
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(user.email);
    expect(c.cookies.has('portal_mfa')).toBe(false);
    expect((await c.get('/api/auth/verify_token_')).body).toMatchObject({ isAuthenticated: true, is_admin: true });
    // Stored hashed: no code in the table.
    const stored = await t.portal.ctx.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const r of stored) expect(codes.map((x) => x.replace('-', ''))).not.toContain(r.codeHash);
    const events = await t.portal.ctx.db.select().from(securityEvents).where(eq(securityEvents.targetId, user.id));
    expect(events.map((e) => [e.kind, e.actorId])).toEqual([['mfa_enrolled', user.id]]);
    // The challenge is spent.
    expect((await c.post('/api/auth/mfa/enrol/complete')).body.code).toBe('mfa_challenge_expired');
  });

  it('with a second factor, the password leads to the code; a right code opens the session; the same code is never taken twice', async () => {
    const admin = await enrolledAdmin();
    nextStep(t);
    const c = client();
    expect((await c.post('/api/auth/login', { email: admin.email, password: admin.password })).body.mfa).toBe('verify');
    expect((await c.get('/api/auth/mfa/challenge')).body).toEqual({ success: true, purpose: 'verify', enrolment: null });
    const now = code(admin.secret, t);
    const ok = await c.post('/api/auth/mfa/verify', { code: now.slice(0, 3) + ' ' + now.slice(3) });
    expect(ok.status).toBe(200);
    expect(ok.body.roles).toContain('admin');
    expect((await c.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(true);

    // Replayed in the same step, from another browser: refused as already used (wait for the next code),
    // not as a wrong code with advice about the phone's clock (decision 155).
    const other = client();
    await other.post('/api/auth/login', { email: admin.email, password: admin.password });
    const replay = await other.post('/api/auth/mfa/verify', { code: now });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('mfa_code_reused');
    expect(replay.body.message).toMatch(/already been used.*next code/);

    // The next step's code works.
    nextStep(t);
    const next = code(admin.secret, t);
    expect((await other.post('/api/auth/mfa/verify', { code: next })).status).toBe(200);
    // In French too.
    const autre = client('fr');
    await autre.post('/api/auth/login', { email: admin.email, password: admin.password });
    const rejeu = await autre.post('/api/auth/mfa/verify', { code: next });
    expect(rejeu.body).toMatchObject({ code: 'mfa_code_reused', message: expect.stringMatching(/déjà été utilisé.*code suivant/) });
  });

  it('a wrong, missing or expired challenge is a translated 401, never a 500', async () => {
    const admin = await enrolledAdmin();
    const none = client('fr');
    const missing = await none.post('/api/auth/mfa/verify', { code: '123456' });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, code: 'mfa_challenge_expired', message: expect.stringMatching(/expiré/) });
    expect((await none.get('/api/auth/mfa/challenge')).status).toBe(401);
    const forged = await none.post('/api/auth/mfa/verify', { code: '123456' }, { cookie: `portal_mfa=${'A'.repeat(43)}` });
    expect(forged.body.code).toBe('mfa_challenge_expired');
    const garbage = await none.post('/api/auth/mfa/verify', { code: '123456' }, { cookie: 'portal_mfa=%E0%A4%A' });
    expect(garbage.status).toBe(401);
    // A verify challenge does not enrol, and an empty code is a 400.
    const c = client('en');
    nextStep(t);
    await c.post('/api/auth/login', { email: admin.email, password: admin.password });
    expect((await c.post('/api/auth/mfa/enrol', { code: code(admin.secret, t) })).body.code).toBe('mfa_challenge_expired');
    expect((await c.post('/api/auth/mfa/verify', { code: '  ' })).body).toMatchObject({ code: 'mfa_code_empty', fields: { code: 'mfa_code_empty' } });
    // Five minutes later the challenge is gone.
    t.clock.advance(5 * 60_000 + 1000);
    const late = await c.post('/api/auth/mfa/verify', { code: code(admin.secret, t) });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('mfa_challenge_expired');
    expect(late.body.message).toMatch(/expired/);
  });

  it('a recovery code signs in once, is marked used and its use is recorded', async () => {
    const admin = await enrolledAdmin();
    const c = client();
    await c.post('/api/auth/login', { email: admin.email, password: admin.password });
    const typed = admin.recoveryCodes[3]!.toUpperCase().replace('-', ' ');
    const ok = await c.post('/api/auth/mfa/verify', { code: typed });
    expect(ok.status).toBe(200);
    const used = await t.portal.ctx.db
      .select()
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, admin.id)));
    expect(used.filter((r) => r.usedAt !== null)).toHaveLength(1);
    const events = await t.portal.ctx.db.select().from(securityEvents).where(eq(securityEvents.targetId, admin.id));
    expect(events.map((e) => e.kind).sort()).toEqual(['mfa_enrolled', 'mfa_recovery_code_used']);
    expect((await c.get('/api/account/mfa')).body).toEqual({ success: true, enabled: true, required: true, recovery_codes_left: 9 });

    const again = client();
    await again.post('/api/auth/login', { email: admin.email, password: admin.password });
    const reused = await again.post('/api/auth/mfa/verify', { code: admin.recoveryCodes[3] });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('mfa_code_invalid');
    // Another user's code is no use either.
    const stranger = await enrolledAdmin();
    expect((await again.post('/api/auth/mfa/verify', { code: stranger.recoveryCodes[0] })).body.code).toBe('mfa_code_invalid');
    expect((await again.post('/api/auth/mfa/verify', { code: admin.recoveryCodes[4] })).status).toBe(200);
  });

  it('wrong codes count in the login lockout with wrong passwords, and a challenge takes five at most', async () => {
    const admin = await enrolledAdmin();
    const c = client();
    nextStep(t);
    await c.post('/api/auth/login', { email: admin.email, password: admin.password });
    const wrong = code(admin.secret, t) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expect((await c.post('/api/auth/mfa/verify', { code: wrong })).body.code).toBe('mfa_code_invalid');
    // The challenge is gone: even the right code needs the password again.
    expect((await c.post('/api/auth/mfa/verify', { code: code(admin.secret, t) })).body.code).toBe('mfa_challenge_expired');
    expect(await t.portal.ctx.db.select().from(mfaChallenges).where(eq(mfaChallenges.userId, admin.id))).toHaveLength(0);
    // ...and the five wrong codes locked this e-mail from this address, right password or not.
    const locked = await c.post('/api/auth/login', { email: admin.email, password: admin.password });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_attempts');

    // Mixed: two wrong passwords and three wrong codes lock as well; a right code meanwhile is refused.
    const d = client();
    await d.post('/api/auth/login', { email: admin.email, password: 'not-the-password' });
    await d.post('/api/auth/login', { email: admin.email, password: 'not-the-password' });
    await d.post('/api/auth/login', { email: admin.email, password: admin.password });
    for (let i = 0; i < 3; i += 1) expect((await d.post('/api/auth/mfa/verify', { code: wrong })).status).toBe(401);
    nextStep(t);
    const refused = await d.post('/api/auth/mfa/verify', { code: code(admin.secret, t) });
    expect(refused.status).toBe(429);
    // The password's success did not clear the count: the lockout still holds for a new login.
    expect((await d.post('/api/auth/login', { email: admin.email, password: admin.password })).status).toBe(429);
  });

  it('an admin resets another user second factor: audited, their sessions end, an admin enrols again, anyone else has none', async () => {
    const [actor, target] = [await enrolledAdmin(), await enrolledAdmin()];
    expect((await target.client.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(true);
    // The users list says whose second factor is on: the screen offers the reset only there.
    const listed = async (id: string) => ((await actor.client.get('/api/user')).body.users as { _id: string; mfa_enabled: boolean }[]).find((u) => u._id === id)?.mfa_enabled;
    expect(await listed(target.id)).toBe(true);
    const reset = await actor.client.post(`/api/admin/user/${target.id}/mfa/reset`);
    expect(reset.status).toBe(200);
    const events = await t.portal.ctx.db.select().from(securityEvents).where(and(eq(securityEvents.targetId, target.id), eq(securityEvents.kind, 'mfa_reset')));
    expect(events.map((e) => e.actorId)).toEqual([actor.id]);
    expect(await t.portal.ctx.db.select().from(userMfa).where(eq(userMfa.userId, target.id))).toHaveLength(0);
    expect(await t.portal.ctx.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, target.id))).toHaveLength(0);
    expect((await target.client.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(false);
    expect(await listed(target.id)).toBe(false);
    // Nothing left to reset.
    expect((await actor.client.post(`/api/admin/user/${target.id}/mfa/reset`)).body.code).toBe('mfa_not_enabled');
    expect((await actor.client.post(`/api/admin/user/00000000-0000-4000-8000-000000000000/mfa/reset`)).status).toBe(404);
    const back = client();
    expect((await back.post('/api/auth/login', { email: target.email, password: target.password })).body.mfa).toBe('enrol');

    // A non-admin with the factor on: after a reset, the password alone.
    const { client: agent, ...agentUser } = await t.loginAs('user_annuites');
    const setup = await agent.post('/api/account/mfa/setup');
    expect((await agent.post('/api/account/mfa/confirm', { code: code(setup.body.enrolment.secret, t) })).status).toBe(200);
    expect((await actor.client.post(`/api/admin/user/${agentUser.id}/mfa/reset`)).status).toBe(200);
    const plain = await client().post('/api/auth/login', { email: agentUser.email, password: agentUser.password });
    expect(plain.body.user.email).toBe(agentUser.email);
    // Only admins reset.
    expect((await agent.post(`/api/admin/user/${actor.id}/mfa/reset`)).status).toBe(401);
    const { client: other } = await t.loginAs('user_agent_ledes');
    expect((await other.post(`/api/admin/user/${actor.id}/mfa/reset`)).status).toBe(403);
  });

  it('AUTH-19: an admin session opened with the password alone does not last (a user made admin mid-session signs in again, with the enrolment)', async () => {
    const { client: c, id, email, password } = await t.loginAs('user_agent_ledes');
    expect((await c.get('/api/auth/verify_token_')).body.isAuthenticated).toBe(true);
    const [admin] = await t.portal.ctx.db.select().from(roles).where(eq(roles.slug, 'admin'));
    await t.portal.ctx.db.insert(userRoles).values({ userId: id, roleId: admin!.id });
    // Roles are read fresh: the password-only session is now an admin's, and it ends.
    expect((await c.get('/api/user')).status).toBe(401);
    expect(await t.portal.ctx.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
    expect((await c.post('/api/auth/login', { email, password })).body.mfa).toBe('enrol');
    const secret = (await c.get('/api/auth/mfa/challenge')).body.enrolment.secret as string;
    await c.post('/api/auth/mfa/enrol', { code: code(secret, t) });
    expect((await c.post('/api/auth/mfa/enrol/complete')).status).toBe(200);
    // The session opened after the enrolment holds.
    t.clock.advance(60_000);
    expect((await c.get('/api/user')).status).toBe(200);
  });

  it('other roles: optional, turned on with a code (then asked at login) and off with a current code; admins cannot turn it off', async () => {
    const { client: c, email, password, id } = await t.loginAs('user_agent_ledes');
    expect((await c.get('/api/account/mfa')).body).toEqual({ success: true, enabled: false, required: false, recovery_codes_left: 0 });
    expect((await c.post('/api/account/mfa/disable', { code: '123456' })).body.code).toBe('mfa_not_enabled');
    expect((await c.post('/api/account/mfa/confirm', { code: '123456' })).body.code).toBe('mfa_not_enabled');
    const setup = await c.post('/api/account/mfa/setup');
    const secret = setup.body.enrolment.secret as string;
    expect((await c.post('/api/account/mfa/confirm', { code: code(secret, t) === '000000' ? '111111' : '000000' })).body.code).toBe('mfa_enrol_code_invalid');
    const on = await c.post('/api/account/mfa/confirm', { code: code(secret, t) });
    expect(on.body.recovery_codes).toHaveLength(10);
    expect((await c.get('/api/account/mfa')).body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await c.post('/api/account/mfa/setup')).body.code).toBe('mfa_already_enabled');

    nextStep(t);
    const d = client();
    expect((await d.post('/api/auth/login', { email, password })).body.mfa).toBe('verify');
    expect((await d.post('/api/auth/mfa/verify', { code: code(secret, t) })).status).toBe(200);

    // Off: the code just used is refused (already taken), a fresh one works.
    expect((await d.post('/api/account/mfa/disable', { code: code(secret, t) })).body.code).toBe('mfa_code_reused');
    nextStep(t);
    const off = await d.post('/api/account/mfa/disable', { code: code(secret, t) });
    expect(off.status).toBe(200);
    const kinds = (await t.portal.ctx.db.select().from(securityEvents).where(eq(securityEvents.targetId, id))).map((e) => e.kind).sort();
    expect(kinds).toEqual(['mfa_disabled', 'mfa_enrolled']);
    expect((await client().post('/api/auth/login', { email, password })).body.user.email).toBe(email);

    const admin = await enrolledAdmin();
    nextStep(t);
    const refused = await admin.client.post('/api/account/mfa/disable', { code: code(admin.secret, t) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('mfa_required');
  });
});
