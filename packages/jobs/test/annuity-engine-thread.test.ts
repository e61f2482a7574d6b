import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGLISH_HEADERS, rowsFrom, xlsxBuffer } from '../../annuities/test/support/workbooks.ts';
import { createAnnuityThreadEngine } from '../src/annuities/engine.ts';

const engine = createAnnuityThreadEngine();
afterAll(() => engine.close());

const sink = () =>
  new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });

describe('annuities engine thread', () => {
  it('announces the rows to expect (the progress total) before the first batch of rows', async () => {
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 2500)] }]);
    const seen: string[] = [];
    const result = await engine(bytes, {
      mode: 'check',
      fileName: 'p.xlsx',
      today: '2026-11-24',
      batchSize: 1000,
      out: sink(),
      onExpected: (rows) => void seen.push(`expected ${rows}`),
      onRows: (rows) => {
        seen.push(`rows ${rows.length}`);
        return Promise.resolve(undefined);
      },
    });
    expect(result).toMatchObject({ ok: true, counts: { rows: 2500 } });
    expect(seen).toEqual(['expected 2500', 'rows 1000', 'rows 1000', 'rows 500']);
  });
});
