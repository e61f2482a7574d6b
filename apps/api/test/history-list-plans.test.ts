import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDES_HISTORY_SORTS, LEDES_TYPES, RECEIPT_SORTS, type LedesHistorySort, type LedesType } from '@portal/contracts';
import { serverT } from '@portal/i18n';
import type { DatabaseHandle } from '@portal/db';
import { explainPlan, openTestDatabase, planNodes, sortsOver, testDatabaseKinds, type PlanNode } from '@portal/db/testing';
import { rowsOf } from '@portal/jobs';
import { historyCountQuery, historyPageQuery, historySearchMatches, type HistoryFilter } from '../src/modules/ledes/service.ts';
import { exportsPageQuery, importsPageQuery } from '../src/modules/patent-portfolio/service.ts';
import { receiptsCountQuery, receiptsPageQuery, receiptsWhere, uploadsPageQuery, visibleTo } from '../src/modules/receipts/service.ts';

/*
 * Issue 28, done-when 2, for the lists that are not patents: the LEDES history (a user's) and the admin log
 * (everyone's, or one user's), the receipts list, a user's receipt uploads, the portfolio's imports and export
 * batches. Every sort the screens offer, both directions, first page and a deeper one: no plan sorts the list's
 * table; the page is read in an index's order. A list narrowed to one owner or one scope may sort that owner's
 * or scope's own rows (decision 174), never the table's.
 */

const RUNS = 60_000;
const RECEIPTS = 60_000;
const RUN_TABLES = 20_000;
const OWNERS = 40;
const ORDERS = ['asc', 'desc'] as const;

const describePlan = (plan: PlanNode) =>
  planNodes(plan).map((n) => `${n['Node Type']}${n['Relation Name'] ? ` ${n['Relation Name']}` : ''}${n['Index Name'] ? `(${n['Index Name']})` : ''}${n['Sort Key'] ? `[${n['Sort Key'].join(', ')}]` : ''} ~${String(n['Plan Rows'])}`);

/** The plan's description when it sorts more than `bound` rows of `table` or reads `table` by no index; else null. */
async function faultOf(handle: DatabaseHandle, query: SQL, table: string, bound = 0): Promise<string[] | null> {
  const plan = await explainPlan(handle.db, query);
  const sorts = sortsOver(plan, table).filter((n) => Number(n['Plan Rows']) > bound);
  const indexed = planNodes(plan).some((n) => n['Relation Name'] === table && String(n['Node Type']).startsWith('Index'));
  return sorts.length > 0 || (!indexed && bound === 0) ? describePlan(plan) : null;
}

describe.each(testDatabaseKinds())('LEDES history and admin log plans (%s)', (kind) => {
  let handle: DatabaseHandle;
  let ownerId: string;
  let ownerRuns: number;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { db } = handle;
    await db.execute(sql`insert into ledes_offices (code, label_en, label_fr, position) values ('PAR', 'Paris office', 'Bureau de Paris', 0), ('LON', 'London office', 'Bureau de Londres', 1), ('MUC', 'Munich office', 'Bureau de Munich', 2) on conflict do nothing`);
    // Forty owners, some sharing a name (the provider sort's ties).
    await db.execute(sql`insert into users (company_agent, email) select 'Agent ' || (g % 25), 'ledes' || g || '@example.test' from generate_series(1, ${OWNERS}) g`);
    await db.execute(sql`
      insert into ledes_runs (owner_id, name, original_name, original_key, size, sha256, office, type, send_history, state, accepted, error_line_count, created_at)
      select u.id, '2026_01_01_00_00_00_invoice-' || g || '.txt', 'invoice-' || md5(g::text) || '.txt', 'ledes/original/' || g, 1, 'x',
        (array['PAR', 'LON', 'MUC'])[1 + g % 3], (array['patent', 'trademark', 'annuites'])[1 + (g / 3) % 3], g % 10 <> 0,
        case when g % 97 = 0 then 'in_progress' when g % 89 = 0 then 'Error' else 'Done' end,
        case when g % 97 = 0 or g % 89 = 0 then null else g % 7 <> 0 end, case when g % 7 = 0 then 3 else 0 end,
        now() - make_interval(secs => g)
      from generate_series(1, ${RUNS}) g join (select id, row_number() over (order by email) - 1 as n from users) u on u.n = g % ${OWNERS}`);
    await db.execute(sql`vacuum analyze ledes_runs`);
    await db.execute(sql`analyze users`);
    await db.execute(sql`analyze ledes_run_counts`);
    ownerId = rowsOf<{ id: string }>(await db.execute(sql`select owner_id::text as id from ledes_runs limit 1`))[0]!.id;
    ownerRuns = Number(rowsOf<{ n: unknown }>(await db.execute(sql`select runs as n from ledes_run_counts where owner_id = ${ownerId}`))[0]!.n);
  }, 600_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('every sort, both directions, both languages: everyone’s log, one user’s log, a user’s history; pages 1 and 50', async () => {
    expect(ownerRuns).toBeLessThan(RUNS / 20);
    const failures: Record<string, string[]> = {};
    for (const column of LEDES_HISTORY_SORTS) {
      for (const order of ORDERS) {
        for (const locale of ['fr', 'en'] as const) {
          const sort = { column, order };
          // A list of one owner may sort that owner's runs: the bound is their number, with room for the planner's
          // estimate of it (ANALYZE samples; 1,506 estimated for 1,500 was seen).
          const cases: Array<[string, HistoryFilter, number]> = [
            ['admin log', { onlyShared: false, sort, locale }, 0],
            ['admin log of one user', { ownerId, onlyShared: false, sort, locale }, ownerRuns * 1.2],
            ['user history', { ownerId, onlyShared: true, sort, locale }, ownerRuns * 1.2],
          ];
          for (const [what, filter, bound] of cases) {
            for (const page of [1, 50]) {
              // A deep page sorted by provider needs up to 1,000 runs of an owner: the planner may sort that owner's runs
              // rather than walk as many index entries (offset paging), never more than one owner's.
              const allowed = column === 'provider' && page > 1 ? ownerRuns * 1.2 : bound;
              const fault = await faultOf(handle, historyPageQuery(handle.db, filter, page, 20).getSQL(), 'ledes_runs', allowed);
              if (fault) failures[`${what} ${column} ${order} ${locale} page ${page}`] = fault;
            }
          }
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);

  it('a search of the admin log by file name or by owner reads the runs it matches by index, its count and its page (decision 187)', async () => {
    const failures: Record<string, string[]> = {};
    // One file's name; one owner's e-mail (1/40 of the runs); a name fragment a few hundred runs share.
    for (const search of ['invoice-12345.txt', 'ledes7@example', 'invoice-777']) {
      const matches = await historySearchMatches(handle.db, search);
      for (const [what, filter] of [
        ['admin log', { onlyShared: false }],
        ['user history', { ownerId, onlyShared: true }],
      ] as Array<[string, HistoryFilter]>) {
        const count = await explainPlan(handle.db, historyCountQuery(handle.db, filter, matches).getSQL());
        const scanned = planNodes(count).filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'ledes_runs');
        if (scanned.length > 0) failures[`${what} "${search}" count`] = describePlan(count);
        for (const column of ['date', 'name'] as const) {
          const page = await explainPlan(handle.db, historyPageQuery(handle.db, { ...filter, sort: { column, order: 'desc' } }, 1, 20, matches).getSQL());
          if (planNodes(page).some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'ledes_runs')) failures[`${what} "${search}" page by ${column}`] = describePlan(page);
        }
      }
    }
    expect(failures).toEqual({});
  }, 120_000);

  it('the pages of every sort, put end to end, are each of a user’s runs once, in the sort’s order, ties by date then id in its direction', async () => {
    const t = serverT('fr');
    const typeRank = (type: string) => [...LEDES_TYPES].sort((a, b) => t(`ledes:types.${a}`).localeCompare(t(`ledes:types.${b}`), 'fr')).indexOf(type as LedesType);
    const officeLabel: Record<string, string> = { PAR: 'bureau de paris', LON: 'bureau de londres', MUC: 'bureau de munich' };
    type Row = Awaited<ReturnType<typeof historyPageQuery>>[number];
    const badge = (r: Row['run']) => (r.state === 'in_progress' ? 0 : r.state === 'Error' ? 1 : r.accepted === false || (r.accepted === null && r.errorLineCount > 0) ? 2 : 3);
    const keyOf: Record<LedesHistorySort, (r: Row) => Array<string | number>> = {
      date: () => [],
      name: (r) => [r.run.originalName.toLowerCase()],
      provider: (r) => [r.user.companyAgent.toLowerCase(), r.user.id],
      office: (r) => [officeLabel[r.run.office]!, r.run.office],
      type: (r) => [typeRank(r.run.type)],
      state: (r) => [badge(r.run)],
    };
    const compare = (a: Array<string | number>, b: Array<string | number>) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
      return 0;
    };
    for (const column of LEDES_HISTORY_SORTS) {
      for (const order of ORDERS) {
        const rows: Row[] = [];
        for (let page = 1; page <= Math.ceil(ownerRuns / 600); page++) rows.push(...(await historyPageQuery(handle.db, { ownerId, onlyShared: false, sort: { column, order }, locale: 'fr' }, page, 600)));
        expect(new Set(rows.map((r) => r.run.id)).size, `${column} ${order}`).toBe(ownerRuns);
        const key = (r: Row) => [...keyOf[column](r), r.run.createdAt.toISOString(), r.run.id];
        const sign = order === 'asc' ? 1 : -1;
        const misplaced = rows.findIndex((r, i) => i > 0 && sign * compare(key(rows[i - 1]!), key(r)) > 0);
        expect(misplaced, `${column} ${order}`).toBe(-1);
      }
    }
  }, 600_000);
});

describe.each(testDatabaseKinds())('receipts, receipt uploads, imports and exports plans (%s)', (kind) => {
  let handle: DatabaseHandle;
  let userId: string;
  let cabinetId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { db } = handle;
    await db.execute(sql`insert into users (company_agent, email) select 'Owner ' || g, 'owner' || g || '@example.test' from generate_series(1, ${OWNERS}) g`);
    await db.execute(sql`insert into cabinets (name) select 'Cabinet ' || g from generate_series(1, 20) g`);
    await db.execute(sql`
      insert into receipt_uploads (owner_id, original_name, storage_key, size, sha256, state, created_at)
      select u.id, 'receipts-' || g || '.zip', 'receipts/upload/' || g, 1, 'x', 'Done', now() - make_interval(secs => g)
      from generate_series(1, ${RUN_TABLES}) g join (select id, row_number() over (order by email) - 1 as n from users) u on u.n = g % ${OWNERS}`);
    // Three receipts per upload; every fifth reference missing (a receipt to complete), the cabinets and codes spread.
    await db.execute(sql`
      insert into receipts (upload_id, entry_index, file_name, storage_key, size, reference_client, reference_inpi, reference_provider,
        date_ordre_paiement, source, needs_completion, cabinet_id, client_code, created_at)
      select up.id, e, 'receipt-' || md5(up.n::text || e) || '.pdf', 'receipts/' || up.n || '/' || e, 1,
        case when (up.n + e) % 5 = 0 then null else 'CR' || md5('c' || up.n || e) end, 'INPI' || md5('i' || up.n || e),
        case when (up.n + e) % 5 = 1 then null else 'PR' || md5('p' || up.n || e) end,
        date '2026-01-01' + ((up.n * 3 + e) % 700)::int, 'manifest', (up.n + e) % 5 = 0, c.id, 'CODE' || ((up.n + e) % 200),
        now() - make_interval(secs => up.n * 3 + e)
      from (select id, row_number() over (order by created_at desc) as n from receipt_uploads) up
      cross join generate_series(0, ${RECEIPTS / RUN_TABLES - 1}) e
      join (select id, row_number() over (order by name) - 1 as n from cabinets) c on c.n = (up.n + e) % 20`);
    await db.execute(sql`
      insert into patent_imports (uploaded_by, original_name, storage_key, size, sha256, state, created_at)
      select null, 'portfolio-' || g || '.xlsx', 'patents/import/' || g, 1, 'x', 'Done', now() - make_interval(secs => g) from generate_series(1, ${RUN_TABLES}) g`);
    await db.execute(sql`
      insert into patent_export_batches (name, xlsx_key, csv_key, patent_count, created_at)
      select 'export-' || g, 'patents/export/' || g || '.xlsx', 'patents/export/' || g || '.csv', 10, now() - make_interval(secs => g) from generate_series(1, ${RUN_TABLES}) g`);
    for (const table of ['receipts', 'receipt_uploads', 'patent_imports', 'patent_export_batches']) await db.execute(sql`vacuum analyze ${sql.identifier(table)}`);
    await db.execute(sql`analyze users`);
    userId = rowsOf<{ id: string }>(await db.execute(sql`select owner_id::text as id from receipt_uploads limit 1`))[0]!.id;
    cabinetId = rowsOf<{ id: string }>(await db.execute(sql`select id::text from cabinets order by name limit 1`))[0]!.id;
  }, 600_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('receipts: every sort, both directions, admin and an agent’s scope, with "to complete"; pages 1 and 50', async () => {
    const agentScope = visibleTo(handle.db, userId, { kind: 'owned', cabinetIds: [cabinetId], codes: ['CODE7'] });
    const agentRows = Number(rowsOf<{ n: unknown }>(await handle.db.execute(sql`select count(*) as n from receipts where ${agentScope}`))[0]!.n);
    expect(agentRows).toBeLessThan(RECEIPTS / 10);
    const failures: Record<string, string[]> = {};
    for (const sort of RECEIPT_SORTS) {
      for (const order of ORDERS) {
        const cases: Array<[string, SQL | undefined, number]> = [
          ['admin', receiptsWhere(undefined, {}), 0],
          ['agent', receiptsWhere(agentScope, {}), agentRows * 1.2],
          ['admin, to complete', receiptsWhere(undefined, { to_complete: '1' }), 0],
        ];
        for (const [what, where, bound] of cases) {
          for (const page of [1, 50]) {
            const fault = await faultOf(handle, receiptsPageQuery(handle.db, where, { sort, order, page, limit: 20 }).getSQL(), 'receipts', bound);
            if (fault) failures[`${what} ${sort} ${order} page ${page}`] = fault;
          }
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);

  it('the receipts’ counts read an agent’s scope and the receipts to complete by index, not every receipt', async () => {
    const agentScope = visibleTo(handle.db, userId, { kind: 'owned', cabinetIds: [cabinetId], codes: ['CODE7'] });
    const failures: Record<string, string[]> = {};
    for (const [what, where] of [
      ['agent', receiptsWhere(agentScope, {})],
      ['admin, to complete', receiptsWhere(undefined, { to_complete: '1' })],
    ] as const) {
      const plan = await explainPlan(handle.db, receiptsCountQuery(handle.db, where).getSQL());
      if (planNodes(plan).some((n) => n['Relation Name'] === 'receipts' && n['Node Type'] === 'Seq Scan')) failures[what] = describePlan(plan);
    }
    expect(failures).toEqual({});
  }, 600_000);

  it('a user’s receipt uploads, the imports and the export batches: newest first, pages 1 and 50', async () => {
    const failures: Record<string, string[]> = {};
    for (const page of [1, 50]) {
      // A user's uploads are that user's rows (500 here): the planner may read them by the owner's index and sort them.
      const cases: Array<[string, SQL, string, number]> = [
        ['receipt uploads', uploadsPageQuery(handle.db, userId, page, 5).getSQL(), 'receipt_uploads', (RUN_TABLES / OWNERS) * 1.2],
        ['imports', importsPageQuery(handle.db, { page, limit: 20 }).getSQL(), 'patent_imports', 0],
        ['exports', exportsPageQuery(handle.db, { page, limit: 20 }).getSQL(), 'patent_export_batches', 0],
      ];
      for (const [what, query, table, bound] of cases) {
        const fault = await faultOf(handle, query, table, bound);
        if (fault) failures[`${what} page ${page}`] = fault;
      }
    }
    expect(failures).toEqual({});
  }, 600_000);
});
