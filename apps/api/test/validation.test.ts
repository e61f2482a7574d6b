/**
 * Declarative validation defects found by the fault campaign (issue 8 §2): each answered 500 before
 * the route schemas applied the shared clean-text rule, UUID ids and closed enums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

describe('declarative validation', () => {
  let t: TestPortal;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestPortal('pglite');
    admin = (await t.loginAs('admin')).client;
  });
  afterAll(async () => t.close());

  it('contact issue constructor, __proto__, toString or hasOwnProperty answers 400 issue_empty, not 500', async () => {
    for (const issue of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await t.client().post('/api/contact', { mail: 'someone@portal.test', issue, topic: 'ledes_display', details: 'hello' });
      expect(res.status, issue).toBe(400);
      expect(res.body.code, issue).toBe('issue_empty');
      expect(res.body.message, issue).toBe('Please choose a subject.');
    }
  });

  it('NUL bytes and lone surrogates in string fields answer 400 with the translated validation message, not 500', async () => {
    for (const bad of ['a\u0000b', 'x\ud800', '\udc00']) {
      const contact = await t.client({ lang: 'fr' }).post('/api/contact', { mail: 'someone@portal.test', issue: 'ledes', topic: 'ledes_display', details: bad });
      expect(contact.status, JSON.stringify(bad)).toBe(400);
      expect(contact.body).toMatchObject({ success: false, code: 'validation_failed', fields: { details: 'validation_failed' } });
      const name = await admin.post('/api/user/id_client/name', { id_client: bad });
      expect(name.status, JSON.stringify(bad)).toBe(400);
      const login = await t.client().post('/api/auth/login', { email: 'someone@portal.test', password: `pass${bad}word` });
      expect(login.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('a NUL byte or invalid UTF-8 in a path segment or query string answers 400, not 500', async () => {
    expect((await t.client().get('/api/auth/request_reset_password/a%00b%40portal.test')).status).toBe(400);
    expect((await admin.get('/api/searchHistorique?search_query=%00&page=1&limit=10')).status).toBe(400);
    expect((await admin.get('/api/searchHistorique?search_query=%FF&page=1&limit=10')).status).toBe(400);
    expect((await admin.get('/api/user/%ED%A0%80')).status).toBe(400);
  });

  it('non-UUID role and cabinet ids in POST /api/admin/user answer 400, not 500', async () => {
    const base = { company_agent: 'Ids', email: 'ids@portal.test', password: 'a-long-enough-password' };
    const roles = await admin.post('/api/admin/user', { ...base, roles: ['not-a-uuid'] });
    expect(roles.status).toBe(400);
    expect(roles.body.code).toBe('role_required');
    const adminRole = ((await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>).find((r) => r.slug === 'user_agent_annuites')!;
    const cabinets = await admin.post('/api/admin/user', { ...base, roles: [adminRole._id], cabinets: ['1'] });
    expect(cabinets.status).toBe(400);
  });

  it('non-UUID ids in any path answer 400', async () => {
    for (const path of ['/api/user/x', '/api/role/1', '/api/user/x/roles/slug', '/api/ledes/runs/abc', '/api/historique/admin/x?page=1&limit=10']) {
      expect((await admin.get(path)).status, path).toBe(400);
    }
  });
});
