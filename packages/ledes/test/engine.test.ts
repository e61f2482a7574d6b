import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkLedes } from '../src/index.ts';
import { generateLedes } from './generate.ts';
import { baseRecords, CLOCK, fileText, profileFor, run, XML_OK } from './helpers.ts';

const options = { filename: 'f.txt', profile: profileFor('patent'), clock: CLOCK };

describe('engine', () => {
  it('reads XML 2.x: version, items as data lines, invoices in the summary', async () => {
    const r = await run(XML_OK);
    expect(r.summary).toMatchObject({ accepted: true, format: 'LEDES_XML_2.1', linesChecked: 2, invoices: [{ invoice_number: 'INV-1', client_id: 'C1', total: '706' }] });
    expect(r.result.format_ok.map((l) => l.line)).toEqual([0, 1]);
  });

  it('reads a web ReadableStream and a Node Readable alike', async () => {
    const text = fileText(baseRecords());
    const web = await checkLedes(Readable.toWeb(Readable.from([Buffer.from(text)])) as AsyncIterable<Uint8Array>, options);
    const node = await checkLedes(Readable.from([text]), options);
    expect(web.result).toEqual(node.result);
    expect(node.summary.accepted).toBe(true);
  });

  it('reports progress throttled, ending with the final count', async () => {
    const seen: number[] = [];
    await checkLedes(generateLedes(50_000), { ...options, collect: false, progressIntervalMs: 1_000_000, onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([50_000]);
  });

  it('keeps a 98BI file with LEDES1998BI V2 token and CRLF/LF mix readable', async () => {
    const text = fileText(baseRecords('98BI'), '98BI', 'LEDES1998BI V2').replace(/\r\n$/, '\n');
    const r = await run(text);
    expect(r.summary).toMatchObject({ format: 'LEDES98BI_V2', lineEndings: 'mixed', accepted: true });
    expect(r.flat.map((f) => f.code)).toEqual(['FMT-002']);
  });

  it('reports a NUL only as FMT-013, not also as FMT-006', async () => {
    const r = await run(fileText(baseRecords()).replace('Copies', 'Cop\0ies'));
    expect(r.flat.map((f) => f.code)).toEqual(['FMT-013']);
  });
});
