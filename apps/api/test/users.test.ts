import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { PASSWORD_MIN_LENGTH } from '@portal/contracts';

describe.each(databaseKinds())('users, roles, cabinets, addresses (%s)', (kind) => {
  let t: TestPortal;
  let admin: TestClient;
  let roleId: (slug: string) => string;
  let cabinetIds: string[];
  beforeAll(async () => {
    t = await startTestPortal(kind);
    admin = (await t.loginAs('admin')).client;
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    roleId = (slug) => roles.find((r) => r.slug === slug)!._id;
    cabinetIds = ((await admin.get('/api/cabinet')).body.cabinet as Array<{ _id: string }>).map((c) => c._id);
  });
  afterAll(async () => t.close());

  it('lists the five roles and the seeded cabinets', async () => {
    const roles = (await admin.get('/api/role')).body.roles.map((r: { slug: string }) => r.slug).sort();
    expect(roles).toEqual(['admin', 'admin_test', 'user_agent_annuites', 'user_agent_ledes', 'user_annuites']);
    expect(cabinetIds.length).toBeGreaterThanOrEqual(3);
  });

  it('creates a LEDES agent with two client ids and an address, and names the recipient', async () => {
    const address = await admin.post('/api/adresse_agent_ledes/create', {
      id_client: `CL-${kind}-1`,
      destinataire_libelle: 'Cabinet Dupont & Associés',
      ligne01_libelle: '12 rue de la Paix',
      ville_libelle: 'Paris',
      pays_code: 'fr',
      code_postal: '75002',
      devise: 'eur',
    });
    expect(address.status).toBe(200);
    expect(address.body).toMatchObject({ success: true, message: 'Address added successfully.', adresse: { pays_code: 'FR', devise: 'EUR' } });
    const created = await admin.post('/api/admin/user', {
      company_agent: 'Dupont IP',
      email: `Agent.Ledes.${kind}@Example.com`,
      password: 'a-strong-password-1',
      roles: [roleId('user_agent_ledes')],
      id_client: [`CL-${kind}-1`, `CL-${kind}-2`],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      message: 'User added successfully.',
      user: { email: `agent.ledes.${kind}@example.com`, langue: 'en', id_client: [`CL-${kind}-1`, `CL-${kind}-2`], roles: [{ slug: 'user_agent_ledes' }] },
    });
    const agent = t.client();
    expect((await agent.post('/api/auth/login', { email: `agent.ledes.${kind}@example.com`, password: 'a-strong-password-1' })).status).toBe(200);
    expect((await agent.post('/api/user/id_client/name', { id_client: `CL-${kind}-1` })).body).toEqual({ success: true, name: 'Cabinet Dupont & Associés' });
    // Another client's id is not theirs to look up.
    expect((await agent.post('/api/user/id_client/name', { id_client: 'SOMEONE-ELSE' })).status).toBe(404);
    const ledesUsers = (await admin.get('/api/user_ledes')).body.users as Array<{ email: string; id_client: string[] }>;
    expect(ledesUsers.find((u) => u.email === `agent.ledes.${kind}@example.com`)?.id_client).toHaveLength(2);
  });

  it('requires a cabinet for an annuities agent, and keeps its codes', async () => {
    const base = { company_agent: 'Annuity Agent', email: `annuity.${kind}@example.com`, password: 'a-strong-password-2', roles: [roleId('user_agent_annuites')], code: ['C01', 'C02'], langue: 'fr' };
    const refused = await admin.post('/api/admin/user', base);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'cabinet_required', message: 'Please select a firm' });
    const ok = await admin.post('/api/admin/user', { ...base, cabinets: [cabinetIds[0]] });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ langue: 'fr', code: ['C01', 'C02'], cabinets: [{ _id: cabinetIds[0] }] });
  });

  it('creates one user of each other role', async () => {
    for (const slug of ['user_annuites', 'admin_test', 'admin']) {
      const res = await admin.post('/api/admin/user', { company_agent: `User ${slug}`, email: `${slug}.${kind}@example.com`, password: 'a-strong-password-3', roles: [roleId(slug)] });
      expect(res.status, slug).toBe(200);
    }
  });

  it('refuses a duplicate e-mail with register_failed, whatever its case', async () => {
    const body = { company_agent: 'Dup', email: `dup.${kind}@example.com`, password: 'a-strong-password-4', roles: [roleId('user_annuites')] };
    expect((await admin.post('/api/user', body)).status).toBe(200);
    const again = await admin.post('/api/user', { ...body, email: body.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 'register_failed', message: 'This email address or user name is already in use.' });
  });

  it('AUTH-01 refuses a password under 12 characters with a translated message', async () => {
    const res = await t.client({ lang: 'fr' }).post('/api/admin/user', {});
    expect(res.status).toBe(401);
    const weak = await admin.post('/api/admin/user', { company_agent: 'Weak', email: `weak.${kind}@example.com`, password: 'short', roles: [roleId('user_annuites')] }, { 'accept-language': 'fr' });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('password_too_short');
    expect(weak.body.fields).toEqual({ password: 'password_too_short' });
    // The minimum in the message is the one the rule applies (a placeholder, not a copy of the number).
    expect(weak.body.message).toBe(`Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`);
  });

  it('lists users with their roles, cabinets and client ids for the admin only', async () => {
    const list = await admin.get('/api/user');
    expect(list.status).toBe(200);
    expect(list.body.users.length).toBeGreaterThanOrEqual(5);
    const agent = await t.loginAs('user_agent_annuites');
    expect((await agent.client.get('/api/user')).status).toBe(403);
  });
});
