import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PATENT_MISSING_FIELDS, PATENT_SORTS, PATENT_TO_VALIDATE_SORTS, missingInformationQuery, patentListQuery, toValidateQuery } from '@portal/contracts';
import type { DatabaseHandle } from '@portal/db';
import { explainPlan, fullSorts, openTestDatabase, planNodes, testDatabaseKinds, type PlanNode } from '@portal/db/testing';
import { rowsOf, seedDemoPortfolio } from '@portal/jobs';
import { encodeCursor, pageStatement } from '../src/modules/patents/list-page.ts';
import { pageRequest, patentListRequest, type ListRequest, type PatentScope } from '../src/modules/patents/service.ts';
import { missingInformationRequest, toValidateRequest } from '../src/modules/patents/staff.ts';

/*
 * Issue 28: every sort the patent_records screens offer, both directions, is read in index order: the plan of
 * the page's one statement has no Sort node for an admin's lists, and for a scoped list (an agent's cabinets and
 * codes, one client code) sorts at most the scope's own rows, never the tab's (decision 174).
 * On a realistic portfolio (the demo generator, 20,000 patents), analysed as the product's policy does.
 */

const PATENTS = 20_000;
const ORDERS = ['asc', 'desc'] as const;

describe.each(testDatabaseKinds())('patent list plans (%s)', (kind) => {
  let handle: DatabaseHandle;
  let agent: PatentScope;
  let someId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await seedDemoPortfolio(handle.db, { patents: PATENTS, cabinets: 50, today: '2026-11-27', passwordHash: null });
    // The bench's and the product's steady state (PGlite has no autovacuum; the vacuum policy runs it after bulk writes).
    await handle.db.execute(sql`vacuum analyze patent_records`);
    await handle.db.execute(sql`analyze patent_tab_counts`);
    const rows = rowsOf<{ id: string }>(await handle.db.execute(sql`select id::text from cabinets order by name limit 1`));
    // The demo's first agent: its cabinet, and the second client code of the next cabinet.
    agent = { kind: 'owned', cabinetIds: [rows[0]!.id], codes: ['DEMO004'] };
    someId = rowsOf<{ id: string }>(await handle.db.execute(sql`select id::text from patent_records order by id limit 1 offset 500`))[0]!.id;
  }, 600_000);
  afterAll(async () => {
    await handle?.close();
  });

  const describePlan = (plan: PlanNode) => planNodes(plan).map((n) => `${n['Node Type']}${n['Index Name'] ? `(${n['Index Name']})` : ''}${n['Sort Key'] ? `[${n['Sort Key'].join(', ')}]` : ''} ~${String(n['Plan Rows'])}`);
  /**
   * The plan of the page's statement when it sorts more than `bound` rows: an admin's list sorts none (bound 0);
   * a scoped list (an agent's cabinets and codes, one client code) may sort its own few rows, never the tab's.
   */
  async function sortsOf(request: ListRequest, bound = 0): Promise<string[]> {
    const plan = await explainPlan(handle.db, pageStatement(pageRequest(request)));
    return fullSorts(plan).some((n) => Number(n['Plan Rows']) > bound) ? describePlan(plan) : [];
  }
  const kept = async (where: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: unknown }>(await handle.db.execute(sql`select coalesce(sum(patents), 0) as n from patent_tab_counts where ${where}`))[0]!.n);

  it('the agents’ list: every sort, both directions, admin and agent scopes, the admin’s list of one client code, first and next pages', async () => {
    const failures: Record<string, string[]> = {};
    const agentRows = await kept(sql`cabinet_id = ${(agent as { cabinetIds: string[] }).cabinetIds[0]} or client_code = 'DEMO004'`);
    const codeRows = await kept(sql`client_code = 'DEMO001'`);
    // The bound means something: a scope is a small part of a tab.
    expect(agentRows).toBeLessThan(PATENTS / 20);
    for (const sort of PATENT_SORTS) {
      for (const order of ORDERS) {
        for (const tab of ['unprocessed', 'unvalidated'] as const) {
          const query = patentListQuery.parse({ sort, order, tab });
          const cases: Array<[string, ListRequest, number?]> = [
            ['admin', patentListRequest({ kind: 'all' }, query)],
            ['agent', patentListRequest(agent, query), agentRows],
            ['admin by code', patentListRequest({ kind: 'all' }, query, 'DEMO001'), codeRows],
            ['admin, next page (cursor)', patentListRequest({ kind: 'all' }, { ...query, cursor: encodeCursor({ way: 'after', part: 0, value: sort === 'Quantieme' || sort === 'id_instruction' ? 3 : sort === 'DateEcheance' ? '2027-01-01' : sort === 'cost' ? '100.00' : 'M', id: someId }) })],
            ['admin, page of the empty values (cursor)', patentListRequest({ kind: 'all' }, { ...query, cursor: encodeCursor({ way: 'before', part: 1, value: null, id: someId }) })],
          ];
          for (const [scope, request, bound] of cases) {
            const sorts = await sortsOf(request, bound);
            if (sorts.length > 0) failures[`${scope} ${tab} ${sort} ${order}`] = sorts;
          }
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);

  /**
   * Decision 189: an agent's page finds its keys by index-only scans of its scope's indexes (its cabinets', its
   * codes') and reads the table for its own rows only, by id: no bitmap or sequential read of patent_records, no
   * read of a scope index through the table. The planner may still read a tab's index in order where it expects a
   * handful of rows (the rows without a value, the tail past a cursor).
   */
  const SCOPE_INDEXES = ['patent_records_cabinet_tab_due_idx', 'patent_records_code_tab_due_idx'];
  const scopeReads = (plan: PlanNode, firstPage: boolean) => {
    const nodes = planNodes(plan).filter((n) => n['Relation Name'] === 'patent_records');
    const bad = nodes
      .filter((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Bitmap Heap Scan' || (n['Node Type'] !== 'Index Only Scan' && SCOPE_INDEXES.includes(String(n['Index Name']))))
      .map((n) => `${n['Node Type']}${n['Index Name'] ? `(${n['Index Name']})` : ''} ~${String(n['Plan Rows'])}`);
    const indexOnly = nodes.some((n) => n['Node Type'] === 'Index Only Scan' && SCOPE_INDEXES.includes(String(n['Index Name'])));
    // Past a cursor the planner may find the few rows left by a tab's index alone.
    const missing = firstPage && !indexOnly ? ['no index-only scan of the scope'] : [];
    return [...bad, ...missing];
  };

  it('an agent’s list reads its scope by index only, every sort, both directions, with and without filters, first and next pages (decision 189)', async () => {
    const failures: Record<string, string[]> = {};
    for (const sort of PATENT_SORTS) {
      for (const order of ORDERS) {
        for (const tab of ['unprocessed', 'unvalidated'] as const) {
          const cursor = encodeCursor({ way: 'after', part: 0, value: sort === 'Quantieme' || sort === 'id_instruction' ? 3 : sort === 'DateEcheance' ? '2027-01-01' : sort === 'cost' ? '100.00' : 'M', id: someId });
          for (const [name, extra] of [
            ['', {}],
            [' office FR', { office: 'FR' }],
            [' dates + FR', { dates: '2026-11-27;2027-03-27', office: 'FR' }],
            [' next page', { cursor }],
          ] as const) {
            const query = patentListQuery.parse({ sort, order, tab, ...extra });
            const plan = await explainPlan(handle.db, pageStatement(pageRequest(patentListRequest(agent, query))));
            const reads = scopeReads(plan, !('cursor' in extra));
            if (reads.length > 0) failures[`agent ${tab} ${sort} ${order}${name}`] = reads;
          }
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);

  it('an admin’s list of one country by due date, and its count, read the (tab, country, due date) index in order (decision 189)', async () => {
    const failures: Record<string, string[]> = {};
    for (const tab of ['unprocessed', 'unvalidated'] as const) {
      for (const order of ORDERS) {
        for (const dates of [undefined, '2026-11-27;2027-03-27']) {
          const query = patentListQuery.parse({ tab, order, office: 'FR', ...(dates ? { dates } : {}) });
          const plan = await explainPlan(handle.db, pageStatement(pageRequest(patentListRequest({ kind: 'all' }, query))));
          const nodes = planNodes(plan);
          const uses = nodes.some((n) => n['Index Name'] === 'patent_records_tab_pays_due_idx');
          const bad = nodes.filter((n) => n['Relation Name'] === 'patent_records' && n['Index Name'] !== 'patent_records_tab_pays_due_idx').map((n) => `${n['Node Type']}(${String(n['Index Name'])})`);
          // The country's rows without a due date (a few) may be sorted; its dated rows come in the index's order.
          if (!uses || bad.length > 0 || fullSorts(plan).some((n) => Number(n['Plan Rows']) > PATENTS / 100)) failures[`admin ${tab} ${order} FR${dates ? ' + dates' : ''}`] = describePlan(plan);
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);

  it('patents to validate (admin and an admin_test scope) and patents with missing information: every sort, both directions', async () => {
    const failures: Record<string, string[]> = {};
    const agentRows = await kept(sql`cabinet_id = ${(agent as { cabinetIds: string[] }).cabinetIds[0]} or client_code = 'DEMO004'`);
    for (const order of ORDERS) {
      for (const sort of PATENT_TO_VALIDATE_SORTS) {
        const query = toValidateQuery.parse({ sort, order });
        for (const [scope, request, bound] of [
          ['admin', toValidateRequest({ kind: 'all' }, query), 0],
          ['admin_test', toValidateRequest(agent, query), agentRows],
        ] as const) {
          const sorts = await sortsOf(request, bound);
          if (sorts.length > 0) failures[`to_validate ${scope} ${sort} ${order}`] = sorts;
        }
      }
      for (const sort of PATENT_MISSING_FIELDS) {
        // The planner may sort the few rows without the value (an empty number: 1% of the demo), never the list.
        const sorts = await sortsOf(missingInformationRequest(missingInformationQuery.parse({ sort, order })), PATENTS / 50);
        if (sorts.length > 0) failures[`missing information ${sort} ${order}`] = sorts;
      }
    }
    expect(failures).toEqual({});
  }, 600_000);
});
