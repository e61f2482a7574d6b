import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PatentRecordDto } from '@portal/contracts';
import { userCabinets } from '@portal/db';
import { rowsOf } from '@portal/jobs';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient } from './support/portal.ts';

/*
 * Issue 28, decision 174: a page of the agents' list is one statement whose rows come in index order, in two
 * parts (rows with the value, then rows without it), with cursors to the next and previous pages; the totals
 * come from the kept counts, and a filtered total stops at 1,000 ("more than").
 */

const TODAY = '2027-03-01';
type Meta = { currentPage: number; totalPages: number; pageSize: number; total: number; total_more?: boolean; next_cursor?: string | null; previous_cursor?: string | null };

describe.each(databaseKinds())('patent list paging (%s)', (kind) => {
  let world: PatentWorld;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };

  beforeAll(async () => {
    world = await startPatentWorld(kind, TODAY, 'Paging');
    agent = await world.t.loginAs('user_agent_annuites');
    admin = await world.t.loginAs('admin');
    await world.t.portal.ctx.db.insert(userCabinets).values({ userId: agent.id, cabinetId: world.cabinetA });
    // 23 rows: costs with ties and empty ones, references with empty ones, numbers 1–4.
    await world.seed(
      Array.from({ length: 23 }, (_v, i) => ({
        idagenda: `P-${String(i).padStart(2, '0')}`,
        cost: i % 5 === 0 ? null : `${(i % 4) * 100}.00`,
        referenceClient: i % 7 === 0 ? null : `REF${String(i % 9).padStart(3, '0')}`,
        quantieme: i % 6 === 0 ? null : (i % 4) + 1,
        dateEcheance: i % 8 === 0 ? null : `2027-0${(i % 3) + 4}-1${i % 2}`,
      })),
    );
  });
  afterAll(async () => world?.t.close());

  const get = async (client: TestClient, query: string) => {
    const res = await client.get(`/api/brevet_eptane?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { brevet_eptane: PatentRecordDto[]; meta: Meta };
  };

  /** The spec's order in JS: by the value (rows without one last), ties by id, both in the direction asked. */
  function expected(rows: PatentRecordDto[], field: 'cost' | 'ReferenceClient' | 'Quantieme' | 'DateEcheance', order: 'asc' | 'desc') {
    const sign = order === 'asc' ? 1 : -1;
    const valued = rows.filter((r) => r[field] !== null);
    const empty = rows.filter((r) => r[field] === null);
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    valued.sort((a, b) => sign * (cmp(a[field]!, b[field]!) || cmp(a._id, b._id)));
    empty.sort((a, b) => sign * cmp(a._id, b._id));
    return [...valued, ...empty].map((r) => r.idagenda);
  }

  it('every sort, both directions: the pages by cursor, forward then back, are the one-page order (rows without the value last, ties by id)', async () => {
    const all = (await get(agent.client, 'limit=100')).brevet_eptane;
    expect(all).toHaveLength(23);
    for (const sort of ['cost', 'ReferenceClient', 'Quantieme', 'DateEcheance'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const base = `sort=${sort}&order=${order}&limit=5`;
        const whole = (await get(agent.client, `sort=${sort}&order=${order}&limit=100`)).brevet_eptane.map((r) => r.idagenda);
        expect(whole, `${sort} ${order}`).toEqual(expected(all, sort, order));
        // Forward by next_cursor, and the page numbers agree with the offset pages.
        const forward: string[][] = [];
        let page = await get(agent.client, base);
        for (let n = 1; ; n++) {
          forward.push(page.brevet_eptane.map((r) => r.idagenda));
          expect((await get(agent.client, `${base}&page=${n}`)).brevet_eptane.map((r) => r.idagenda)).toEqual(forward.at(-1));
          expect(page.meta).toMatchObject({ currentPage: n, total: 23, totalPages: 5 });
          if (page.brevet_eptane.length < 5) break;
          page = await get(agent.client, `${base}&page=${n + 1}&cursor=${page.meta.next_cursor}`);
          if (page.brevet_eptane.length === 0) break;
        }
        expect(forward.flat(), `${sort} ${order} forward`).toEqual(whole);
        // Back by previous_cursor from the last page.
        const back: string[][] = [forward.at(-1)!];
        for (let n = forward.length - 1; n >= 1; n--) {
          page = await get(agent.client, `${base}&page=${n}&cursor=${page.meta.previous_cursor}`);
          back.unshift(page.brevet_eptane.map((r) => r.idagenda));
        }
        expect(back, `${sort} ${order} back`).toEqual(forward);
        expect((await get(agent.client, `${base}&page=1&cursor=${page.meta.previous_cursor}`)).brevet_eptane).toEqual([]);
      }
    }
  });

  it('refuses a cursor it did not make (400 validation_failed), and the kept totals follow a write at once', async () => {
    for (const bad of ['%%%', Buffer.from('["a",0,1,"x"]').toString('base64url'), Buffer.from('not json').toString('base64url')]) {
      const res = await agent.client.get(`/api/brevet_eptane?cursor=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const before = (await get(agent.client, 'tab=unprocessed')).meta.total;
    await world.seed([{ idagenda: 'P-NEW', dateEcheance: '2027-05-01' }, { idagenda: 'P-NEW-2', dateEcheance: '2027-05-01', instructionId: 2, instructionStatus: 'processed' }]);
    expect((await get(agent.client, 'tab=unprocessed')).meta.total).toBe(before + 1);
    expect((await get(admin.client, 'tab=unvalidated')).meta.total).toBe(rowsOf(await world.t.portal.ctx.db.execute(sql`select 1 from patent_records where has_instruction`)).length);
  });

  it('a filtered list past 1,000 rows says "more than 1,000" (total_more) and still pages on by cursor', async () => {
    await world.t.portal.ctx.db.execute(sql`
      insert into patent_records (idagenda, cabinet_id, client_code, pays, reference_client, date_echeance)
      select 'BULK-' || g, ${world.cabinetB}::uuid, 'CODE-B', 'FR', 'BULKREF' || g, '2027-08-01'::date + (g % 30) from generate_series(1, 1005) g`);
    const filtered = await get(admin.client, 'search=bulkref&limit=100');
    expect(filtered.meta).toMatchObject({ total: 1000, total_more: true, totalPages: 11 });
    const exact = await get(admin.client, 'search=bulkref1&limit=100');
    expect(exact.meta.total_more).toBeUndefined();
    expect(exact.meta.total).toBe(1 + 10 + 100 + 6);
    // Past the counted rows, the pager goes on by cursor: pages 11 and 12 hold the last 5.
    let page = filtered;
    for (let n = 2; n <= 11; n++) page = await get(admin.client, `search=bulkref&limit=100&page=${n}&cursor=${page.meta.next_cursor}`);
    expect(page.brevet_eptane).toHaveLength(5);
    // The unfiltered tab's total is exact (kept counts), however large.
    const unprocessed = rowsOf(await world.t.portal.ctx.db.execute(sql`select 1 from patent_records where not has_instruction`)).length;
    expect(unprocessed).toBeGreaterThan(1000);
    const tab = await get(admin.client, 'limit=100');
    expect(tab.meta).toMatchObject({ total: unprocessed });
    expect(tab.meta.total_more).toBeUndefined();
  });

  it('an agent whose codes overlap its cabinet (its scope read per branch, decision 189): each patent once, in order, the same totals', async () => {
    const db = world.t.portal.ctx.db;
    // Cabinet A's rows all have CODE-A (in both branches' reach); CODE-B is cabinet B's (the 1,005 rows above and one more).
    await db.execute(sql`update users set code = array['CODE-A', 'CODE-B'] where id = ${agent.id}::uuid`);
    await world.t.portal.ctx.db.execute(sql`insert into patent_records (idagenda, cabinet_id, client_code, pays, date_echeance) values ('B-OUT', ${world.cabinetB}::uuid, 'CODE-C', 'FR', '2027-05-01')`);
    const inScope = rowsOf<{ idagenda: string }>(
      await db.execute(sql`select idagenda from patent_records where not has_instruction and (cabinet_id = ${world.cabinetA}::uuid or client_code in ('CODE-A', 'CODE-B'))`),
    ).map((r) => r.idagenda);
    expect(inScope.length).toBeGreaterThan(1000);
    for (const [sort, order] of [['DateEcheance', 'asc'], ['cost', 'desc'], ['ReferenceClient', 'asc']] as const) {
      const seen: string[] = [];
      let page = await get(agent.client, `sort=${sort}&order=${order}&limit=100`);
      expect(page.meta).toMatchObject({ total: inScope.length });
      expect(page.meta.total_more).toBeUndefined();
      for (let n = 2; page.brevet_eptane.length > 0; n++) {
        seen.push(...page.brevet_eptane.map((r) => r.idagenda));
        page = await get(agent.client, `sort=${sort}&order=${order}&limit=100&page=${n}&cursor=${page.meta.next_cursor}`);
      }
      expect(seen.length, `${sort} ${order}`).toBe(inScope.length);
      expect(new Set(seen), `${sort} ${order}`).toEqual(new Set(inScope));
      // An offset page is the same page as the cursor's.
      const third = await get(agent.client, `sort=${sort}&order=${order}&limit=100&page=3`);
      expect(third.brevet_eptane.map((r) => r.idagenda), `${sort} ${order} page 3`).toEqual(seen.slice(200, 300));
    }
    // A filtered count over both branches: exact under the cap, "more than" past it, each patent counted once.
    const codeA = inScope.filter((id) => id.startsWith('P-')).length;
    expect((await get(agent.client, 'office=EP')).meta).toMatchObject({ total: codeA });
    expect((await get(agent.client, 'search=bulkref&limit=100')).meta).toMatchObject({ total: 1000, total_more: true });
    await db.execute(sql`update users set code = '{}' where id = ${agent.id}::uuid`);
  });
});
