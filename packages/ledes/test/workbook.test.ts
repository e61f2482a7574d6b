import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { checkLedes, type LineSink, type ResolvedFinding } from '../src/index.ts';
import { ruleOf } from '../src/rules/catalogue.ts';
import { atPrecision, createTreatedWorkbook, inReadersFormat, neutralise } from '../src/report/treated-workbook.ts';
import { generateLedes } from './generate.ts';
import { baseRecords, chunked, CLOCK, fileText, profileFor } from './helpers.ts';

/** The found amount's decimals, the precision the workbook shows a finding's values at; undefined for a text. */
const decimalsOfFound = (found: string | undefined) => (found !== undefined && /^-?\d+(\.\d+)?$/.test(found) ? (found.split('.')[1] ?? '').length : undefined);

describe("a finding's values as the workbook's reader reads them (issue 31 §4)", () => {
  it('at the invoice\'s precision, rounded half away from zero, exactly', () => {
    // The line: found 87.63, expected 38.584350 (units × rate), difference 49.045650.
    expect([atPrecision('87.63', 2), atPrecision('38.584350', 2), atPrecision('49.045650', 2)]).toEqual(['87.63', '38.58', '49.05']);
    expect([atPrecision('2.675', 2), atPrecision('-0.005', 2), atPrecision('-1.2349', 3), atPrecision('705', 2), atPrecision('1.5', 0)]).toEqual(['2.68', '-0.01', '-1.235', '705', '2']);
    expect([atPrecision('N/A', 2), atPrecision('38.584350', undefined), atPrecision(undefined, 2)]).toEqual(['N/A', '38.584350', undefined]);
  });

  it('with a decimal comma in French, a point in English, texts as they are', () => {
    expect([inReadersFormat('87.63', 'fr'), inReadersFormat('-49.05', 'fr'), inReadersFormat('87.63', 'en'), inReadersFormat('INV.1', 'fr')]).toEqual(['87,63', '-49,05', '87.63', 'INV.1']);
  });
});

async function toBuffer(write: (out: PassThrough) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  await write(out);
  return Buffer.concat(parts);
}

describe('treated workbook', () => {
  it('neutralises formula-looking text', () => {
    for (const s of ['=1+1', '+33 1 23', '-70', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(s)).toBe(`'${s}`);
    expect(neutralise('Research')).toBe('Research');
  });

  it('#8 a line given as text that does not split into its field count throws instead of shifting columns', async () => {
    const wb = createTreatedWorkbook(new PassThrough(), 'en');
    await wb.drained();
    wb.onRow(0, 'a|b|c', 3, []);
    wb.onRow(1, null, -1, []);
    expect(() => wb.onRow(2, 'a|b', 3, [])).toThrow('line 3: 3 fields expected, 2 written');
  });

  it('lists every line with status and findings in the chosen language, formulas inert', async () => {
    const records = baseRecords();
    Object.assign(records[0]!, { LINE_ITEM_DESCRIPTION: '=HYPERLINK("http://x","y")', LINE_ITEM_TOTAL: '701' });
    const bytes = await toBuffer(async (out) => {
      const wb = createTreatedWorkbook(out, 'fr');
      const { summary } = await checkLedes(chunked(fileText(records)), { filename: 'f.txt', profile: profileFor(), clock: CLOCK, sink: wb });
      await wb.done;
      expect(summary.accepted).toBe(false);
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const lines = book.getWorksheet('Lignes')!;
    expect(lines.getRow(1).getCell(1).value).toBe('Ligne');
    expect(lines.getRow(1).getCell(4).value).toBe('INVOICE_DATE');
    const first = lines.getRow(2);
    expect(first.getCell(1).value).toBe(1);
    expect(first.getCell(2).value).toBe('Erreur');
    expect(String(first.getCell(3).value)).toContain('MTH-001 [LINE_ITEM_TOTAL] Total de ligne');
    // The values that decided it, in the workbook's language and the reader's format (a decimal comma), at the invoice's precision.
    expect(String(first.getCell(3).value)).toMatch(/\(trouvé \d+(,\d\d)?, attendu \d+(,\d\d)?, écart -?\d+(,\d\d)?\)/);
    const description = first.getCell(3 + 19);
    expect(description.value).toBe(`'=HYPERLINK("http://x","y")`);
    expect(description.type).toBe(ExcelJS.ValueType.String);
    expect(lines.getRow(3).getCell(2).value).toBe('Conforme');
    const file = book.getWorksheet('Fichier et factures')!;
    expect(file.getRow(1).values).toEqual([undefined, 'Verdict', 'Refusé']);
    expect(file.getRow(3).getCell(2).value).toBe('MTH-002');
  });

  it('streamed workbook reads back in exceljs cell for cell: every line, status, finding text and field, and the late findings', async () => {
    const records = baseRecords();
    Object.assign(records[0]!, { LINE_ITEM_DESCRIPTION: 'R&D <draft> "v2"', LINE_ITEM_TOTAL: '701' });
    Object.assign(records[1]!, { LINE_ITEM_DESCRIPTION: '-Copies' });
    const text = fileText(records);
    const seen: Array<{ line: number; fields: readonly string[] | null; findings: readonly ResolvedFinding[] }> = [];
    let late: readonly ResolvedFinding[] = [];
    let fieldNames: readonly string[] = [];
    const bytes = await toBuffer(async (out) => {
      const wb = createTreatedWorkbook(out, 'en');
      const tee: LineSink = {
        onStart: (info) => {
          fieldNames = info.fieldNames;
          wb.onStart?.(info);
        },
        onLine: (line, fields, findings) => {
          seen.push({ line, fields, findings });
          wb.onLine(line, fields, findings);
        },
        onEnd: async (l, summary) => {
          late = l;
          await wb.onEnd(l, summary);
        },
        drained: () => wb.drained(),
      };
      await checkLedes(chunked(text), { filename: 'f.txt', profile: profileFor(), clock: CLOCK, sink: tee });
      await wb.done;
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Lines', 'File and invoices']);
    const values = (row: ExcelJS.Row): unknown[] => Array.from((row.values as unknown[]).slice(1), (v) => v ?? null);
    const trimmed = (cells: unknown[]): unknown[] => {
      const out = [...cells];
      while (out.length > 0 && out.at(-1) === null) out.pop();
      return out;
    };
    const lines = book.getWorksheet('Lines')!;
    expect(values(lines.getRow(1))).toEqual(['Line', 'Status', 'Findings', ...fieldNames]);
    expect(seen.length).toBe(2);
    seen.forEach(({ line, fields, findings }, i) => {
      const status = findings.length === 0 ? 'OK' : findings.some((f) => f.severity === 'error') ? 'Error' : 'Warning';
      const valuesText = (f: ResolvedFinding) => {
        const v = f.values;
        const at = (s: string) => atPrecision(s, decimalsOfFound(v?.found));
        const parts = v ? [v.found === undefined ? null : `found ${v.found}`, v.expected === undefined ? null : `expected ${at(v.expected)}`, v.difference === undefined ? null : `difference ${at(v.difference)}`].filter((p) => p !== null) : [];
        return parts.length > 0 ? ` (${parts.join(', ')})` : '';
      };
      const described = findings.map((f) => `${f.code} [${f.champ}] ${ruleOf(f.code).en}${valuesText(f)}`).join('\n');
      const cells = (fields ?? []).map((f) => (f === '' ? null : neutralise(f)));
      expect(trimmed(values(lines.getRow(i + 2)))).toEqual(trimmed([line + 1, status, described === '' ? null : described, ...cells]));
    });
    expect(lines.getRow(2).getCell(3 + 19).value).toBe('R&D <draft> "v2"');
    expect(lines.getRow(3).getCell(3 + 19).value).toBe("'-Copies");
    expect(lines.rowCount).toBe(3);
    const file = book.getWorksheet('File and invoices')!;
    expect(values(file.getRow(1))).toEqual(['Verdict', 'Refused']);
    expect(values(file.getRow(2))).toEqual(['Line', 'Code', 'Severity', 'Field', 'Label', 'Found', 'Expected', 'Difference', 'Total over the cap', 'Guideline']);
    expect(late.length).toBeGreaterThan(0);
    // The invoice total (MTH-002) carries its declared and computed amounts and their difference, in columns.
    expect(late.some((f) => f.code === 'MTH-002' && f.values?.difference !== undefined)).toBe(true);
    late.forEach((f, i) => {
      const label = f.line === 'file' ? 'file' : f.line === 'header' ? 'header' : f.line + 1;
      const v = f.values ?? {};
      const decimals = decimalsOfFound(v.found);
      // Amounts and counts are number cells, at the found amount's precision; other values text.
      const cell = (s: string | undefined) => (s === undefined ? null : /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : neutralise(s));
      expect(trimmed(values(file.getRow(i + 3)))).toEqual(
        trimmed([label, f.code, f.severity === 'error' ? 'Error' : 'Warning', neutralise(f.champ), ruleOf(f.code).en, cell(v.found), cell(atPrecision(v.expected, decimals)), cell(atPrecision(v.difference, decimals))]),
      );
    });
    expect(file.rowCount).toBe(2 + late.length);
  });

  it('a failing output stream fails the check with its error instead of hanging on a drain that never comes', async () => {
    const broken = new Writable({
      write(_chunk, _enc, cb) {
        cb(new Error('disk full'));
      },
    });
    broken.on('error', () => {});
    const wb = createTreatedWorkbook(broken, 'en');
    await expect(checkLedes(generateLedes(20_000), { filename: 'big.txt', profile: profileFor(), clock: CLOCK, sink: wb, collect: false })).rejects.toThrow('disk full');
    await expect(wb.done).rejects.toThrow('disk full');
  }, 60_000);

  it('streams: 50,000 lines written with bounded memory', async () => {
    let bytes = 0;
    const sinkStream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb();
      },
    });
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const wb = createTreatedWorkbook(sinkStream, 'en');
    await checkLedes(generateLedes(50_000), {
      filename: 'big.txt', profile: profileFor(), clock: CLOCK, sink: wb, collect: false, progressIntervalMs: 50,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    await wb.done;
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);
});
