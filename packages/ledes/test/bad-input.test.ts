import { describe, expect, it } from 'vitest';
import { checkLedes } from '../src/index.ts';
import { generateLedes } from './generate.ts';
import { baseRecords, CLOCK, fileText, profileFor, recordLine, run } from './helpers.ts';

const options = { filename: 'bad.txt', profile: profileFor('patent'), clock: CLOCK };

describe('bad input gives a clear result with findings, never a throw', () => {
  it('empty file', async () => {
    const r = await run('');
    expect(r.summary).toMatchObject({ accepted: false, encoding: 'empty', linesChecked: 0, format: null });
    expect(r.flat.map((f) => `${f.line}:${f.code}`)).toEqual(['file:FMT-001', 'file:FMT-008']);
  });

  it('a JSON or CSV file renamed .txt is one verdict, not two findings per line (issue 31 §4)', async () => {
    const json = JSON.stringify(Array.from({ length: 12 }, (_, i) => ({ id: i, name: `item ${i}`, amount: i * 1.5, tags: ['a', 'b'] })), null, 2);
    const csv = 'invoice,date,amount\nINV-1,2025-02-10,845.00\nINV-2,2025-02-11,12.50\n';
    for (const [text, first] of [[json, '['], [csv, 'invoice,date,amount'], ['{"a":1}', '{"a":1}']] as const) {
      const r = await run(text);
      expect(r.summary).toMatchObject({ accepted: false, linesChecked: 0, format: null });
      expect(r.flat).toEqual([{ line: 'file', code: 'FMT-015', champ: '(file)', severity: 'error' }]);
      expect(r.result.errors[0]!.items[0]).toMatchObject({ code_ledes: 'FMT-015', found: first });
    }
  });

  it('a LEDES file with a damaged first line and header is still checked line by line', async () => {
    const lines = fileText(baseRecords()).split('\r\n');
    const r = await run(['Invoice export', 'by our billing tool', ...lines.slice(2)].join('\r\n'));
    expect(r.flat.map((f) => `${f.line}:${f.code}`).slice(0, 2)).toEqual(['file:FMT-001', 'header:FMT-005']);
    expect(r.summary.linesChecked).toBeGreaterThan(0);
  });

  it('binary file', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 1)]);
    const r = await run(zip);
    expect(r.summary).toMatchObject({ accepted: false, encoding: 'binary' });
    expect(r.flat.map((f) => f.code)).toEqual(['FMT-010']);
  });

  it('NUL bytes in a text file are reported on their line', async () => {
    const text = fileText(baseRecords()).replace('Copies', 'Cop\0ies');
    const r = await run(text);
    expect(r.summary.accepted).toBe(false);
    expect(r.flat).toContainEqual({ line: 1, code: 'FMT-013', champ: '(line)', severity: 'error' });
  });

  it('a file of NUL bytes is binary', async () => {
    const r = await run(Buffer.alloc(10_000));
    expect(r.flat.map((f) => f.code)).toEqual(['FMT-010']);
  });

  it('UTF-16 with and without BOM', async () => {
    const body = Buffer.from(fileText(baseRecords()), 'utf16le');
    for (const bytes of [body, Buffer.concat([Buffer.from([0xff, 0xfe]), body]), Buffer.concat([Buffer.from([0xfe, 0xff]), body.swap16()])]) {
      const r = await run(bytes);
      expect(r.summary).toMatchObject({ accepted: false, encoding: 'utf-16' });
      expect(r.flat.map((f) => f.code)).toEqual(['FMT-009']);
    }
  });

  it('Windows-1252 is decoded and reported (FMT-006 warning)', async () => {
    const text = fileText(baseRecords()).replace('Copies', 'Copies \x92pages\x92');
    const r = await run(Buffer.from(text, 'latin1'));
    expect(r.summary.encoding).toBe('windows-1252');
    expect(r.flat).toEqual([{ line: 1, code: 'FMT-006', champ: 'LINE_ITEM_DESCRIPTION', severity: 'warning' }]);
  });

  it('pipe count differing per line', async () => {
    const [fee, expense] = baseRecords();
    const lines = [recordLine(fee!), recordLine(expense!).replace('|Copies|', '|Copies|x|'), recordLine(fee!).replace('|Doe, Jane', ''), recordLine({ ...fee!, LINE_ITEM_NUMBER: '4' })];
    const text = `LEDES1998B[]\n${fileText([]).split('\r\n')[1]}\n${lines.join('\n')}\n`;
    const r = await run(text);
    expect(r.flat.filter((f) => f.code === 'FMT-004').map((f) => f.line)).toEqual([1, 2]);
    expect(r.result.format_ok.map((l) => l.line)).toEqual([0, 3]);
  });

  it('XML with a DOCTYPE (billion laughs) is refused before any entity is read', async () => {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<ledesxmlebilling2.1>&lol2;</ledesxmlebilling2.1>`;
    const r = await run(xml);
    expect(r.flat.map((f) => f.code)).toEqual(['XML-001']);
    expect(r.summary).toMatchObject({ accepted: false, linesChecked: 0 });
  });

  it('a 100 MB single line gives FMT-011 without holding it', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'A'.charCodeAt(0));
    async function* hugeLine(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${fileText([]).replaceAll('\r\n', '\n')}`);
      for (let i = 0; i < 100; i++) yield chunk;
      yield Buffer.from(`[]\n${recordLine(baseRecords()[0]!).replace('|705|', '|700|')}\n`);
    }
    const before = process.memoryUsage().heapUsed;
    const { result, summary } = await checkLedes(hugeLine(), options);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
    expect(result.errors.map((l) => [l.line, l.items.map((i) => i.code_ledes)])).toEqual([[0, ['FMT-011']]]);
    expect(result.format_ok.map((l) => l.line)).toEqual([1]);
    expect(summary.linesChecked).toBe(2);
  });

  it('a 1,000,000-line file completes with bounded memory', async () => {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let progressCalls = 0;
    const { summary } = await checkLedes(generateLedes(1_000_000), {
      ...options,
      collect: false,
      progressIntervalMs: 100,
      onProgress: () => {
        progressCalls++;
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    expect(summary).toMatchObject({ accepted: true, linesChecked: 1_000_000, format: 'LEDES1998B' });
    expect(summary.invoices).toHaveLength(10_000);
    expect(progressCalls).toBeGreaterThan(1);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);
});
