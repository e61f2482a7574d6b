import { PassThrough } from 'node:stream';
import XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxStreamWriter } from '@portal/xlsx';
import type { CellValue } from '../src/spreadsheet/columns.ts';
import { inspectSpreadsheet } from '../src/spreadsheet/guard.ts';
import { DEFAULT_LIMITS, type SpreadsheetLimits } from '../src/spreadsheet/limits.ts';
import { readXlsx } from '../src/spreadsheet/read-xlsx.ts';
import type { ReadStats, RowVisitor } from '../src/spreadsheet/rows.ts';
import { readXlsxWithExcelJs } from './support/exceljs-reader.ts';
import { ENGLISH_HEADERS, FRENCH_HEADERS, rowsFrom, xlsxBuffer } from './support/workbooks.ts';
import { buildZip } from './support/zip.ts';

/*
 * Decision 240: the engine's own .xlsx reader replaced exceljs' streaming reader. Every workbook of the corpus below is
 * read by both; what reaches the engine (sheets, headers, row numbers, cells) must be the same, except where exceljs
 * was wrong, each case written out at the end with what the reader gives now.
 */

interface Read {
  readonly result: { ok: true; value: ReadStats } | { ok: false; reason: string };
  readonly sheets: Array<{ name: string; headers: readonly string[] }>;
  readonly rows: Array<{ sheet: string; row: number; cells: readonly CellValue[] }>;
}

type Reader = typeof readXlsx;

async function readWith(reader: Reader, bytes: Buffer, limits: SpreadsheetLimits = DEFAULT_LIMITS): Promise<Read> {
  // The guard with its own limits: the caps below are the readers'.
  const inspection = await inspectSpreadsheet(bytes, 'corpus.xlsx', DEFAULT_LIMITS);
  if (!inspection.ok) throw new Error(`the guard refused a corpus workbook: ${inspection.reason}`);
  const sheets: Read['sheets'] = [];
  const rows: Read['rows'] = [];
  const visitor: RowVisitor = {
    sheet: (s) => void sheets.push({ name: s.name, headers: s.headers }),
    row: (r) => void rows.push({ sheet: r.sheet, row: r.rowNumber, cells: r.cells }),
  };
  const result = await reader(bytes, inspection.value, limits, visitor);
  return { result: result.ok ? { ok: true, value: result.value } : { ok: false, reason: result.reason }, sheets, rows };
}

async function both(bytes: Buffer, limits?: SpreadsheetLimits): Promise<{ ours: Read; exceljs: Read }> {
  return { ours: await readWith(readXlsx, bytes, limits), exceljs: await readWith(readXlsxWithExcelJs, bytes, limits) };
}

async function excelJsWorkbook(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A minimal package around hand-written worksheets (what other writers produce, prefixes and all). */
function handWritten(sheets: ReadonlyArray<{ name: string; xml: string }>, sharedStrings?: string): Buffer {
  const overrides = sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('');
  return buildZip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}</Types>`,
    },
    { name: '_rels/.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>` },
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}${sharedStrings === undefined ? '' : `<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`}</Relationships>`,
    },
    ...(sharedStrings === undefined ? [] : [{ name: 'xl/sharedStrings.xml', data: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${sharedStrings}</sst>` }]),
    ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s.xml}` })),
  ]);
}

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const HEADER_ROW = `<row r="1"><c r="A1" t="inlineStr"><is><t>Reference</t></is></c><c r="B1" t="inlineStr"><is><t>Country</t></is></c><c r="C1" t="inlineStr"><is><t>Publication number</t></is></c><c r="D1" t="inlineStr"><is><t>Comment</t></is></c></row>`;

describe('decision 240: the engine reads .xlsx as exceljs did', () => {
  it('the generated portfolios (exceljs writer, shared strings, French and English headers, two sheets)', async () => {
    const bytes = await xlsxBuffer([
      { name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, 1500) },
      { name: 'Patents & more', headers: ENGLISH_HEADERS, rows: rowsFrom(1500, 700) },
    ]);
    const { ours, exceljs } = await both(bytes);
    expect(ours.result.ok).toBe(true);
    expect(ours.rows).toHaveLength(2200);
    expect(ours).toEqual(exceljs);
  });

  it('what Excel users put in cells: formulas and their results, rich text, booleans, errors, styled dates, hyperlinks, merged cells, empty cells between', async () => {
    const bytes = await excelJsWorkbook((wb) => {
      const ws = wb.addWorksheet('Cases');
      ws.addRow([...ENGLISH_HEADERS]);
      ws.addRow(['EP1234567', 'EP20123456', { formula: 'CONCAT("R-",1)', result: 'R-1' }, { richText: [{ text: 'Widget ' }, { text: 'bold', font: { bold: true } }, { text: ' part' }] }, 'FR', 'Client A', new Date(Date.UTC(2012, 2, 15)), null, 7, true]);
      ws.addRow(['EP7654321', null, 'R-2', 'Gadget & <co>', 'DE', { error: '#N/A' }, 41000, { formula: 'G3+365', result: 41365 }, { formula: 'I2+1', result: 8 }, false]);
      ws.addRow(['FR3000001', null, { text: 'R-3', hyperlink: 'https://example.org/r3' }, 'Linked', 'FR', null, '15/03/2014', null, null, 'Note with "quotes" and \'apostrophes\'']);
      ws.addRow([]);
      ws.addRow(['GB2000002', null, 'R-5', 'Unicode: été, 特許, 😀', 'GB', null, null, null, 3, null]);
      ws.getCell('J6').value = 'far comment';
      ws.mergeCells('D7:F7');
      ws.getCell('A7').value = 'IT102019000000123';
      ws.getCell('D7').value = 'Merged title';
      ws.getColumn(7).numFmt = 'dd/mm/yyyy';
      const second = wb.addWorksheet('Notes');
      second.addRow(['Not a patent list']);
      second.addRow([1, 2, 3]);
    });
    const { ours, exceljs } = await both(bytes);
    expect(ours.result.ok).toBe(true);
    expect(ours).toEqual(exceljs);
    const cells = ours.rows.map((r) => r.cells);
    expect(cells[0]![2]).toBe('=CONCAT("R-",1)');
    expect(cells[0]![3]).toBe('Widget bold part');
    expect(cells[0]![9]).toBe(true);
    expect(cells[1]![5] ?? null).toBeNull();
    expect(cells[1]![3]).toBe('Gadget & <co>');
    expect(ours.result.ok && ours.result.value.skippedSheets).toEqual(['Notes']);
  });

  it('shared formulas: the master keeps its text, the cells that share it read "=" (as exceljs read them)', async () => {
    const bytes = await excelJsWorkbook((wb) => {
      const ws = wb.addWorksheet('Cases');
      ws.addRow([...ENGLISH_HEADERS]);
      ws.getCell('A2').value = 'EP1';
      ws.getCell('I2').value = { formula: '1+1', result: 2, shareType: 'shared', ref: 'I2:I4' } as ExcelJS.CellFormulaValue;
      for (const r of [3, 4]) {
        ws.getCell(`A${r}`).value = `EP${r}`;
        ws.getCell(`I${r}`).value = { sharedFormula: 'I2', result: 2 };
      }
    });
    const { ours, exceljs } = await both(bytes);
    expect(ours).toEqual(exceljs);
    expect(ours.rows.map((r) => r.cells[8])).toEqual(['=1+1', '=', '=']);
  });

  it('what SheetJS writes: inline strings and numbers, shared strings or not', async () => {
    for (const bookSST of [false, true]) {
      const wb = XLSX.utils.book_new();
      const rows = [...rowsFrom(0, 300)].map((r) => r.map((c) => (c instanceof Date ? 25569 + c.getTime() / 86_400_000 : c)));
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[...ENGLISH_HEADERS], ...rows]), 'Sheet1');
      const bytes = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', bookSST }) as Buffer;
      const { ours, exceljs } = await both(bytes);
      expect(ours.rows, `bookSST ${bookSST}`).toHaveLength(300);
      expect(ours, `bookSST ${bookSST}`).toEqual(exceljs);
    }
  });

  it('the portal\'s own exports read back (@portal/xlsx writer: shared strings, styles, frozen header)', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = new XlsxStreamWriter(out, ['FFC6EFCE', 'FFFFC7CE'], { sharedStrings: 1000 });
    await writer.startSheet('Export');
    await writer.row([...ENGLISH_HEADERS, 'Next due date']);
    for (const row of rowsFrom(0, 400)) await writer.row([...row.map((c) => (c instanceof Date ? c.toISOString().slice(0, 10) : c)), { day: 20_000 }], 1);
    await writer.finish();
    out.end();
    const { ours, exceljs } = await both(Buffer.concat(chunks));
    expect(ours.rows).toHaveLength(400);
    expect(ours).toEqual(exceljs);
  });

  it('the row and column caps stop both readers the same way', async () => {
    const bytes = await xlsxBuffer([{ name: 'Cases', headers: ENGLISH_HEADERS, rows: rowsFrom(0, 120) }]);
    const { ours, exceljs } = await both(bytes, { ...DEFAULT_LIMITS, maxRows: 100 });
    expect(ours.result).toEqual({ ok: false, reason: 'too_many_rows' });
    expect(ours).toEqual(exceljs);
    const wide = await excelJsWorkbook((wb) => {
      const ws = wb.addWorksheet('Cases');
      ws.addRow([...ENGLISH_HEADERS]);
      ws.addRow(['EP1']);
      ws.getCell('Z3').value = 'too far';
    });
    const capped = await both(wide, { ...DEFAULT_LIMITS, maxColumns: 20 });
    expect(capped.ours.result).toEqual({ ok: false, reason: 'too_many_columns' });
    expect(capped.ours).toEqual(capped.exceljs);
  });
});

describe('decision 240: where exceljs was wrong, what the reader gives now', () => {
  it('rows and cells without their r attribute follow the one before (exceljs threw: malformed_workbook)', async () => {
    const bytes = handWritten([{ name: 'Cases', xml: `<worksheet ${MAIN}><sheetData>${HEADER_ROW}<row><c t="inlineStr"><is><t>R-1</t></is></c><c t="inlineStr"><is><t>FR</t></is></c><c t="inlineStr"><is><t>FR3000001</t></is></c></row><row><c r="C3" t="inlineStr"><is><t>FR3000002</t></is></c><c t="inlineStr"><is><t>after C</t></is></c></row></sheetData></worksheet>` }]);
    const { ours, exceljs } = await both(bytes);
    expect(exceljs.result).toMatchObject({ ok: false, reason: 'malformed_workbook' });
    expect(ours.rows).toEqual([
      { sheet: 'Cases', row: 2, cells: ['R-1', 'FR', 'FR3000001'] },
      { sheet: 'Cases', row: 3, cells: [null, null, 'FR3000002', 'after C'] },
    ]);
  });

  it('a prefixed SpreadsheetML namespace (x:row, x:c) is read (exceljs saw no rows: headers_not_found)', async () => {
    const xml = `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>${HEADER_ROW.replace(/<(\/?)(row|c|is|t)\b/g, '<$1x:$2')}<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>R-1</x:t></x:is></x:c><x:c r="B2" t="inlineStr"><x:is><x:t>DE</x:t></x:is></x:c><x:c r="C2" t="inlineStr"><x:is><x:t>DE102019000001</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`;
    const { ours, exceljs } = await both(handWritten([{ name: 'Cases', xml }]));
    expect(exceljs.result).toEqual({ ok: false, reason: 'headers_not_found' });
    expect(ours.rows).toEqual([{ sheet: 'Cases', row: 2, cells: ['R-1', 'DE', 'DE102019000001'] }]);
  });

  it('inline rich text keeps every run, entities are decoded once, CDATA is text, _x000D_ is a carriage return, phonetic guides are left out', async () => {
    const shared = `<si><t>Shared &amp;lt;kept&amp;gt;</t></si><si><r><t>Rich </t></r><r><rPr><b/></rPr><t>shared</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh></si><si><t>line_x000D_two</t></si>`;
    const xml = `<worksheet ${MAIN}><sheetData>${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><r><t>Run one </t></r><r><t>run two</t></r></is></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="str"><v>A &amp;amp; B</v></c><c r="D2" t="inlineStr"><is><t><![CDATA[<raw> & text]]></t></is></c></row><row r="3"><c r="A3" t="s"><v>0</v></c><c r="C3" t="s"><v>2</v></c><c r="D3" t="inlineStr"><is><t>caf&#233; &#x1F600;</t></is></c></row></sheetData></worksheet>`;
    const { ours } = await both(handWritten([{ name: 'Cases', xml }], shared));
    expect(ours.rows.map((r) => r.cells)).toEqual([
      ['Run one run two', 'Rich shared', 'A &amp; B', '<raw> & text'],
      ['Shared &lt;kept&gt;', null, 'line\rtwo', 'café 😀'],
    ]);
  });

  it('a t="d" cell is the date it names (exceljs read 2020 from "2020-03-15"), an empty number is blank (exceljs: NaN)', async () => {
    const xml = `<worksheet ${MAIN}><sheetData>${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>R-1</t></is></c><c r="B2" t="d"><v>2020-03-15T00:00:00</v></c><c r="C2"><v></v></c><c r="D2" t="d"><v>not a date</v></c></row></sheetData></worksheet>`;
    const { ours } = await both(handWritten([{ name: 'Cases', xml }]));
    expect(ours.rows[0]!.cells).toEqual(['R-1', new Date(Date.UTC(2020, 2, 15))]);
  });

  it('sheets are read in tab order, whatever their part names and their case (exceljs: file order, sheetN.xml only)', async () => {
    const sheet = (ref: string) => `<worksheet ${MAIN}><sheetData>${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>${ref}</t></is></c></row></sheetData></worksheet>`;
    const bytes = buildZip([
      { name: '[Content_Types].xml', data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>` },
      { name: 'xl/workbook.xml', data: `<workbook ${MAIN} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Second tab first" sheetId="2" r:id="rId2"/><sheet name="First" sheetId="1" r:id="rId1"/><sheet name="Chart" sheetId="3" r:id="rId3"/></sheets></workbook>` },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/data.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>`,
      },
      { name: 'xl/worksheets/sheet1.xml', data: sheet('R-first') },
      // Part names are case-insensitive (ECMA-376 part 2, 9.1.1.1): the relation says data.xml, the zip Data.xml.
      { name: 'xl/worksheets/Data.xml', data: sheet('R-second') },
    ]);
    const { ours } = await both(bytes);
    expect(ours.rows).toEqual([
      { sheet: 'Second tab first', row: 2, cells: ['R-second'] },
      { sheet: 'First', row: 2, cells: ['R-first'] },
    ]);
  });

  it('markup split at every position of a chunk reads the same (a tag, an entity, a comment across two chunks)', async () => {
    const { XmlScanner } = await import('../src/spreadsheet/xml-scan.ts');
    const xml = `<?xml version="1.0"?><!-- a comment --><root><c r="A1" t='s' x="a>b"><v>1 &amp; 2</v></c><c r="B1"/><![CDATA[skipped]]><t>caf&#233;</t></root>`;
    const trace = (chunks: string[]) => {
      const events: string[] = [];
      let capturing = false;
      const scanner = new XmlScanner({
        get capturing() {
          return capturing;
        },
        open(name, tag, selfClosing) {
          events.push(`<${name} ${tag}${selfClosing ? '/' : ''}>`);
          capturing = name === 'v' || name === 't';
        },
        close(name) {
          events.push(`</${name}>`);
          capturing = false;
        },
        text(text) {
          if (events.at(-1)?.startsWith('text:')) events[events.length - 1] += text;
          else events.push(`text:${text}`);
        },
      });
      for (const chunk of chunks) scanner.write(chunk);
      scanner.end();
      return events;
    };
    const whole = trace([xml]);
    expect(whole).toContain('text:1 & 2');
    expect(whole).toContain('text:café');
    expect(whole).toContain(`<c c r="A1" t='s' x="a>b">`);
    for (let at = 1; at < xml.length; at++) expect(trace([xml.slice(0, at), xml.slice(at)]), `split at ${at}`).toEqual(whole);
  });
});
