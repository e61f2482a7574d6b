import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNUITY_COLOURS, ANNUITY_FILE_SORTS, ANNUITY_PATENT_SORTS } from '@portal/contracts';
import { annuityPatents, type DatabaseHandle } from '@portal/db';
import { explainPlan, fullSorts, openTestDatabase, planNodes, testDatabaseKinds } from '@portal/db/testing';
import { filesPageQuery, filesWhere, patentRunQuery, patentRuns, type PatentListQuery } from '../src/modules/annuities/service.ts';
import { patentsByKeysQuery } from '../src/modules/annuities/patent-rows.ts';
import { fileColoursQuery } from '../src/modules/annuities/file-colours.ts';
import { fillAnnuityFile } from './support/annuity-scale.ts';

const ROWS = 40_000;

/**
 * Issue 28, done-when 2, for the patents-by-file modal: no page sorts the file's rows. The file's order and the
 * colour sort, both ways, with and without a colour filter, first and deep pages, read an index in the order they
 * show (decision 178). A sort by any other column slices the file's order for that column, read once per version of
 * the file (decision 190, `annuity-file-orders.test.ts`), and reads the page's rows by the (file_id, row_index) key:
 * the plan of that read is asserted here, for a first and a deep page.
 */
describe.each(testDatabaseKinds())('patents-by-file plans (%s)', (kind) => {
  let handle: DatabaseHandle;
  let fileId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const owner = await handle.db.execute(sql`insert into users (company_agent, email) values ('Plans', 'plans@example.test') returning id`);
    const ownerId = (owner as { rows: Array<{ id: string }> }).rows[0]!.id;
    // A small file beside the big one: the big file's rows are not the whole table.
    await fillAnnuityFile(handle.db, ownerId, 500);
    fileId = await fillAnnuityFile(handle.db, ownerId, ROWS);
    // One row in ten is a portfolio patent (decision 214's link), with a paid year in the ledger for one in a hundred.
    await handle.db.execute(sql`update annuity_patents set patent_key = 'PLAN-' || row_index where file_id = ${fileId} and row_index % 10 = 0`);
    await handle.db.execute(sql`insert into patent_ledger (patent_key, annuity_year, state)
      select patent_key, next_number, 'paid' from annuity_patents where file_id = ${fileId} and row_index % 100 = 0 and next_number is not null`);
    await handle.db.execute(sql`vacuum analyze annuity_patents`);
    await handle.db.execute(sql`analyze patent_ledger`);
  }, 240_000);
  afterAll(() => handle?.close());

  it('the ledger’s colours read the file’s linked rows only, by their index (decision 233)', async () => {
    const agent = { isAdmin: false, userId: '00000000-0000-4000-8000-000000000000' };
    for (const [what, query] of [
      ['admin', fileColoursQuery([fileId], { ...agent, isAdmin: true })],
      ['agent', fileColoursQuery([fileId], agent)],
    ] as const) {
      const plan = await explainPlan(handle.db, query);
      const nodes = planNodes(plan).filter((n) => n['Relation Name'] === 'annuity_patents');
      const shape = `${what}: ${planNodes(plan).map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' > ')}`;
      expect(nodes.length, shape).toBeGreaterThan(0);
      expect(nodes.every((n) => n['Index Name'] === 'annuity_patents_file_linked_idx'), shape).toBe(true);
    }
  });

  const sorts: Array<PatentListQuery['sort']> = [undefined, ...ANNUITY_PATENT_SORTS];
  const cases = sorts.flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order })));

  it.each(cases)('sort $sort $order: every run of the first and a deep page reads an index in order', async ({ sort, order }) => {
    if (sort && sort !== 'colour') {
      // A slice of the column's order, the first page and one deep in the file, in the order's (not the key's) order.
      for (const start of [0, Math.floor(ROWS * 0.75)]) {
        const keys = Array.from({ length: 250 }, (_, i) => (start + ((i * 7919) % 250)) % ROWS);
        const plan = await explainPlan(handle.db, patentsByKeysQuery(fileId, keys));
        const what = `${sort} ${order} from ${start}: ${planNodes(plan).map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`).join(' > ')}`;
        expect(fullSorts(plan), what).toEqual([]);
        expect(planNodes(plan).some((n) => n['Index Name'] === 'annuity_patents_file_row_unique'), what).toBe(true);
        expect(planNodes(plan).some((n) => n['Node Type'] === 'Seq Scan'), what).toBe(false);
      }
      return;
    }
    for (const colour of [undefined, ...ANNUITY_COLOURS]) {
      const runs = patentRuns(fileId, { sort, order, colour });
      // A deep page: three quarters into the rows the filter keeps.
      const kept = colour ? await handle.db.$count(annuityPatents, and(eq(annuityPatents.fileId, fileId), eq(annuityPatents.colour, colour))) : ROWS;
      for (const run of runs) {
        for (const offset of [0, Math.floor(kept * 0.75)]) {
          const plan = await explainPlan(handle.db, patentRunQuery(handle, run, offset, 250).getSQL());
          const where = `${sort ?? 'file order'} ${order} colour=${colour ?? '-'} offset ${offset} run ${runs.indexOf(run)}`;
          // A deep page of one colour may sort that colour's keys when the planner finds it cheaper than walking the
          // sort index (PostgreSQL did for the long names, 6,667 'nok' rows of 40,000): never more rows than the filter keeps.
          const sorts = colour && offset > 0 ? fullSorts(plan).filter((n) => Number(n['Plan Rows']) > kept * 1.2) : fullSorts(plan);
          expect(sorts.map((n) => n["Sort Key"]), `${where}: ${planNodes(plan).map((n) => `${n["Node Type"]} ${n["Index Name"] ?? ""}`).join(" > ")}`).toEqual([]);
          expect(
            planNodes(plan).some((n) => n['Relation Name'] === 'annuity_patents' && String(n['Node Type']).startsWith('Index')),
            where,
          ).toBe(true);
        }
      }
    }
  });
});

/**
 * The annuity files list (`GET /annuite/files`): each sort it offers (name then date, date), both ways,
 * for a user (their files) and an admin (everyone's), first page and a deep one, over 20,000 files of 40
 * owners: no plan sorts the files (migration 0017 adds the name orders).
 */
describe.each(testDatabaseKinds())('annuity files list plans (%s)', (kind) => {
  let handle: DatabaseHandle;
  let ownerId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    await handle.db.execute(sql`insert into users (company_agent, email) select 'Owner ' || g, 'owner' || g || '@example.test' from generate_series(1, 40) g`);
    await handle.db.execute(sql`
      insert into annuity_files (owner_id, import_name, export_name, import_key, size, sha256, state, created_at)
      select u.id, 'portfolio-' || md5(g::text) || '.xlsx', 'out.xlsx', 'annuities/import/' || g || '.xlsx', 1, 'x', 'Done', now() - make_interval(secs => g)
      from generate_series(1, 20000) g join (select id, row_number() over (order by email) - 1 as n from users) u on u.n = g % 40`);
    await handle.db.execute(sql`vacuum analyze annuity_files`);
    await handle.db.execute(sql`analyze users`);
    const owner = await handle.db.execute(sql`select owner_id as id from annuity_files limit 1`);
    ownerId = (owner as { rows: Array<{ id: string }> }).rows[0]!.id;
  }, 120_000);
  afterAll(() => handle?.close());

  const cases = ANNUITY_FILE_SORTS.flatMap((sort) => (['asc', 'desc'] as const).flatMap((order) => [true, false].map((isAdmin) => ({ sort, order, isAdmin }))));
  it.each(cases)('sort $sort $order, admin $isAdmin: first and deep page read an index in order', async ({ sort, order, isAdmin }) => {
    for (const page of [1, 60]) {
      const where = filesWhere({ isAdmin, userId: ownerId }, undefined);
      const plan = await explainPlan(handle.db, filesPageQuery(handle, where, { sort, order, page, limit: 5 }).getSQL());
      const what = `${sort} ${order} admin=${isAdmin} page ${page}: ${planNodes(plan).map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`).join(' > ')}`;
      // A user's deep page may sort that user's own files (500 here) when the planner finds it cheaper; an admin's never sorts.
      const sorts = fullSorts(plan).filter((n) => isAdmin || Number(n['Plan Rows']) > 500 * 1.2);
      expect(sorts.map((n) => n['Sort Key']), what).toEqual([]);
    }
  });
});
