import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/**
 * Issue 8 §5: the history list's cost does not grow with the caller's runs. Counted at the driver
 * (every statement the database client is asked to run), on a real PGlite or PostgreSQL.
 */
describe.each(databaseKinds())('history list: statements per request (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let other: { client: TestClient; id: string };
  let statements = 0;

  beforeAll(async () => {
    t = await startTestPortal(kind);
    agent = await t.loginAs('user_agent_ledes');
    other = await t.loginAs('user_agent_ledes');
    admin = await t.loginAs('admin');
    // 45 runs of the agent, 5 of them kept out of the history; 3 of the other agent.
    const seed = (ownerId: string, n: number, hideEveryNinth: boolean) => t.portal.ctx.db.execute(sql`
      insert into ledes_runs (owner_id, name, original_name, original_key, size, sha256, office, type, state, lines_checked, accepted, send_history, created_at)
      select ${ownerId}::uuid, 'run-' || g, 'run-' || g || '.txt', 'ledes/original/q/' || ${ownerId} || '/' || g, 1, 'x', 'PAR', 'patent', 'Done', 10, true,
             not (${hideEveryNinth} and g % 9 = 0), now() - make_interval(secs => g)
      from generate_series(1, ${n}::integer) g`);
    await seed(agent.id, 45, true);
    await seed(other.id, 3, false);
    // Every statement of the database client counts, whichever driver runs it.
    const client = (t.portal.ctx.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
    for (const method of ['query', 'exec']) {
      const original = client[method];
      if (typeof original !== 'function') continue;
      client[method] = function counted(this: unknown, ...args: unknown[]) {
        statements++;
        return original.apply(this, args);
      };
    }
  });
  afterAll(async () => t.close());

  async function counted(client: TestClient, url: string) {
    statements = 0;
    const res = await client.get(url);
    return { res, statements };
  }

  it('#8 a page of the list costs two statements (session, page with its total), whatever the number of runs', async () => {
    // The process's first session lookup also prepares its statement, once, on PGlite (decision 179): not a page's cost.
    await agent.client.get('/api/auth/check_token');
    for (let i = 0; i < 2; i++) {
      const { res, statements: n } = await counted(agent.client, '/api/historique?page=1&limit=20');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      expect(res.body.meta).toMatchObject({ total: 40 });
      expect(n).toBeLessThanOrEqual(2);
    }
    const last = await counted(agent.client, '/api/historique?page=2&limit=30');
    expect(last.res.body.data).toHaveLength(10);
    expect(last.statements).toBeLessThanOrEqual(2);
    // A page past the end reads its total alone: one more statement, the same meta.
    const past = await counted(agent.client, '/api/historique?page=5&limit=20');
    expect(past.res.status).toBe(200);
    expect(past.res.body.data).toEqual([]);
    expect(past.res.body.meta).toMatchObject({ total: 40 });
    expect(past.statements).toBeLessThanOrEqual(3);
  });

  it("#8 the admin's views (everyone, one user) cost two statements and count every run, shared or not", async () => {
    const everyone = await counted(admin.client, '/api/historique/admin/all?page=1&limit=20');
    expect(everyone.res.status).toBe(200);
    const all: unknown = await t.portal.ctx.db.execute(sql`select count(*)::integer as total from ledes_runs`);
    const [{ total } = { total: -1 }] = (all as { rows: Array<{ total: number }> }).rows;
    expect(everyone.res.body.meta).toMatchObject({ total });
    expect(everyone.statements).toBeLessThanOrEqual(2);
    const one = await counted(admin.client, `/api/historique/admin/${agent.id}?page=1&limit=20`);
    expect(one.res.body.meta).toMatchObject({ total: 45 });
    expect(one.res.body.data.every((h: { user_info: { _id: string } }) => h.user_info._id === agent.id)).toBe(true);
    expect(one.statements).toBeLessThanOrEqual(2);
  });
});
