import { describe, expect, it } from 'vitest';
import type { ResolvedFinding } from '@portal/ledes';
import { forEachRow, RowEncoder, type RowBatch } from '../src/ledes/rows.ts';

type Sent = [number, readonly string[] | null, readonly ResolvedFinding[]];
type Received = [number, string | null, number, readonly ResolvedFinding[]];

const finding = (line: number, code: string): ResolvedFinding => ({ line, code, champ: '(line)', severity: 'error' }) as ResolvedFinding;

function decode(batch: RowBatch): Received[] {
  const rows: Received[] = [];
  forEachRow(batch, (line, body, count, findings) => rows.push([line, body, count, findings]));
  return rows;
}

/** Posted batches are structured clones: the codec must survive one. */
const posted = (batch: RowBatch): RowBatch => structuredClone(batch);

describe('LEDES rows between the engine and the writer thread', () => {
  it('#8 a batch gives back each line, the text of its fields and their count (none included) and its findings, in order', () => {
    const rows: Sent[] = [
      [0, ['20250210', 'INV-1', '', 'Doe, Jane'], []],
      [1, null, [finding(1, 'FMT-012')]],
      [2, [''], []],
      [3, ['', '', ''], [finding(3, 'FMT-004'), finding(3, 'FIELD-001')]],
      [7, ['é', 'emoji \u{1F600}', 'tab\there', 'cr\rinside', '\u2028', 'Co\0p\x01ies'], []],
      [8, null, []],
    ];
    const encoder = new RowEncoder();
    for (const [line, fields, findings] of rows) encoder.add(line, fields, findings);
    const batch = encoder.take()!;
    expect(batch.meta.length).toBe(2 * rows.length);
    expect(encoder.take()).toBeNull();
    const received = decode(posted(batch));
    expect(received.map(([line, , , findings]) => [line, findings])).toEqual(rows.map(([line, , findings]) => [line, findings]));
    // Each text splits back into the fields sent, and the count says how many.
    expect(received.map(([, body, count]) => [body === null ? null : body.split('|'), count])).toEqual(rows.map(([, fields]) => [fields, fields ? fields.length : -1]));
  });

  it('#8 a line sent as the body it was split from arrives as that body', () => {
    const encoder = new RowEncoder();
    const body = '20250210|INV-1||Research prior art';
    encoder.add(4, body.split('|'), [], body);
    expect(decode(posted(encoder.take()!))).toEqual([[4, body, 4, []]]);
  });

  it('#8 a field holding a line break fails loudly instead of shifting the lines after it', () => {
    const encoder = new RowEncoder();
    encoder.add(0, ['a\nb'], []);
    expect(() => decode(encoder.take()!)).toThrow('row batch of 1 lines holds 2');
  });
});
