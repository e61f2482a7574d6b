import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SLUGS, type RoleSlug } from '@portal/contracts';
import type { Access, RouteKey } from '../src/http/access.ts';
import { z } from 'zod';
import { defineRoute, mountModules } from '../src/http/routes.ts';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { expectedFor, SPEC_ROLE_TABLE, specMatrix } from './support/role-table.ts';

const PLACEHOLDERS: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  email: 'someone%40portal.test',
  token: 'A'.repeat(43),
};

function concretePath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, (_m, name: string) => PLACEHOLDERS[name] ?? 'x');
}

/** An access with its roles in one order, to compare the policy's with the spec's. */
const normalised = (access: Access) => (typeof access === 'string' ? access : [...access].sort());

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

  it('the server mounts exactly the calls of the spec\'s role table (support/role-table.ts), each with the spec\'s access', () => {
    const spec = specMatrix();
    const mounted = [...t.portal.policy.keys()];
    expect(mounted.filter((key) => !spec.has(key)), 'routes missing from the spec\'s role table').toEqual([]);
    expect([...spec.keys()].filter((key) => !t.portal.policy.has(key)), 'calls of the role table no route serves').toEqual([]);
    const differ = mounted.filter((key) => JSON.stringify(normalised(t.portal.policy.get(key)!)) !== JSON.stringify(normalised(spec.get(key)!)));
    expect(differ.map((key) => `${key}: policy ${JSON.stringify(t.portal.policy.get(key))}, spec ${JSON.stringify(spec.get(key))}`)).toEqual([]);
    // Every departure from the spec names its decision.
    expect(SPEC_ROLE_TABLE.filter((row) => row.departs !== undefined && !/decision \d+|decisions [\d, ]+/.test(row.departs))).toEqual([]);
  });

  it('every route, every role and anonymous, answers as the spec\'s role table says, never 5xx', async () => {
    const spec = specMatrix();
    const failures: string[] = [];
    // Logout ends the session the other rows need, so it goes last.
    const keys = [...t.portal.policy.keys()].sort((a, b) => Number(a === 'POST /auth/logout') - Number(b === 'POST /auth/logout'));
    expect(keys.length).toBeGreaterThanOrEqual(20);
    for (const key of keys) {
      const [method, routePath] = key.split(' ') as [string, string];
      const access = spec.get(key);
      if (!access) {
        failures.push(`${key}: not in the spec's role table`);
        continue;
      }
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
    // Logged in again before the verdict, so that a failure here does not fail the tests after it.
    await loginEveryRole();
    expect(failures).toEqual([]);
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
    // The requests are drawn first (the same ones on every run), then sent a few at a time: some 3,000 of them, one
    // after the other, took a minute on a loaded CI machine.
    const requests: Array<{ client: TestClient; method: string; path: string; body: unknown }> = [];
    for (const [key] of t.portal.policy) {
      const [method, routePath] = key.split(' ') as [string, string];
      for (const client of [clients.get('admin')!, clients.get('anonymous')!]) {
        for (let i = 0; i < 12; i++) {
          const body = Object.fromEntries(fields.filter(() => random() < 0.5).map((f) => [f, values()]));
          const param = encodeURIComponent(String(values()));
          const path = `/api${routePath.replace(/:(\w+)/g, () => param || 'x')}?page=${encodeURIComponent(String(values()))}&id=${param}`;
          requests.push({ client, method, path, body: method === 'GET' ? undefined : i % 4 === 0 ? JSON.stringify(values()) : body });
        }
      }
    }
    const problems: string[] = [];
    let next = 0;
    const sender = async () => {
      while (next < requests.length) {
        const { client, method, path, body } = requests[next++]!;
        const res = await client.request(method, path, body);
        if (res.status >= 500) problems.push(`${method} ${path} → ${res.status} ${res.text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, sender));
    expect(requests.length).toBeGreaterThan(2_000);
    expect(problems).toEqual([]);
  }, 120_000);
});
