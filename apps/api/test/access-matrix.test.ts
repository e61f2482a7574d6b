import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SLUGS, type RoleSlug } from '@portal/contracts';
import type { Access, RouteKey } from '../src/http/access.ts';
import { z } from 'zod';
import { defineRoute, mountModules } from '../src/http/routes.ts';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

const PLACEHOLDERS: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  email: 'someone%40portal.test',
  token: 'A'.repeat(43),
};

function concretePath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, (_m, name: string) => PLACEHOLDERS[name] ?? 'x');
}

function expectedFor(access: Access, role: RoleSlug | 'anonymous'): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (role === 'anonymous') return 401;
  if (access === 'authenticated') return 'allowed';
  return access.includes(role) ? 'allowed' : 403;
}

describe('AC-01 route × role matrix', () => {
  let t: TestPortal;
  const clients = new Map<RoleSlug | 'anonymous', TestClient>();
  async function loginEveryRole() {
    clients.set('anonymous', t.client());
    for (const role of ROLE_SLUGS) clients.set(role, (await t.loginAs(role)).client);
  }
  beforeAll(async () => {
    t = await startTestPortal('pglite');
    await loginEveryRole();
  });
  afterAll(async () => t.close());

  it('every route, every role and anonymous, answers as the policy table says, never 5xx', async () => {
    const failures: string[] = [];
    // Logout ends the session the other rows need, so it goes last.
    const entries = [...t.portal.policy.entries()].sort(([a], [b]) => Number(a === 'POST /auth/logout') - Number(b === 'POST /auth/logout'));
    expect(entries.length).toBeGreaterThanOrEqual(20);
    for (const [key, access] of entries) {
      const [method, routePath] = key.split(' ') as [string, string];
      for (const [role, client] of clients) {
        const res = await client.request(method, `/api${concretePath(routePath)}`, method === 'GET' ? undefined : {});
        const expected = expectedFor(access, role);
        // The second factor's sign-in steps are public, their credential the challenge cookie: without one
        // they answer their own 401 (mfa_challenge_expired), not the policy's.
        const ownRefusal = access === 'public' && res.status === 401 && (res.body as { code?: string } | undefined)?.code === 'mfa_challenge_expired';
        const ok = expected === 'allowed' ? (res.status !== 401 || ownRefusal) && res.status !== 403 && res.status < 500 : res.status === expected;
        if (!ok) failures.push(`${key} as ${role}: got ${res.status}, expected ${expected}`);
      }
    }
    expect(failures).toEqual([]);
    await loginEveryRole();
  });

  it('patent portfolio routes: agents, admin_test and admins; the client-code search for admin_test and admins; instructions for any session', () => {
    const patentRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => /brevet_eptane|instruction_paiement/.test(key) && key !== 'PUT /brevet_eptane/sync'));
    const agents = ['user_agent_annuites', 'admin_test', 'admin'];
    expect(patentRoutes).toEqual({
      'GET /instruction_paiement': 'authenticated',
      'GET /instruction_paiement/:id': 'authenticated',
      'GET /brevet_eptane': agents,
      'GET /brevet_eptane/admin/:code': ['admin_test', 'admin'],
      'GET /brevet_eptane/:id': agents,
      'PUT /brevet_eptane/update/instruction_paiement/:id': agents,
      'PUT /brevet_eptane/many/update_instruction': agents,
      'GET /brevet_eptane/missing-information': ['admin'],
      'PUT /brevet_eptane/update-missing-info/:idagenda': ['admin'],
      'GET /brevet_eptane/to_validate': ['admin_test', 'admin'],
      'PUT /brevet_eptane/validate-instruction': ['admin_test', 'admin'],
      'GET /brevet_eptane/:id/events': agents,
      'GET /brevet_eptane/:id/schedule': agents,
      // The detail modal's receipts (issue 13).
      'GET /brevet_eptane/:id/recepisse': agents,
      'PUT /brevet_eptane/update/:_id': ['admin'],
      'POST /brevet_eptane/create': agents,
      'GET /brevet_eptane/proposal': agents,
    });
    const reviewRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => /patent_submissions|send_email_for_new_case/.test(key)));
    expect(reviewRoutes).toEqual({
      'GET /patent_submissions': ['admin'],
      'PUT /patent_submissions/:id/accept': ['admin'],
      'PUT /patent_submissions/:id/reject': ['admin'],
      'POST /file/send_email_for_new_case': agents,
    });
  });

  it('patent back-office loop: imports, exports and reminders for admins; the sync for its own key only (public here, no session)', () => {
    const loopRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => /patent_imports|patent_exports|patent_reminders|brevet_eptane\/sync/.test(key)));
    expect(loopRoutes).toEqual({
      'POST /patent_imports': ['admin'],
      'GET /patent_imports': ['admin'],
      'GET /patent_imports/:id': ['admin'],
      'PUT /brevet_eptane/sync': 'public',
      'POST /patent_exports': ['admin'],
      'GET /patent_exports': ['admin'],
      'GET /patent_exports/:id/download': ['admin'],
      'POST /patent_reminders': ['admin'],
    });
  });

  it('operations: the queue dashboard for admins only (bull-board in production behind the same rule, test/production-ops.test.ts)', () => {
    const opsRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => key.startsWith('GET /admin/queues')));
    expect(opsRoutes).toEqual({ 'GET /admin/queues': ['admin'] });
  });

  it('second factor: the sign-in steps public (the challenge cookie is the credential), one own factor for any session, the reset for admins', () => {
    const mfaRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => /\/mfa/.test(key)));
    expect(mfaRoutes).toEqual({
      'GET /auth/mfa/challenge': 'public',
      'POST /auth/mfa/verify': 'public',
      'POST /auth/mfa/enrol': 'public',
      'POST /auth/mfa/enrol/complete': 'public',
      'GET /account/mfa': 'authenticated',
      'POST /account/mfa/setup': 'authenticated',
      'POST /account/mfa/confirm': 'authenticated',
      'POST /account/mfa/disable': 'authenticated',
      'POST /admin/user/:id/mfa/reset': ['admin'],
    });
  });

  it('receipts: the patent users (agents, admin_test, admins) upload, list and download them; object rules in the service', () => {
    const receiptRoutes = Object.fromEntries([...t.portal.policy].filter(([key]) => /recepisse/.test(key)));
    const agents = ['user_agent_annuites', 'admin_test', 'admin'];
    expect(receiptRoutes).toEqual({
      'POST /recepisse': agents,
      'GET /recepisse': agents,
      'GET /recepisse/uploads': agents,
      'GET /recepisse/:id': agents,
      'GET /download/recepisse': agents,
      'GET /brevet_eptane/:id/recepisse': agents,
    });
  });

  it('a route without a policy entry stops the server from starting', () => {
    const module = { policy: {}, routes: () => [defineRoute({ method: 'GET', path: '/new-route', summary: 'new', response: z.object({}), handler: () => ({}) })] };
    expect(() => mountModules(t.portal.ctx, [module])).toThrow(/GET \/new-route has no access policy entry/);
  });

  it('a policy entry without a route stops the server from starting', () => {
    const module = { policy: { 'GET /gone': 'public' } as Record<RouteKey, Access>, routes: () => [] };
    expect(() => mountModules(t.portal.ctx, [module])).toThrow(/Policy entries without a route: GET \/gone/);
  });

  it('AC-02 mass assignment: unknown fields are refused, nothing is created', async () => {
    const admin = clients.get('admin')!;
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const res = await admin.post('/api/admin/user', {
      company_agent: 'Mass Assign',
      email: 'mass.assign@portal.test',
      password: 'long-enough-password',
      roles: [roles.find((r) => r.slug === 'user_annuites')!._id],
      is_admin: true,
      password_hash: 'x',
    });
    expect(res.status).toBe(400);
    const users = (await admin.get('/api/user')).body.users as Array<{ email: string }>;
    expect(users.some((u) => u.email === 'mass.assign@portal.test')).toBe(false);
  });

  it('AC-07 user objects carry only public fields', async () => {
    const admin = clients.get('admin')!;
    const { users } = (await admin.get('/api/user')).body as { users: Array<Record<string, unknown>> };
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) {
      // langue_chosen (decision 154) and mfa_enabled, the factor's status without its secret (decision 155), are public.
      expect(Object.keys(user).sort()).toEqual(['_id', 'cabinets', 'code', 'company_agent', 'created', 'email', 'id_client', 'langue', 'langue_chosen', 'mfa_enabled', 'roles']);
      expect(JSON.stringify(user)).not.toMatch(/secret|recovery|hash/i);
    }
    const self = (await clients.get('user_annuites')!.get('/api/auth/verify_token_')).text;
    expect(self).not.toMatch(/password|hash|token_hash/i);
  });

  it('a user cannot read another user, an admin can', async () => {
    const other = await t.createUser('user_annuites');
    expect((await clients.get('user_agent_ledes')!.get(`/api/user/${other.id}`)).status).toBe(404);
    expect((await clients.get('user_agent_ledes')!.get(`/api/user/${other.id}/roles/slug`)).status).toBe(404);
    expect((await clients.get('admin')!.get(`/api/user/${other.id}/roles/slug`)).body).toEqual({ success: true, roles: ['user_annuites'] });
  });

  it('VAL-01 random bodies, params and queries on every route give 4xx, never 5xx', async () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values = (): unknown => {
      const pick = Math.floor(random() * 10);
      switch (pick) {
        case 0: return null;
        case 1: return Math.floor(random() * 1e9) - 5e8;
        case 2: return 'x'.repeat(Math.floor(random() * 300));
        case 3: return ['a', 1, null, { b: [] }];
        case 4: return { nested: { deeper: 'value' }, __proto__x: 1 };
        case 5: return true;
        case 6: return '../../etc/passwd';
        case 7: return '\u0000\uffff\u202e';
        case 8: return 1e308;
        default: return '';
      }
    };
    const fields = ['email', 'password', 'mail', 'issue', 'topic', 'details', 'company_agent', 'roles', 'id_client', 'cabinets', 'code', 'langue', 'pays_code', 'devise', 'x'];
    const problems: string[] = [];
    for (const [key] of t.portal.policy) {
      const [method, routePath] = key.split(' ') as [string, string];
      for (const client of [clients.get('admin')!, clients.get('anonymous')!]) {
        for (let i = 0; i < 12; i++) {
          const body = Object.fromEntries(fields.filter(() => random() < 0.5).map((f) => [f, values()]));
          const param = encodeURIComponent(String(values()));
          const pathWithJunk = `/api${routePath.replace(/:(\w+)/g, () => param || 'x')}?page=${encodeURIComponent(String(values()))}&id=${param}`;
          const res = await client.request(method, pathWithJunk, method === 'GET' ? undefined : i % 4 === 0 ? JSON.stringify(values()) : body);
          if (res.status >= 500) problems.push(`${method} ${pathWithJunk} → ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
