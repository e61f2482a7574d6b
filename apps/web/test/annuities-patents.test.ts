import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { ANNUITY_ALL_PAGE_SIZE, type AnnuityFileDto, type AnnuityPatentDto, type AnnuityPatentsResponse, type AnnuityResearchResponse } from '@portal/contracts';
import {
  chunk,
  commentPatentPage,
  dayOrNull,
  FETCH_AHEAD_ROWS,
  filterSelection,
  formatDay,
  moveCount,
  nextSort,
  patchPatentPage,
  patchResearchPage,
  quantPrecedentError,
  selectionState,
  SORT_KEYS,
  sparseRow,
  statusReasons,
  toggleAllShown,
  toggleColour,
  toggleExcept,
  windowsFor,
} from '../src/features/annuities/patentsModel.ts';
import {
  applyBulkComment,
  applyPatentEdit,
  commentFilePatents,
  commentPatents,
  DEFAULT_PATENT_PAGE,
  patentPageQuery,
  cachedWindowIds,
  patentWindowQuery,
} from '../src/features/annuities/patentsApi.ts';
import { queryKeys } from '../src/lib/queryKeys.ts';
import i18next from 'i18next';
import en from '../../../packages/i18n/locales/en/annuities.json' with { type: 'json' };
import fr from '../../../packages/i18n/locales/fr/annuities.json' with { type: 'json' };

const FILE_ID = '00000000-0000-4000-8000-000000000001';
const OTHER_FILE = '00000000-0000-4000-8000-000000000002';
const id = (n: number) => `00000000-0000-4000-8000-${String(100000000000 + n)}`;

function patent(n: number, over: Partial<AnnuityPatentDto> = {}): AnnuityPatentDto {
  return {
    _id: id(n),
    file_id: FILE_ID,
    row: n,
    sheet: 'S',
    row_number: n + 2,
    num_publication: `FR${n}`,
    num_depot: null,
    reference: `REF-${n}`,
    nom: 'Name',
    pays: 'FR',
    payeur: null,
    url: null,
    publié: null,
    dechu: false,
    missed_number: null,
    missed_lost_after: null,
    expired: false,
    in_grace_with_surcharge: false,
    office: 'FR',
    origin: null,
    date_depot: '2018-03-15',
    mois_date_depot: 3,
    date_precedente_annuite: '2025-03-31',
    quant_precedent: 8,
    date_prochaine_annuite: '2026-03-31',
    next_number: 9,
    instruction_limit: null,
    limite_date_prochaine_annuite: '2026-09-30',
    quant_range: { first: 2, last: 20 },
    commentaire: null,
    colour: 'ok',
    reasons: [],
    flags: [],
    fee: null,
    currency: null,
    edited: false,
    ledger: null,
    ...over,
  };
}

function file(over: Partial<AnnuityFileDto> = {}): AnnuityFileDto {
  return {
    _id: FILE_ID,
    title: 'Portfolio',
    name_file_import: 'p.xlsx',
    name_file_export: 'p_export.xlsx',
    created: '2026-11-23T10:00:00.000Z',
    path_import: 'annuities/import/x',
    path_export: 'annuities/export/x',
    is_done: 'Done',
    error_code: null,
    error_message: null,
    rows_done: 3,
    rows_total: 3,
    counts: { ok: 2, nok: 1, orange: 0, no_date: 0 },
    reference_date: '2026-11-23',
    export_stale: false,
    ...over,
  };
}

function page(patents: AnnuityPatentDto[], over: Partial<AnnuityFileDto> = {}): AnnuityPatentsResponse {
  return { success: true, file: file(over), patents, meta: { currentPage: 1, totalPages: 1, pageSize: 30, total: patents.length } };
}

describe('dates', () => {
  // Issue 26 §2, decision 153: days by the page's language (was DD-MM-YYYY in both).
  it('shows a wire day as 01/03/2026 in French and 1 Mar 2026 in English, with no time zone shift, and nothing for empty or bad values', () => {
    expect(formatDay('2026-03-01', 'fr')).toBe('01/03/2026');
    expect(formatDay('1999-12-31', 'fr')).toBe('31/12/1999');
    expect(formatDay('1999-12-31', 'en')).toBe('31\u00A0Dec\u00A01999');
    expect(formatDay(null)).toBe('');
    expect(formatDay(undefined)).toBe('');
    expect(formatDay('2026-3-1')).toBe('');
    expect(formatDay('2026-03-01T00:00:00Z')).toBe('');
  });

  it('turns a date input into the edit body: empty clears (null)', () => {
    expect(dayOrNull('2026-03-01')).toBe('2026-03-01');
    expect(dayOrNull('')).toBeNull();
    expect(dayOrNull('01-03-2026')).toBeNull();
  });
});

describe('sorting and filters', () => {
  it('the previous annuity date column sorts with the spec key date_predecent_annuite', () => {
    expect(SORT_KEYS.date_precedente_annuite).toBe('date_predecent_annuite');
    expect(SORT_KEYS.reference).toBe('reference');
  });

  it('a new column sorts ascending, the same column flips', () => {
    expect(nextSort(null, 'reference')).toEqual({ column: 'reference', order: 'asc' });
    expect(nextSort({ column: 'reference', order: 'asc' }, 'reference')).toEqual({ column: 'reference', order: 'desc' });
    expect(nextSort({ column: 'reference', order: 'desc' }, 'reference')).toEqual({ column: 'reference', order: 'asc' });
    expect(nextSort({ column: 'reference', order: 'desc' }, 'nom')).toEqual({ column: 'nom', order: 'asc' });
  });

  it('clicking the active colour filter clears it', () => {
    expect(toggleColour(null, 'nok')).toBe('nok');
    expect(toggleColour('nok', 'nok')).toBeNull();
    expect(toggleColour('nok', 'ok')).toBe('ok');
  });

  it('the query key follows the parameters, "all" is always page 1, and the default page is the modal’s first', () => {
    const a = patentPageQuery(FILE_ID, { ...DEFAULT_PATENT_PAGE, limit: 'all', page: 4, search: '  x ' });
    expect(a.queryKey).toEqual(queryKeys.annuities.patentPage(FILE_ID, { page: 1, limit: 'all', search: 'x', sort: '', order: 'asc', colour: '' }));
    expect(DEFAULT_PATENT_PAGE).toMatchObject({ page: 1, limit: 30, search: '', sort: null, colour: null });
  });
});

describe('selection', () => {
  it('chunks ids in calls of at most the bulk maximum', () => {
    const ids = Array.from({ length: 4001 }, (_, i) => String(i));
    const parts = chunk(ids, 2000);
    expect(parts.map((p) => p.length)).toEqual([2000, 2000, 1]);
    expect(parts.flat()).toEqual(ids);
    expect(chunk([], 2000)).toEqual([]);
    expect(() => chunk(ids, 0)).toThrow(RangeError);
  });

  it('sends a large selection in several calls, one after the other, and adds up the counts', async () => {
    const calls: unknown[] = [];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { ids: string[]; comment: string };
      calls.push(body);
      return new Response(JSON.stringify({ success: true, updated: body.ids.length }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    try {
      const ids = Array.from({ length: 5 }, (_, i) => id(i));
      expect(await commentPatents(ids, 'checked', 2)).toBe(5);
      expect(calls).toEqual([
        { ids: ids.slice(0, 2), comment: 'checked' },
        { ids: ids.slice(2, 4), comment: 'checked' },
        { ids: ids.slice(4), comment: 'checked' },
      ]);
      expect(fetchMock.mock.calls.every(([url, init]) => url === '/api/brevets/annuites/many' && init.method === 'PUT')).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('select-all covers the rows shown: all, some, none; a second click clears only them', () => {
    const shown = ['a', 'b', 'c'];
    expect(selectionState(shown, new Set())).toBe('none');
    expect(selectionState(shown, new Set(['b', 'x']))).toBe('some');
    expect(selectionState(shown, new Set(['a', 'b', 'c']))).toBe('all');
    expect(selectionState([], new Set(['a']))).toBe('none');
    const all = toggleAllShown(shown, new Set(['x']));
    expect([...all].sort()).toEqual(['a', 'b', 'c', 'x']);
    expect([...toggleAllShown(shown, all)]).toEqual(['x']);
  });
});

describe('cache patches', () => {
  it('moves one patent between colour counts', () => {
    expect(moveCount({ ok: 2, nok: 1, orange: 0, no_date: 0 }, 'nok', 'orange')).toEqual({ ok: 2, nok: 0, orange: 1, no_date: 0 });
    expect(moveCount({ ok: 0, nok: 0, orange: 0, no_date: 0 }, 'nok', 'ok')).toEqual({ ok: 1, nok: 0, orange: 0, no_date: 0 });
    expect(moveCount(null, 'nok', 'ok')).toBeNull();
  });

  it('an edit replaces the row in place, moves the counts and marks the export stale', () => {
    const before = page([patent(1), patent(2, { colour: 'nok' }), patent(3)]);
    const edited = patent(2, { colour: 'orange', date_prochaine_annuite: null, edited: true });
    const after = patchPatentPage(before, edited, 'nok');
    expect(after.patents.map((p) => p._id)).toEqual(before.patents.map((p) => p._id));
    expect(after.patents[1]).toBe(edited);
    expect(after.patents[0]).toBe(before.patents[0]);
    expect(after.file.counts).toEqual({ ok: 2, nok: 0, orange: 1, no_date: 0 });
    expect(after.file.export_stale).toBe(true);
    expect(before.patents[1]!.colour).toBe('nok');
  });

  it('a page of the same file without the row gets the counts, another file’s page is untouched', () => {
    const other = page([patent(9)]);
    const edited = patent(2, { colour: 'orange' });
    expect(patchPatentPage(other, edited, 'nok').file.counts).toEqual({ ok: 2, nok: 0, orange: 1, no_date: 0 });
    const foreign = page([patent(9, { file_id: OTHER_FILE })], { _id: OTHER_FILE });
    expect(patchPatentPage(foreign, edited, 'nok')).toBe(foreign);
  });

  it('a bulk comment replaces the comments of the selected rows only; empty clears', () => {
    const before = page([patent(1), patent(2, { commentaire: 'old' }), patent(3)]);
    const after = commentPatentPage(before, new Set([id(1), id(2)]), 'Checked by Ann');
    expect(after.patents.map((p) => p.commentaire)).toEqual(['Checked by Ann', 'Checked by Ann', null]);
    expect(commentPatentPage(before, new Set([id(2)]), '').patents[1]!.commentaire).toBeNull();
    expect(commentPatentPage(before, new Set([id(7)]), 'x')).toBe(before);
  });

  it('a research page gets the edited patent', () => {
    const hit = (p: AnnuityPatentDto) => ({ patent: p, file: { _id: FILE_ID, title: null, name_file_import: 'p.xlsx', reference_date: '2026-11-23' } });
    const research: AnnuityResearchResponse = { success: true, data: [hit(patent(1)), hit(patent(2))], meta: { currentPage: 1, totalPages: 1, pageSize: 30, total: 2 } };
    const edited = patent(2, { quant_precedent: 9 });
    expect(patchResearchPage(research, edited).data[1]!.patent).toBe(edited);
    expect(patchResearchPage(research, patent(5))).toBe(research);
  });

  it('patches every cached page of the file and every research page through the query client, without refetching', async () => {
    const client = new QueryClient();
    const params = (p: number) => ({ page: p, limit: 30 as const, search: '', sort: '', order: 'asc' as const, colour: '' });
    client.setQueryData(queryKeys.annuities.patentPage(FILE_ID, params(1)), page([patent(1), patent(2, { colour: 'nok' })]));
    client.setQueryData(queryKeys.annuities.patentPage(FILE_ID, params(2)), page([patent(3)]));
    client.setQueryData(queryKeys.annuities.patentPage(FILE_ID, { ...params(1), colour: 'nok' }), page([patent(2, { colour: 'nok' })]));
    const researchKey = queryKeys.annuities.research({ q: 'ref', page: 1, limit: 30 });
    client.setQueryData(researchKey, {
      success: true,
      data: [{ patent: patent(2, { colour: 'nok' }), file: { _id: FILE_ID, title: null, name_file_import: 'p.xlsx', reference_date: null } }],
      meta: { currentPage: 1, totalPages: 1, pageSize: 30, total: 1 },
    } satisfies AnnuityResearchResponse);
    const edited = patent(2, { colour: 'ok', date_prochaine_annuite: '2027-03-31' });
    await applyPatentEdit(client, edited, 'nok');
    const p1 = client.getQueryData<AnnuityPatentsResponse>(queryKeys.annuities.patentPage(FILE_ID, params(1)))!;
    expect(p1.patents[1]).toEqual(edited);
    expect(p1.file.counts).toEqual({ ok: 3, nok: 0, orange: 0, no_date: 0 });
    expect(client.getQueryData<AnnuityPatentsResponse>(queryKeys.annuities.patentPage(FILE_ID, params(2)))!.file.counts).toEqual({ ok: 3, nok: 0, orange: 0, no_date: 0 });
    // The filtered page keeps the row where it was, in its new colour.
    expect(client.getQueryData<AnnuityPatentsResponse>(queryKeys.annuities.patentPage(FILE_ID, { ...params(1), colour: 'nok' }))!.patents[0]!.colour).toBe('ok');
    expect(client.getQueryData<AnnuityResearchResponse>(researchKey)!.data[0]!.patent).toEqual(edited);

    await applyBulkComment(client, FILE_ID, new Set([id(1), id(3)]), 'Paid');
    expect(client.getQueryData<AnnuityPatentsResponse>(queryKeys.annuities.patentPage(FILE_ID, params(1)))!.patents.map((p) => p.commentaire)).toEqual(['Paid', null]);
    expect(client.getQueryData<AnnuityPatentsResponse>(queryKeys.annuities.patentPage(FILE_ID, params(2)))!.patents[0]!.commentaire).toBe('Paid');
  });
});

describe('#25 the previous annuity number in the edit modal: the range the server sent with the patent', () => {
  it('accepts a cleared field and whole numbers of the range; refuses first − 1, 21, 999, fractions and text', () => {
    const fr = { first: 2, last: 20 };
    expect(['', 2, '2', 20, 9].map((v) => quantPrecedentError(v, fr))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect([1, 21, 999, 0, 7.5, 'x', '-3'].map((v) => quantPrecedentError(v, fr))).toEqual(Array(7).fill('quant_range'));
    // GB starts at 5: 4 is refused there, allowed for FR.
    expect(quantPrecedentError(4, { first: 5, last: 20 })).toBe('quant_range');
    expect(quantPrecedentError(4, fr)).toBeUndefined();
  });
});

describe('every row says why it has its status (issue 26)', () => {
  const texts = async (lang: 'en' | 'fr', p: AnnuityPatentDto) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: lang, ns: ['annuities'], defaultNS: 'annuities', resources: { en: { annuities: en }, fr: { annuities: fr } }, interpolation: { escapeValue: false } });
    return statusReasons(p, lang).map((r) => i18n.t(r.key, { ...r.values, ...(r.defaultValue === undefined ? {} : { defaultValue: r.defaultValue }) }));
  };

  it('a lapsed row names the annuity missed and the day its grace ended (the engine\'s, as stored)', async () => {
    const lapsed = patent(1, { dechu: true, colour: 'orange', missed_number: 8, missed_lost_after: '2025-09-30', date_prochaine_annuite: null, next_number: null });
    expect(statusReasons(lapsed, 'en')).toEqual([{ key: 'patents.lapsedMissed', values: { number: 8, date: '30\u00a0Sep\u00a02025' } }]);
    expect(statusReasons(lapsed, 'fr')).toEqual([{ key: 'patents.lapsedMissed', values: { number: 8, date: '30/09/2025' } }]);
    expect(await texts('en', lapsed)).toEqual(['Lapsed: annuity 8 was not paid and its grace period ended on 30\u00a0Sep\u00a02025']);
    expect(await texts('fr', lapsed)).toEqual(['Déchu\u00a0: l’annuité 8 n’a pas été payée et son délai de grâce a pris fin le 30/09/2025']);
  });

  it('a lapsed row stored before the missed annuity was kept still says it lapsed', () => {
    expect(statusReasons(patent(1, { dechu: true, colour: 'no_date' }))).toEqual([{ key: 'patents.lapsedUnknown' }]);
  });

  it('a row without a number or a country says so, in both languages', async () => {
    const bare = patent(2, { colour: 'no_date', pays: null, num_publication: null, reasons: ['empty_number', 'missing_country'], date_prochaine_annuite: null, date_precedente_annuite: null });
    expect(await texts('en', bare)).toEqual(['Number missing', 'Country missing']);
    expect(await texts('fr', bare)).toEqual(['Numéro manquant', 'Pays manquant']);
  });

  it('no row without a date has an empty list', () => {
    expect(statusReasons(patent(3, { colour: 'no_date', reasons: [] }))).toEqual([{ key: 'patents.noDateUnknown' }]);
    expect(statusReasons(patent(4))).toEqual([]);
  });
});

describe('"All": a virtualized table fed window by window (decision 178)', () => {
  const windowOf = (n: number, total: number, size = 250): AnnuityPatentsResponse => ({
    ...page(Array.from({ length: Math.min(size, total - (n - 1) * size) }, (_, i) => patent((n - 1) * size + i))),
    meta: { currentPage: n, totalPages: Math.ceil(total / size), pageSize: size, total },
  });

  it('asks the server for any window n of limit=all with the search, sort and filter, each cached under its own key', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const n = Number(new URL(url, 'http://x').searchParams.get('page'));
        return new Response(JSON.stringify(windowOf(n, 40_000)), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    try {
      const params = { search: ' ep ', sort: 'date_prochaine_annuite', order: 'desc', colour: 'nok' } as const;
      const options = patentWindowQuery(FILE_ID, params, 160);
      const keyParams = { page: 1, limit: 'all', search: 'ep', sort: 'date_prochaine_annuite', order: 'desc', colour: 'nok' } as const;
      expect(options.queryKey).toEqual(queryKeys.annuities.patentWindow(FILE_ID, keyParams, 160));
      // Under the prefix of the file's pages (edits patch it) and of this search's windows.
      expect(options.queryKey.slice(0, 3)).toEqual(queryKeys.annuities.patents(FILE_ID));
      expect(options.queryKey.slice(0, 5)).toEqual(queryKeys.annuities.patentWindows(FILE_ID, keyParams));
      expect(patentWindowQuery(FILE_ID, params, 2).queryKey).not.toEqual(options.queryKey);
      const client = new QueryClient();
      // The last window straight away: no window in between is asked for.
      const last = await client.fetchQuery(options);
      expect(last.meta.currentPage).toBe(160);
      expect(last.patents[last.patents.length - 1]!.row).toBe(39_999);
      expect(urls).toHaveLength(1);
      expect(Object.fromEntries(new URL(urls[0]!, 'http://x').searchParams)).toEqual({
        page: '160',
        limit: 'all',
        search: 'ep',
        sort: 'date_prochaine_annuite',
        order: 'desc',
        colour: 'nok',
      });
      await client.fetchQuery(patentWindowQuery(FILE_ID, params, 1));
      expect(cachedWindowIds(client, FILE_ID, params)).toHaveLength(500);
      expect(cachedWindowIds(client, FILE_ID, { ...params, colour: null })).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('the rows in the DOM (about 34) and those ahead fit in two windows of the server\'s size, wherever they start', () => {
    for (let first = 0; first < 3 * ANNUITY_ALL_PAGE_SIZE; first++) {
      expect(windowsFor(first, first + 33, ANNUITY_ALL_PAGE_SIZE, 100_000).length, `rows ${first}..${first + 33}`).toBeLessThanOrEqual(2);
    }
  });

  it('the windows covering rows a..b, FETCH_AHEAD_ROWS more on either side, within the total', () => {
    expect(windowsFor(0, 30, 250, 40_000)).toEqual([1]);
    expect(windowsFor(0, 249 - FETCH_AHEAD_ROWS, 250, 40_000)).toEqual([1]);
    expect(windowsFor(0, 250 - FETCH_AHEAD_ROWS, 250, 40_000)).toEqual([1, 2]);
    // A jump to the end: the last window only (rows 39,750..39,999), none in between.
    expect(windowsFor(39_960, 39_999, 250, 40_000)).toEqual([160]);
    expect(windowsFor(39_700, 39_760, 250, 40_000)).toEqual([159, 160]);
    // A jump to the middle.
    expect(windowsFor(20_100, 20_140, 250, 40_000)).toEqual([81]);
    expect(windowsFor(20_000 + FETCH_AHEAD_ROWS - 1, 20_100, 250, 40_000)).toEqual([80, 81]);
    expect(windowsFor(20_000 + FETCH_AHEAD_ROWS, 20_100, 250, 40_000)).toEqual([81]);
    // Never past the total (a short last window), nothing for an empty result.
    expect(windowsFor(19_990, 19_999, 250, 20_000, 0)).toEqual([80]);
    expect(windowsFor(0, 74, 250, 75)).toEqual([1]);
    expect(windowsFor(0, 0, 250, 0)).toEqual([]);
    expect(windowsFor(5, 4, 250, 1_000)).toEqual([]);
  });

  it('row i of the sparse windows: loaded rows by their absolute index, undefined while their window is not', () => {
    const windows = new Map([
      [1, windowOf(1, 20_000).patents],
      [80, windowOf(80, 20_000).patents],
    ]);
    expect(sparseRow(windows, 250, 0)!.row).toBe(0);
    expect(sparseRow(windows, 250, 249)!.row).toBe(249);
    expect(sparseRow(windows, 250, 250)).toBeUndefined();
    expect(sparseRow(windows, 250, 10_000)).toBeUndefined();
    expect(sparseRow(windows, 250, 19_750)!.row).toBe(19_750);
    expect(sparseRow(windows, 250, 19_999)!.row).toBe(19_999);
    expect(sparseRow(windows, 250, 20_000)).toBeUndefined();
    expect(sparseRow(windows, 250, -1)).toBeUndefined();
  });

  it('select-all covers every row of the filter, loaded or not; a row unticked after is left out and counted out', () => {
    const all = filterSelection(new Set(), 40_000);
    expect(all.size).toBe(40_000);
    expect(all.has(id(39_999))).toBe(true);
    expect(selectionState([id(1), id(2)], all)).toBe('all');
    const except = toggleExcept(new Set(), id(2));
    const some = filterSelection(except, 40_000);
    expect(some.size).toBe(39_999);
    expect(some.has(id(2))).toBe(false);
    expect(selectionState([id(1), id(2)], some)).toBe('some');
    expect(toggleExcept(except, id(2)).size).toBe(0);
  });

  it('the bulk comment of a select-all sends the filter and the rows left out, not the ids', async () => {
    const bodies: Array<{ url: string; method: string | undefined; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        bodies.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ success: true, updated: 39_999 }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    try {
      expect(await commentFilePatents(FILE_ID, { search: ' ep ', colour: 'nok', except: [id(2)] }, 'checked')).toBe(39_999);
      expect(await commentFilePatents(FILE_ID, { search: '', colour: null, except: [] }, '')).toBe(39_999);
      expect(bodies).toEqual([
        { url: `/api/brevets/file/${FILE_ID}/comment`, method: 'PUT', body: { search: 'ep', colour: 'nok', except: [id(2)], comment: 'checked' } },
        { url: `/api/brevets/file/${FILE_ID}/comment`, method: 'PUT', body: { except: [], comment: '' } },
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('an edit and a bulk comment patch each loaded window in place, wherever it is', async () => {
    const client = new QueryClient();
    const params = { page: 1, limit: 'all', search: '', sort: '', order: 'asc', colour: '' } as const;
    const keys = [1, 2, 3].map((n) => queryKeys.annuities.patentWindow(FILE_ID, params, n));
    // Windows 1 and 3 loaded (a jump), not 2.
    client.setQueryData(keys[0]!, windowOf(1, 600));
    client.setQueryData(keys[2]!, windowOf(3, 600));
    await applyBulkComment(client, FILE_ID, new Set([id(3), id(510)]), 'seen');
    await applyPatentEdit(client, patent(511, { colour: 'nok', edited: true }), 'ok');
    const windows = keys.map((k) => client.getQueryData<AnnuityPatentsResponse>(k));
    expect(windows[1]).toBeUndefined();
    const rows = [windows[0]!, windows[2]!].flatMap((p) => p.patents);
    expect(rows.filter((p) => p.commentaire === 'seen').map((p) => p.row)).toEqual([3, 510]);
    expect(rows.find((p) => p.row === 511)!.colour).toBe('nok');
    expect(windows[2]!.patents).toHaveLength(100);
    expect([windows[0]!, windows[2]!].every((p) => p.file.export_stale)).toBe(true);
  });

  it.each(['en', 'fr'] as const)('says a row is loading and what select-all covers (%s)', async (lang) => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: lang, ns: ['annuities'], defaultNS: 'annuities', resources: { en: { annuities: en }, fr: { annuities: fr } }, interpolation: { escapeValue: false } });
    const loading = i18n.t('patents.loadingRow');
    const selectAll = i18n.t('patents.selectAllMatching', { count: 40_000 });
    if (lang === 'en') {
      expect(loading).toBe('Loading…');
      expect(selectAll).toBe('Select all 40,000 patents of this list (loaded or not)');
    } else {
      expect(loading).toBe('Chargement…');
      expect(selectAll).toBe('Sélectionner les 40\u202f000 brevets de cette liste (chargés ou non)');
    }
  });
});
