import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { checkLedes } from '../src/index.ts';
import { createTreatedWorkbook, neutralise } from '../src/report/treated-workbook.ts';
import { generateLedes } from './generate.ts';
import { baseRecords, chunked, CLOCK, fileText, profileFor } from './helpers.ts';

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
    const description = first.getCell(3 + 19);
    expect(description.value).toBe(`'=HYPERLINK("http://x","y")`);
    expect(description.type).toBe(ExcelJS.ValueType.String);
    expect(lines.getRow(3).getCell(2).value).toBe('Conforme');
    const file = book.getWorksheet('Fichier et factures')!;
    expect(file.getRow(1).values).toEqual([undefined, 'Verdict', 'Refusé']);
    expect(file.getRow(3).getCell(2).value).toBe('MTH-002');
  });

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
