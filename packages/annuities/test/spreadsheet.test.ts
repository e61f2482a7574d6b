import { PassThrough } from 'node:stream';
import XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate, type Day } from '../src/calendar.ts';
import { checkSpreadsheet } from '../src/check.ts';
import { evaluateRow } from '../src/evaluate.ts';
import { splitBiff8 } from '../src/spreadsheet/biff-split.ts';
import { cellDate, fieldOfHeader, matchColumns } from '../src/spreadsheet/columns.ts';
import { inspectSpreadsheet } from '../src/spreadsheet/guard.ts';
import { DEFAULT_LIMITS } from '../src/spreadsheet/limits.ts';
import { readAllRows, readSpreadsheet } from '../src/spreadsheet/read.ts';
import type { SheetRow } from '../src/spreadsheet/rows.ts';
import { COMPUTED_COLUMNS } from '../src/spreadsheet/write-export.ts';
import { ENGLISH_HEADERS, FRENCH_HEADERS, rowsFrom, xlsBuffer, xlsxBuffer, type Cell } from './support/workbooks.ts';

const TODAY = parseIsoDate('2026-11-21') as Day;

describe('header matching, French and English', () => {
  it.each([
    ['N° de publication', 'publication'],
    ['num_publication', 'publication'],
    ['Publication Number', 'publication'],
    ['NUMÉRO DE DÉPÔT', 'application'],
    ['num_depot', 'application'],
    ['Application no.', 'application'],
    ['Deposit number', 'application'],
    ['Référence client', 'reference'],
    ['Titre', 'title'],
    ['Name', 'title'],
    ['  pays ', 'country'],
    ['Country', 'country'],
    ['Payeur', 'payer'],
    ['Date de dépôt', 'filingDate'],
    ['date_depot', 'filingDate'],
    ['Filing date', 'filingDate'],
    ['Date de délivrance', 'grantDate'],
    ['Grant date', 'grantDate'],
    ['Dernière annuité payée', 'lastPaid'],
    ['Last annuity paid', 'lastPaid'],
    ['quant_precedent', 'lastPaid'],
    ['Commentaire', 'comment'],
    ['Comments', 'comment'],
    ['Origine', 'origin'],
    ['Date de publication', null],
  ])('%s → %s', (header, field) => expect(fieldOfHeader(header)).toBe(field));

  it('needs an anchor column', () => {
    expect(matchColumns(['Titre', 'Commentaire'])).toBeNull();
    expect(matchColumns(['Pays', 'Titre'])?.get('country')).toBe(0);
  });
});

describe('dates whatever the cell type', () => {
  it.each<[Cell | boolean, string | null]>([
    [43174, '2018-03-15'],
    [new Date(Date.UTC(2018, 2, 15)), '2018-03-15'],
    ['15/03/2018', '2018-03-15'],
    ['15-03-2018', '2018-03-15'],
    ['15.03.2018', '2018-03-15'],
    ['2018-03-15', '2018-03-15'],
    ['2018-03-15T00:00:00Z', '2018-03-15'],
    ['29/02/2020', '2020-02-29'],
    ['29/02/2019', null],
    ['03/15/2018', null],
    ['demain', null],
    [true, null],
  ])('%s', (value, expected) => {
    const d = cellDate(value, false);
    expect(d === null ? null : formatIsoDate(d)).toBe(expected);
  });

  it('1904 date system', () => expect(formatIsoDate(cellDate(41712, true) as Day)).toBe('2018-03-15'));
});

async function exportBytes(bytes: Buffer, name: string): Promise<{ out: Buffer; summary: Awaited<ReturnType<typeof checkSpreadsheet>> }> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const summary = await checkSpreadsheet(bytes, name, { today: TODAY, out: stream });
  stream.end();
  return { out: Buffer.concat(chunks), summary };
}

describe('round trips', () => {
  const ROWS = 400;

  it('xlsx with French headers: rows typed, export annotated', async () => {
    const input = await xlsxBuffer([{ name: 'Annuités', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
    const read = await readAllRows(input, 'fr.xlsx');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.rows).toHaveLength(ROWS);
    const first = read.value.rows[0];
    expect(first?.country).toBe('FR');
    expect(formatIsoDate(first?.filingDate as Day)).toBe('2006-01-01');
    expect(read.value.rows.every((r) => r.filingDate !== null)).toBe(true);

    const { out, summary } = await exportBytes(input, 'fr.xlsx');
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    expect(summary.value.rows).toBe(ROWS);
    const { ok, nok, orange, no_date } = summary.value.colours;
    expect(ok + nok + orange + no_date).toBe(ROWS);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Annuités', 'Légende - Legend']);
    const ws = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = ws.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([...FRENCH_HEADERS, ...COMPUTED_COLUMNS]);
    const colourColumn = FRENCH_HEADERS.length + COMPUTED_COLUMNS.indexOf('Couleur / Colour') + 1;
    const fills: Record<string, string> = { ok: 'FFC6EFCE', nok: 'FFFFC7CE', orange: 'FFFFD8A8', no_date: 'FFEDEDED' };
    for (let r = 2; r <= 40; r++) {
      const row = ws.getRow(r);
      const colour = String(row.getCell(colourColumn).value);
      const fill = row.getCell(1).fill as ExcelJS.FillPattern;
      expect(fill.fgColor?.argb).toBe(fills[colour]);
      expect(row.getCell(7).numFmt).toBe('dd-mm-yyyy');
    }
    const nextDateColumn = FRENCH_HEADERS.length + COMPUTED_COLUMNS.indexOf('date_prochaine_annuite') + 1;
    const green = ws.getRows(2, ROWS)?.find((r) => r.getCell(colourColumn).value === 'ok');
    expect(green?.getCell(nextDateColumn).value).toBeInstanceOf(Date);
    expect(green?.getCell(nextDateColumn).numFmt).toBe('dd-mm-yyyy');
  });

  it('xls with English headers over two sheets, and the export reads back through SheetJS', async () => {
    const input = xlsBuffer([
      { name: 'Patents 1', headers: ENGLISH_HEADERS, rows: rowsFrom(0, ROWS / 2) },
      { name: 'Patents 2', headers: ENGLISH_HEADERS, rows: rowsFrom(ROWS / 2, ROWS / 2) },
    ]);
    const read = await readAllRows(input, 'en.xls');
    expect(read.ok && read.value.stats).toMatchObject({ format: 'xls', sheets: 2, rows: ROWS });
    const { out, summary } = await exportBytes(input, 'en.xls');
    expect(summary.ok).toBe(true);
    const wb = XLSX.read(out, { type: 'buffer' });
    expect(wb.SheetNames).toEqual(['Patents 1', 'Patents 2', 'Légende - Legend']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets['Patents 1'] as XLSX.WorkSheet, { header: 1, raw: false });
    expect(rows).toHaveLength(ROWS / 2 + 1);
    expect(String((rows[1] as unknown[])[6])).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  });

  it('the same rows read identically from xlsx and xls', async () => {
    const sheets = [{ name: 'S', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 60)] }];
    const a = await readAllRows(await xlsxBuffer(sheets), 'a.xlsx');
    const b = await readAllRows(xlsBuffer(sheets), 'b.xls');
    if (!a.ok || !b.ok) throw new Error('read failed');
    const pick = (r: (typeof a.value.rows)[number]) => [r.publication, r.application, r.country, r.filingDate, r.grantDate, r.lastPaid, r.comment];
    expect(a.value.rows.map(pick)).toEqual(b.value.rows.map(pick));
  });

  it('a title row above the headers and a sheet without headers are tolerated', async () => {
    const input = await xlsxBuffer([
      { name: 'Notes', headers: ['Rien à voir'], rows: [['texte']] },
      { name: 'Brevets', headers: ['Portefeuille 2026'], rows: [[null], FRENCH_HEADERS, ...rowsFrom(0, 5)] },
    ]);
    const read = await readAllRows(input, 't.xlsx');
    expect(read.ok && read.value.stats).toMatchObject({ sheets: 1, rows: 5, skippedSheets: ['Notes'] });
  });

  it('announces the rows to expect before the first sheet (xlsx: one header row less per sheet); xls does not know', async () => {
    const sheets = [
      { name: 'A', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 120)] },
      { name: 'B', headers: FRENCH_HEADERS, rows: [...rowsFrom(120, 30)] },
    ];
    const seen: string[] = [];
    const visitor = {
      expected: (rows: number) => void seen.push(`expected ${rows}`),
      sheet: () => void seen.push('sheet'),
      row: () => undefined,
    };
    const read = await readSpreadsheet(await xlsxBuffer(sheets), 'two.xlsx', visitor);
    expect(read.ok).toBe(true);
    expect(seen.slice(0, 2)).toEqual(['expected 150', 'sheet']);
    seen.length = 0;
    expect((await readSpreadsheet(xlsBuffer(sheets), 'two.xls', visitor)).ok).toBe(true);
    expect(seen.filter((s) => s.startsWith('expected'))).toEqual([]);
  });

  it('a workbook without any known header is refused with a reason', async () => {
    const input = await xlsxBuffer([{ name: 'S', headers: ['a', 'b'], rows: [['1', '2']] }]);
    const r = await checkSpreadsheet(input, 'x.xlsx', { today: TODAY });
    expect(r).toMatchObject({ ok: false, reason: 'headers_not_found' });
  });

  it('unreadable cells become reason codes on the row, not failures', async () => {
    const input = await xlsxBuffer([{ name: 'S', headers: FRENCH_HEADERS, rows: [['n/a', null, 'R', 'T', 'FR', null, 'bientôt', null, 'six', null]] }]);
    const r = await checkSpreadsheet(input, 'x.xlsx', { today: TODAY });
    expect(r.ok && [...r.value.reasons.keys()].sort()).toEqual(['invalid_date', 'invalid_last_paid', 'unreadable_number']);
    expect(r.ok && r.value.colours.no_date).toBe(1);
  });
});

describe('review flags in the export', () => {
  it('a grant on the filing anniversary is flagged in the Reasons column, and the legend says what the flag means', async () => {
    const input = await xlsxBuffer([
      { name: 'Flags', headers: [...ENGLISH_HEADERS, 'Origin'], rows: [[null, null, 'ANNIV', 'On the anniversary', 'FR', null, '15/03/2018', '15/03/2023', null, null, 'ep_validated']] },
    ]);
    const { out, summary } = await exportBytes(input, 'flags.xlsx');
    expect(summary.ok).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0] as ExcelJS.Worksheet;
    const reasonsColumn = ENGLISH_HEADERS.length + 1 + COMPUTED_COLUMNS.length;
    expect(String(sheet.getRow(2).getCell(reasonsColumn).value)).toContain('grant_on_anniversary');
    const legend = wb.worksheets[1] as ExcelJS.Worksheet;
    const line = legend.getRows(1, legend.rowCount)?.find((r) => r.getCell(1).value === 'grant_on_anniversary');
    expect(String(line?.getCell(2).value)).toMatch(/anniversaire/);
    expect(String(line?.getCell(3).value)).toMatch(/anniversary/);
  });
});

describe('xlsx parts in any order', () => {
  it('a workbook with its worksheets before its shared strings (as Excel writes them) is read whole (exceljs once gave no rows for it: decision 240)', async () => {
    const input = await xlsxBuffer([{ name: 'Cases', headers: ENGLISH_HEADERS, rows: rowsFrom(0, 50) }]);
    const inspection = await inspectSpreadsheet(input, 'cases.xlsx', DEFAULT_LIMITS);
    expect(inspection.ok).toBe(true);
    if (!inspection.ok) return;
    const original = inspection.value.parts.map((p) => p.name);
    // The case of the defect: the sheet comes first in the file.
    expect(original.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(original.indexOf('xl/sharedStrings.xml'));
    const read = await readAllRows(input, 'cases.xlsx');
    expect(read.ok && read.value.rows.map((r) => r.reference)).toEqual([...rowsFrom(0, 50)].map((r) => String(r[2])));
  });
});

describe('xls read one sheet at a time', () => {
  it('splits a BIFF8 workbook into single-sheet streams that SheetJS reads like the whole file', () => {
    const bytes = xlsBuffer([
      { name: 'Première', headers: ENGLISH_HEADERS, rows: rowsFrom(0, 2500) },
      { name: 'Second', headers: FRENCH_HEADERS, rows: rowsFrom(2500, 20) },
    ]);
    const container = XLSX.CFB.read(bytes, { type: 'buffer' });
    const stream = Buffer.from(XLSX.CFB.find(container, '/Workbook')?.content as Uint8Array);
    const split = splitBiff8(stream, 7);
    const counts: number[] = [];
    expect(split.kind).toBe('split');
    if (split.kind !== 'split') return;
    expect(split.sheets.map((s) => s.name)).toEqual(['Première', 'Second']);
    const whole = XLSX.read(bytes, { type: 'buffer', dense: true });
    const parse = (XLSX as unknown as { parse_xlscfb: (d: Buffer, o: XLSX.ParsingOptions) => XLSX.WorkBook }).parse_xlscfb;
    const values = (rows: XLSX.CellObject[][] | undefined, into: Map<number, unknown[]>) =>
      rows?.forEach((row, r) => row && into.set(r, row.map((c) => c?.v)));
    for (const sheet of split.sheets) {
      const fromPieces = new Map<number, unknown[]>();
      let count = 0;
      for (const piece of sheet.pieces()) {
        const single = parse(piece, { type: 'buffer', dense: true });
        expect(single.SheetNames).toEqual([sheet.name]);
        values((single.Sheets[sheet.name] as { '!data'?: XLSX.CellObject[][] })['!data'], fromPieces);
        count++;
      }
      counts.push(count);
      const fromWhole = new Map<number, unknown[]>();
      values((whole.Sheets[sheet.name] as { '!data'?: XLSX.CellObject[][] })['!data'], fromWhole);
      expect([...fromPieces.entries()].sort((a, b) => a[0] - b[0])).toEqual([...fromWhole.entries()].sort((a, b) => a[0] - b[0]));
    }
    // Pieces are at least as large as the repeated shared-string table: the big sheet is split, the small one is not.
    expect(counts[0]).toBeGreaterThan(1);
    expect(counts[1]).toBe(1);
  });

  it('reports an encrypted BIFF8 stream (FILEPASS) instead of splitting it', () => {
    const bof = Buffer.from([0x09, 0x08, 0x04, 0x00, 0x00, 0x06, 0x05, 0x00]);
    const filepass = Buffer.from([0x2f, 0x00, 0x00, 0x00]);
    expect(splitBiff8(Buffer.concat([bof, filepass])).kind).toBe('encrypted');
    expect(splitBiff8(Buffer.from('not biff')).kind).toBe('unsupported');
  });
});

describe('row evaluation (annuities.md §9, lines 387-403)', () => {
  const row = (fields: Partial<SheetRow>): SheetRow => ({
    sheet: 'S',
    rowNumber: 2,
    cells: [],
    publication: null,
    application: null,
    reference: null,
    title: null,
    country: null,
    payer: null,
    comment: null,
    origin: null,
    filingDate: parseIsoDate('2018-03-15'),
    grantDate: null,
    lastPaid: null,
    issues: [],
    ...fields,
  });

  it.each([
    ['Allemagne', 'DE'],
    ['Royaume-Uni', 'GB'],
    ['United Kingdom', 'GB'],
    ['uk', 'GB'],
    ['Pays-Bas', 'NL'],
    ['Suède', 'SE'],
    ['Brevet européen', 'EP'],
    ['UP', 'UP'],
  ])('country %s → %s', (country, office) => {
    expect(evaluateRow(row({ country }), TODAY).office).toBe(office);
  });

  it('origin from the numbers when there is no origin column (line 250)', () => {
    expect(evaluateRow(row({ country: 'FR', publication: 'EP 1 234 567 B1' }), TODAY).origin).toBe('ep_validated');
    expect(evaluateRow(row({ country: 'ES', application: 'E14275070' }), TODAY).origin).toBe('ep_validated');
    expect(evaluateRow(row({ country: 'ES', publication: 'ES2123456T3' }), TODAY).origin).toBe('ep_validated');
    expect(evaluateRow(row({ country: 'FR', publication: 'FR3012345A1' }), TODAY).origin).toBe('national');
    expect(evaluateRow(row({ publication: 'DE102007004488A1' }), TODAY).office).toBe('DE');
  });

  it('an origin column saying unitary on a DE row applies the UP rules (line 138)', () => {
    const ev = evaluateRow(row({ country: 'DE', origin: 'Unitaire', grantDate: parseIsoDate('2024-01-10') }), TODAY);
    expect(ev.schedule?.office).toBe('UP');
    expect(ev.schedule?.flags).toContain('replaced_by_unitary');
  });

  it('problems become reasons on the row', () => {
    expect(evaluateRow(row({ country: 'FR', filingDate: null }), TODAY).reasons).toEqual(['missing_filing_date']);
    expect(evaluateRow(row({ country: 'FR', application: 'DE102007004488' }), TODAY).reasons).toEqual(['country_mismatch']);
    expect(evaluateRow(row({ country: 'Atlantis' }), TODAY).reasons).toEqual(['unknown_country']);
    expect(evaluateRow(row({ country: 'GB', origin: 'unitary' }), TODAY).reasons).toEqual(['unitary_not_available']);
  });

  it('a row without a date always says why: no number and no country (issue 26)', () => {
    expect(evaluateRow(row({}), TODAY)).toMatchObject({ schedule: null, reasons: ['empty_number', 'missing_country'] });
    expect(evaluateRow(row({ filingDate: null }), TODAY)).toMatchObject({ schedule: null, reasons: ['empty_number', 'missing_country'] });
    // A number without its country's letters, and no country cell: the number cannot say it either.
    expect(evaluateRow(row({ publication: '1234567' }), TODAY)).toMatchObject({ schedule: null, reasons: ['unknown_country'] });
    expect(evaluateRow(row({ country: 'FR' }), TODAY).reasons).toEqual([]);
  });
});
