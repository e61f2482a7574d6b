import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNUITY_ALL_PAGE_SIZE, ANNUITY_PATENT_SORTS, type AnnuityPatentDto, type AnnuityPatentsResponse } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '@portal/jobs';
import { LISTED_MATCHES, matchReads } from '../src/modules/annuities/search-matches.ts';
import { fillAnnuityFile } from './support/annuity-scale.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

const ROWS = 40_000;
/** Issue 28 done-when 3: "no answer of the patents API larger than a few MB, whatever the file". */
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * The patents-by-file list on a 40,000-row file (decision 178): `limit=all` answers a bounded window,
 * `page` counts windows, and the "All" view's protocol (windows 1 to meta.totalPages) reaches every row
 * once, in the order asked for; the bulk comment by filter reaches rows never loaded.
 */
describe.each(databaseKinds())('patents-by-file at 40,000 rows (%s)', (kind) => {
  let t: TestPortal;
  let owner: { client: TestClient; id: string };
  let fileId: string;

  beforeAll(async () => {
    t = await startTestPortal(kind);
    owner = await t.loginAs('user_annuites');
    fileId = await fillAnnuityFile(t.portal.ctx.db, owner.id, ROWS);
  }, 240_000);
  afterAll(async () => t?.close());

  const get = async (query: string) => {
    const res = await owner.client.get<AnnuityPatentsResponse>(`/api/brevets/file/${fileId}?${query}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(Buffer.byteLength(res.text), query).toBeLessThan(MAX_BYTES);
    return res.body;
  };

  it('no answer is larger than 2 MB, whatever the limit, sort, order, search, filter or page', async () => {
    let largest = 0;
    for (const limit of ['30', '100', 'all']) {
      for (const sort of ['', ...ANNUITY_PATENT_SORTS]) {
        for (const order of ['asc', 'desc']) {
          const body = await get(`limit=${limit}&order=${order}${sort ? `&sort=${sort}` : ''}`);
          expect(body.patents.length).toBe(limit === 'all' ? ANNUITY_ALL_PAGE_SIZE : Number(limit));
          largest = Math.max(largest, JSON.stringify(body).length);
        }
      }
    }
    for (const extra of ['search=device', 'search=ep1', 'colour=ok', 'colour=no_date&sort=nom&order=desc', 'page=159', 'page=160&sort=payeur&order=desc', 'page=1000']) {
      const body = await get(`limit=all&${extra}`);
      expect(body.meta.pageSize).toBe(ANNUITY_ALL_PAGE_SIZE);
      expect(body.patents.length).toBeLessThanOrEqual(ANNUITY_ALL_PAGE_SIZE);
    }
    // Before decision 178, `limit=all` answered 32.8 MB for this file.
    expect(largest).toBeLessThan(MAX_BYTES / 4);
  });

  /** The web's protocol for "All": window 1, then windows 2 … meta.totalPages, all with the same query. */
  async function walk(query: string): Promise<AnnuityPatentDto[]> {
    const first = await get(`limit=all&${query}`);
    const rows = [...first.patents];
    for (let page = 2; page <= first.meta.totalPages; page++) rows.push(...(await get(`limit=all&page=${page}&${query}`)).patents);
    expect(rows.length).toBe(first.meta.total);
    expect(new Set(rows.map((p) => p._id)).size).toBe(rows.length);
    return rows;
  }

  it('paging "All" window by window reaches every row once, in the order asked for', async () => {
    const plain = await walk('');
    expect(plain.length).toBe(ROWS);
    expect(plain.map((p) => p.row)).toEqual([...Array(ROWS).keys()]);

    // Descending: the rows with a date, date then row descending, then those without one in file order.
    const next = await walk('sort=date_prochaine_annuite&order=desc');
    expect(next.length).toBe(ROWS);
    const dated = next.filter((p) => p.date_prochaine_annuite !== null);
    expect(next.slice(0, dated.length)).toEqual(dated);
    for (let i = 1; i < dated.length; i++) {
      const [a, b] = [dated[i - 1]!, dated[i]!];
      expect(a.date_prochaine_annuite! > b.date_prochaine_annuite! || (a.date_prochaine_annuite === b.date_prochaine_annuite && a.row > b.row)).toBe(true);
    }
    const undated = next.slice(dated.length).map((p) => p.row);
    expect(undated).toEqual([...undated].sort((a, b) => a - b));

    const orange = await walk('colour=orange&sort=payeur&order=desc');
    expect(orange.every((p) => p.colour === 'orange')).toBe(true);
    expect(orange.length).toBe(Math.ceil((ROWS - 4) / 6));
  }, 240_000);

  it('the bulk comment by filter reaches every row the filter keeps, loaded or not, but the ones left out; someone else gets a 404', async () => {
    const first = await get('limit=all&colour=no_date');
    const kept = first.meta.total;
    const left = first.patents[3]!._id;
    const res = await owner.client.put(`/api/brevets/file/${fileId}/comment`, { colour: 'no_date', except: [left], comment: 'checked by Ann' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.updated).toBe(kept - 1);
    const last = await get(`limit=all&colour=no_date&page=${first.meta.totalPages}`);
    expect(last.patents.every((p) => p.commentaire === 'checked by Ann' && p.edited)).toBe(true);
    expect((await get('limit=all&colour=no_date')).patents.find((p) => p._id === left)!.commentaire).toBeNull();
    expect((await get('limit=30&colour=ok')).patents.every((p) => p.commentaire === null)).toBe(true);
    expect((await get('limit=30')).file.export_stale).toBe(true);

    const other = await t.loginAs('user_annuites');
    const refused = await other.client.put(`/api/brevets/file/${fileId}/comment`, { comment: 'nope' });
    expect(refused.status).toBe(404);
  });

  it('a search is read once per version of the file: few matches (by row) and many (by filter) walk like the database says, at once or not, and follow an edit', async () => {
    const { db } = t.portal.ctx;
    const matching = async (needle: string, colour?: string) =>
      rowsOf<{ row: number }>(
        await db.execute(sql`select row_index as row from annuity_patents where file_id = ${fileId} and search_text like ${`%${needle}%`} ${colour ? sql`and colour = ${colour}` : sql``} order by row_index`),
      ).map((r) => Number(r.row));
    // 'ref-1234 d': 8 rows (listed by row index); 'ep1': ~11,000 (past LISTED_MATCHES: filtered on the sort's index).
    for (const [needle, few] of [['ref-1234 d', true], ['ep1', false]] as const) {
      const truth = await matching(needle);
      expect(truth.length <= LISTED_MATCHES, needle).toBe(few);
      for (const query of ['', 'sort=nom&order=desc', 'sort=date_prochaine_annuite&order=desc&colour=ok']) {
        const colour = query.includes('colour=ok') ? 'ok' : undefined;
        const expected = colour ? await matching(needle, colour) : truth;
        const reads = matchReads();
        const rows = await walk(`search=${encodeURIComponent(needle)}&${query}`);
        expect(rows.map((p) => p.row).sort((a, b) => a - b), `${needle} ${query}`).toEqual(expected);
        if (query.startsWith('sort=nom')) for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.nom! >= rows[i]!.nom!).toBe(true);
        // Every window of the walk (and its count) came from one read of the matches.
        expect(matchReads() - reads, `${needle} ${query}`).toBeLessThanOrEqual(1);
      }
    }
    // Twenty asking the same new search at once: one read.
    const reads = matchReads();
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('search=ref-2345%20d&sort=pays&order=desc')));
    expect(matchReads() - reads).toBe(1);
    expect(new Set(answers.map((a) => a.meta.total))).toEqual(new Set([(await matching('ref-2345 d')).length]));

    // An edit that makes a matching row orange: the search with the orange filter lists it at once.
    const orange = async () => (await get('search=ref-1234%20d&colour=orange&limit=100')).patents.map((p) => p.row);
    const before = await orange();
    expect(before).toEqual(await matching('ref-1234 d', 'orange'));
    const target = (await get('search=ref-1234%20d&colour=ok&limit=100')).patents[0]!;
    const edited = await owner.client.put(`/api/brevets/annuite/${target._id}`, { date_precedente_annuite: '2001-03-31', quant_precedent: 4, date_prochaine_annuite: null, limite_date_prochaine_annuite: null });
    expect(edited.status).toBe(200);
    expect(edited.body.patent.colour).toBe('orange');
    const after = await orange();
    expect(after).toEqual([...before, target.row].sort((a, b) => a - b));
    expect(after).toEqual(await matching('ref-1234 d', 'orange'));
  }, 240_000);
});
