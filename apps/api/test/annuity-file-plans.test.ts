import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNUITY_COLOURS, ANNUITY_PATENT_SORTS } from '@portal/contracts';
import { annuityPatents, type DatabaseHandle } from '@portal/db';
import { explainPlan, fullSorts, openTestDatabase, planNodes, testDatabaseKinds } from '@portal/db/testing';
import { patentRunQuery, patentRuns, type PatentListQuery } from '../src/modules/annuities/service.ts';
import { fillAnnuityFile } from './support/annuity-scale.ts';

const ROWS = 40_000;

/**
 * Issue 28, done-when 2, for the patents-by-file modal: every sort it offers, both ways, with and without
 * a colour filter, on the first page and a deep one, reads an index in the order it shows (decision 178):
 * no plan sorts the file's rows. Fails on a schema without migration 0018 (per-column indexes without
 * row_index, none for most columns, and `desc nulls last` matching none).
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
  }, 240_000);
  afterAll(() => handle?.close());

  const sorts: Array<PatentListQuery['sort']> = [undefined, ...ANNUITY_PATENT_SORTS];
  const cases = sorts.flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order })));

  it.each(cases)('sort $sort $order: every run of the first and a deep page reads an index in order', async ({ sort, order }) => {
    for (const colour of [undefined, ...ANNUITY_COLOURS]) {
      const runs = patentRuns(fileId, { sort, order, colour });
      // A deep page: three quarters into the rows the filter keeps.
      const kept = colour ? await handle.db.$count(annuityPatents, and(eq(annuityPatents.fileId, fileId), eq(annuityPatents.colour, colour))) : ROWS;
      for (const run of runs) {
        for (const offset of [0, Math.floor(kept * 0.75)]) {
          const plan = await explainPlan(handle.db, patentRunQuery(handle, fileId, run, offset, 250).getSQL());
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
