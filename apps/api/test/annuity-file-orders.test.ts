import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNUITY_PATENT_SORTS, type AnnuityPatentsResponse } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '@portal/jobs';
import { orderReads } from '../src/modules/annuities/sort-orders.ts';
import { fillAnnuityFile } from './support/annuity-scale.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

const ROWS = 3_000;
const COLUMNS: Record<string, string> = {
  num_publication: 'num_publication', num_depot: 'num_depot', reference: 'reference', nom: 'nom', pays: 'pays', payeur: 'payeur',
  date_depot: 'date_depot', mois_date_depot: 'mois_date_depot', date_predecent_annuite: 'date_precedente_annuite',
  date_precedente_annuite: 'date_precedente_annuite', quant_precedent: 'quant_precedent', date_prochaine_annuite: 'date_prochaine_annuite',
  limite_date_prochaine_annuite: 'limite_date_prochaine_annuite',
};

/**
 * The patents-by-file list sorted by a column pages a per-file order computed once per version of the file (decision
 * 190): every sort, both ways, with a colour filter or a search, first and deep pages, is the database's own
 * `ORDER BY` (decision 178's order: ascending nulls last; descending the values then the nulls in file order), and an
 * edit of a sorted value shows at once in the sorted pages.
 */
describe.each(databaseKinds())('patents-by-file sorted by a per-file order (%s)', (kind) => {
  let t: TestPortal;
  let owner: { client: TestClient; id: string };
  let fileId: string;

  beforeAll(async () => {
    t = await startTestPortal(kind);
    owner = await t.loginAs('user_annuites');
    fileId = await fillAnnuityFile(t.portal.ctx.db, owner.id, ROWS);
  }, 120_000);
  afterAll(async () => t?.close());

  const get = async (query: string) => {
    const res = await owner.client.get<AnnuityPatentsResponse>(`/api/brevets/file/${fileId}?${query}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return res.body;
  };

  /** The database's order of the rows `where` keeps, as decision 178 defines it. */
  const truth = async (column: string, order: 'asc' | 'desc', where = sql``) => {
    const c = sql.raw(column);
    const read = async (query: ReturnType<typeof sql>) => rowsOf<{ row: number }>(await t.portal.ctx.db.execute(query)).map((r) => Number(r.row));
    if (order === 'asc') return read(sql`select row_index as row from annuity_patents where file_id = ${fileId} ${where} order by ${c} asc nulls last, row_index`);
    return [
      ...(await read(sql`select row_index as row from annuity_patents where file_id = ${fileId} and ${c} is not null ${where} order by ${c} desc, row_index desc`)),
      ...(await read(sql`select row_index as row from annuity_patents where file_id = ${fileId} and ${c} is null ${where} order by row_index`)),
    ];
  };

  it('every sort, both ways, plain, by colour and searched, first and deep pages, is the database order; each order is read once', async () => {
    const reads = orderReads();
    for (const sort of ANNUITY_PATENT_SORTS.filter((s) => s !== 'colour')) {
      for (const order of ['asc', 'desc'] as const) {
        for (const [filter, where] of [
          ['', sql``],
          ['&colour=orange', sql`and colour = 'orange'`],
          ['&search=ref-12', sql`and search_text like '%ref-12%'`],
          ['&search=device', sql`and search_text like '%device%'`],
        ] as const) {
          const expected = await truth(COLUMNS[sort]!, order, where);
          for (const page of [1, 7, Math.ceil(expected.length / 100)]) {
            const body = await get(`sort=${sort}&order=${order}&limit=100&page=${page}${filter}`);
            expect(body.meta.total, `${sort} ${order}${filter}`).toBe(expected.length);
            expect(body.patents.map((p) => p.row), `${sort} ${order}${filter} page ${page}`).toEqual(expected.slice((page - 1) * 100, page * 100));
          }
        }
      }
    }
    // One read per column (date_predecent_annuite and date_precedente_annuite are one column), whatever the direction, filter or page.
    expect(orderReads() - reads).toBe(new Set(Object.values(COLUMNS)).size);
  }, 120_000);

  it('an edit of a sorted value shows at once in the sorted pages', async () => {
    await get('sort=date_prochaine_annuite&order=asc&limit=30');
    // One of the latest next dates, whose previous date (if any) is before the one it gets.
    const last = (await get('sort=date_prochaine_annuite&order=desc&limit=30')).patents.find((p) => p.date_precedente_annuite === null || p.date_precedente_annuite < '2020-01-01')!;
    // The row with the latest next date gets the earliest one: first ascending, last of the dated rows descending.
    const res = await owner.client.put(`/api/brevets/annuite/${last._id}`, {
      date_precedente_annuite: last.date_precedente_annuite, quant_precedent: last.quant_precedent, date_prochaine_annuite: '2020-01-01', limite_date_prochaine_annuite: last.limite_date_prochaine_annuite,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.patent.date_prochaine_annuite).toBe('2020-01-01');
    expect((await get('sort=date_prochaine_annuite&order=asc&limit=30')).patents[0]!._id).toBe(last._id);
    const desc = await truth('date_prochaine_annuite', 'desc');
    expect((await get('sort=date_prochaine_annuite&order=desc&limit=30')).patents.map((p) => p._id)).not.toContain(last._id);
    const body = await get(`sort=date_prochaine_annuite&order=desc&limit=100&page=${Math.ceil(desc.length / 100)}`);
    expect(body.patents.map((p) => p.row)).toEqual(desc.slice(Math.floor((desc.length - 1) / 100) * 100));
    expect(desc.indexOf(last.row)).toBeGreaterThan(0);
  }, 60_000);
});
