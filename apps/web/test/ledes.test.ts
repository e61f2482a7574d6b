import { describe, expect, it } from 'vitest';
import type { HistoryItem, LedesRunDto } from '@portal/contracts';
import {
  addFiles,
  clientDecision,
  displayLine,
  filenameFromDisposition,
  firstUploadError,
  flattenFindings,
  formatFindingValue,
  hasLedesExtension,
  lastSegment,
  lineRanges,
  mergeRun,
  PAGE_SIBLINGS,
  parseRunIds,
  patchHistoryRows,
  resultPath,
  runStatus,
  splitHistoryName,
  statusBadge,
} from '../src/features/ledes/model.ts';

const ID1 = '0b7e5c1e-4c57-4d3f-9d0b-1f1f7f0f0a01';
const ID2 = '0b7e5c1e-4c57-4d3f-9d0b-1f1f7f0f0a02';

describe('history names', () => {
  // The day stays a server day (YYYY-MM-DD); the screen writes it in the page's language (decision 153).
  it('takes the date from parts 1-3 (as YYYY-MM-DD) and the label from the 7th part onward', () => {
    expect(splitHistoryName('2026_03_07_14_05_09_invoice.txt')).toEqual({ date: '2026-03-07', label: 'invoice.txt' });
    expect(splitHistoryName('2026_03_07_14_05_09_my_invoice_v2.txt')).toEqual({ date: '2026-03-07', label: 'my_invoice_v2.txt' });
  });
  it('keeps an unexpected name whole', () => {
    expect(splitHistoryName('invoice.txt')).toEqual({ date: '', label: 'invoice.txt' });
    expect(splitHistoryName('a_b_c_d_e_f')).toEqual({ date: '', label: 'a_b_c_d_e_f' });
  });
});

describe('line numbers', () => {
  it('shows numeric lines as value + 1 and keeps file / header', () => {
    expect(displayLine(0)).toBe(1);
    expect(displayLine(41)).toBe(42);
    expect(displayLine('file')).toBe('file');
    expect(displayLine('header')).toBe('header');
  });
  it('summarises correct lines as displayed ranges', () => {
    expect(lineRanges([0, 1, 2, 4, 6, 7])).toEqual({ text: '1–3, 5, 7–8', truncated: false });
    expect(lineRanges([])).toEqual({ text: '', truncated: false });
    expect(lineRanges([0, 2, 4, 6], 2)).toEqual({ text: '1, 3', truncated: true });
  });
  it('flattens findings with file and header first', () => {
    const item = (code: string) => ({ _id: code, code_ledes: code, champ: 'X', libelle_en: 'en', libelle_fr: 'fr' });
    const rows = flattenFindings([
      { line: 3, items: [item('A'), item('B')] },
      { line: 'header', items: [item('H')] },
      { line: 'file', items: [item('F')] },
    ]);
    expect(rows.map((r) => [r.line, r.code_ledes])).toEqual([
      ['file', 'F'],
      ['header', 'H'],
      [3, 'A'],
      [3, 'B'],
    ]);
  });
});

describe('run state → badge', () => {
  it('maps states and verdicts', () => {
    expect(statusBadge({ state: 'in_progress', accepted: null })).toEqual({ status: 'in_progress', color: 'orange' });
    expect(statusBadge({ state: 'Done', accepted: true })).toEqual({ status: 'accepted', color: 'teal' });
    expect(statusBadge({ state: 'Done', accepted: false })).toEqual({ status: 'refused', color: 'red' });
    expect(statusBadge({ state: 'Error', accepted: null })).toEqual({ status: 'error', color: 'red' });
  });
  it('falls back to the error count when the verdict is missing', () => {
    expect(runStatus({ state: 'Done', error_count: 2 })).toBe('refused');
    expect(runStatus({ state: 'Done', error_count: 0 })).toBe('accepted');
  });
});

describe('upload checks', () => {
  const base = { files: [{}], type: 'patent', office: 'PAR', isAdmin: false, userId: null };
  it('follows the spec order: file, type, office, user', () => {
    expect(firstUploadError({ ...base, files: [], type: null, office: null, isAdmin: true })).toBe('error_file');
    expect(firstUploadError({ ...base, type: null, office: null, isAdmin: true })).toBe('missing_type');
    expect(firstUploadError({ ...base, type: 'invoice' })).toBe('missing_type');
    expect(firstUploadError({ ...base, office: null, isAdmin: true })).toBe('missing_office');
    expect(firstUploadError({ ...base, isAdmin: true })).toBe('missing_id_user');
    expect(firstUploadError({ ...base, isAdmin: true, userId: 'u1' })).toBeNull();
    expect(firstUploadError(base)).toBeNull();
  });
  it('accepts the LEDES extensions in any case', () => {
    expect(hasLedesExtension('a.txt')).toBe(true);
    expect(hasLedesExtension('A.LEDES')).toBe(true);
    expect(hasLedesExtension('b.Xml')).toBe(true);
    expect(hasLedesExtension('c.lds')).toBe(true);
    expect(hasLedesExtension('d.xlsx')).toBe(false);
    expect(hasLedesExtension('txt')).toBe(false);
  });
  it('adds files without duplicates, refuses wrong extensions and caps the list', () => {
    const f = (name: string, size = 10) => ({ name, size, lastModified: 1 });
    const first = addFiles([], [f('a.txt'), f('b.xlsx'), f('a.txt')]);
    expect(first.files.map((x) => x.name)).toEqual(['a.txt']);
    expect(first.wrongExtension).toEqual(['b.xlsx']);
    const many = addFiles(first.files, Array.from({ length: 12 }, (_, i) => f(`f${i}.txt`)));
    expect(many.files).toHaveLength(10);
    expect(many.overflow).toHaveLength(3);
  });
  it('asks for a client only when there are several', () => {
    expect(clientDecision(undefined)).toEqual({ kind: 'none' });
    expect(clientDecision([])).toEqual({ kind: 'none' });
    expect(clientDecision(['C1'])).toEqual({ kind: 'single', idClient: 'C1' });
    expect(clientDecision(['C1', 'C1', ' '])).toEqual({ kind: 'single', idClient: 'C1' });
    expect(clientDecision(['C1', 'C2'])).toEqual({ kind: 'choose', idClients: ['C1', 'C2'] });
  });
});

describe('result page parameters', () => {
  it('keeps distinct uuids only', () => {
    expect(parseRunIds(`${ID1},${ID2},${ID1},nope`)).toEqual([ID1, ID2]);
    expect(parseRunIds(null)).toEqual([]);
    expect(parseRunIds('')).toEqual([]);
    expect(resultPath([ID1, ID2])).toBe(`/result-ledes?runs=${ID1},${ID2}`);
  });
  it('uses a 7-page window', () => {
    expect(PAGE_SIBLINGS * 2 + 1).toBe(7);
  });
});

describe('downloads', () => {
  it('reads the Content-Disposition file name', () => {
    expect(filenameFromDisposition(`attachment; filename="a_treated.xlsx"; filename*=UTF-8''r%C3%A9sum%C3%A9_treated.xlsx`, 'x')).toBe('résumé_treated.xlsx');
    expect(filenameFromDisposition('attachment; filename="plain.txt"', 'x')).toBe('plain.txt');
    expect(filenameFromDisposition(null, 'fallback.txt')).toBe('fallback.txt');
    expect(lastSegment('ledes/original/2026/abc.txt')).toBe('abc.txt');
  });
});

describe('live updates', () => {
  const run = (over: Partial<LedesRunDto>): LedesRunDto => ({
    _id: ID1,
    name: 'n',
    filename: 'f.txt',
    state: 'in_progress',
    accepted: null,
    lines_checked: 0,
    office: 'PAR',
    type: 'patent',
    owner_id: 'u',
    created: '2026-01-01T00:00:00Z',
    finished: null,
    delivered: false,
    treated: false,
    error_code: null,
    ...over,
  });
  it('moves forward only', () => {
    expect(mergeRun(run({ lines_checked: 5 }), run({ lines_checked: 9 })).lines_checked).toBe(9);
    expect(mergeRun(run({ lines_checked: 9 }), run({ lines_checked: 5 })).lines_checked).toBe(9);
    const done = run({ state: 'Done', accepted: true, lines_checked: 12 });
    expect(mergeRun(run({}), done)).toEqual(done);
    expect(mergeRun(done, run({ lines_checked: 3 }))).toBe(done);
    expect(mergeRun(done, run({ _id: ID2, state: 'Error' }))).toBe(done);
  });
  it('patches the listed history row', () => {
    const row = { _id: ID1, state: 'in_progress', accepted: null, delivered: false } as unknown as HistoryItem;
    const other = { _id: ID2, state: 'Done', accepted: true } as unknown as HistoryItem;
    const { rows, found } = patchHistoryRows([row, other], run({ state: 'Done', accepted: false }));
    expect(found).toBe(true);
    expect(rows[0]).toMatchObject({ state: 'Done', accepted: false });
    expect(rows[1]).toBe(other);
    expect(patchHistoryRows([other], run({})).found).toBe(false);
  });
});

describe('finding values on screen', () => {
  it('amounts and counts in the reader\'s number format with exactly their decimals; codes as they are', () => {
    expect(formatFindingValue('715.50', 'en')).toEqual({ kind: 'number', text: '715.50' });
    expect(formatFindingValue('1234.5', 'fr').text.replace(/\s/g, ' ')).toBe('1 234,5');
    expect(formatFindingValue('-10.50', 'fr').text).toMatch(/^-10,50$/);
    expect(formatFindingValue('24', 'en')).toEqual({ kind: 'number', text: '24' });
    expect(formatFindingValue('P210', 'en')).toEqual({ kind: 'text', text: 'P210' });
    // Too many digits to show exactly as a number: kept as written.
    expect(formatFindingValue('12345678901234567.5', 'en')).toEqual({ kind: 'text', text: '12345678901234567.5' });
  });
});
