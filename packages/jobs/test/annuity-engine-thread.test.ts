import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGLISH_HEADERS, rowsFrom, xlsxBuffer } from '../../annuities/test/support/workbooks.ts';
import { createAnnuityThreadEngine } from '../src/annuities/engine.ts';
import { isPacked, packPatents, type PackedBatch } from '../src/annuities/packed-rows.ts';
import type { PatentRecord } from '../src/annuities/protocol.ts';
import { createSharedThread } from '../src/shared-thread.ts';

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

describe('annuities engine thread, a check given the statements’ size', () => {
  it('sends each batch packed (one array literal per column and statement): the same rows, the same export', async () => {
    // What crosses to the main thread is ~33 strings a statement, not a thousand objects of 33 fields (issue 28: those
    // waited in the main thread's heap for the database, were promoted, and were the bulk of its growth over a big file).
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 2345)] }]);
    const exportOf = () => {
      const chunks: Buffer[] = [];
      const out = new Writable({ write: (chunk: Buffer, _enc, cb) => (chunks.push(chunk), cb()) });
      return { out, bytes: () => Buffer.concat(chunks) };
    };
    const asObjects: PatentRecord[] = [];
    const plain = exportOf();
    const a = await engine(bytes, { mode: 'check', fileName: 'p.xlsx', today: '2026-11-24', batchSize: 1000, out: plain.out, onRows: (rows) => (asObjects.push(...(rows as PatentRecord[])), Promise.resolve(undefined)) });
    const batches: PackedBatch[] = [];
    const packed = exportOf();
    const b = await engine(bytes, {
      mode: 'check',
      fileName: 'p.xlsx',
      today: '2026-11-24',
      batchSize: 1000,
      statementRows: 100,
      out: packed.out,
      onRows: (rows) => {
        if (!isPacked(rows)) throw new Error('row objects crossed the thread');
        batches.push(rows);
        return Promise.resolve(undefined);
      },
    });
    expect(a).toEqual(b);
    expect(batches.map((batch) => [batch.length, batch.statements.map((s) => s.count)])).toEqual([
      [1000, Array(10).fill(100)],
      [1000, Array(10).fill(100)],
      [345, [100, 100, 100, 45]],
    ]);
    // The bound: values the main thread receives (objects, arrays, strings), per row. Row objects were ~36 a row
    // (the record, its two lists and each non-null text); packed, 33 literals a statement of 100 rows and a few wrappers.
    const values = (x: unknown): number => (x !== null && typeof x === 'object' ? 1 + Object.values(x).reduce<number>((n, v) => n + values(v), 0) : typeof x === 'string' ? 1 : 0);
    expect(values(asObjects) / asObjects.length).toBeGreaterThan(20);
    expect(values(batches) / asObjects.length).toBeLessThan(0.5);
    const statements = batches.flatMap((batch) => batch.statements);
    for (const s of statements) expect(s.columns.every((c) => typeof c === 'string')).toBe(true);
    // The literals are those of the rows the engine computes.
    const expected = Array.from({ length: Math.ceil(asObjects.length / 100) }, (_, i) => packPatents(asObjects.slice(i * 100, i * 100 + 100)));
    expect(statements).toEqual(expected);
    expect(packed.bytes().equals(plain.bytes())).toBe(true);
  }, 120_000);
});

describe('annuities engine thread, export written to a slow destination', () => {
  it('waits for the destination with one drain listener, not one per chunk (no MaxListenersExceededWarning)', async () => {
    // Many 256 KiB chunks of export while the destination is slow: the thread may post 4 MiB ahead,
    // so a listener per chunk the output refused passed Node's limit of 10 on a big file (issue 28).
    const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 40_000)] }]);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    const out = new PassThrough();
    let written = 0;
    let mostDrainListeners = 0;
    // The destination takes nothing until 3 MiB wait in the output (a stalled upload): the engine
    // thread goes on posting chunks (4 MiB may be in flight), each one refused by the full output.
    const stalled = 3 * 2 ** 20;
    let open = false;
    let held: (() => void) | null = null;
    const release = () => {
      open = true;
      held?.();
      held = null;
    };
    const watch = setInterval(() => {
      mostDrainListeners = Math.max(mostDrainListeners, out.listenerCount('drain'));
      if (out.writableLength >= stalled) release();
    }, 5);
    const slow = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        if (open) cb();
        else held = cb;
      },
    });
    out.pipe(slow);
    try {
      const result = await engine(bytes, { mode: 'check', fileName: 'p.xlsx', today: '2026-11-24', batchSize: 1000, out, onRows: () => Promise.resolve(undefined) });
      expect(open).toBe(true); // the export did fill the stalled output
      release();
      out.end();
      await finished(slow);
      expect(result).toMatchObject({ ok: true, counts: { rows: 40_000 } });
      // A process emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      clearInterval(watch);
      process.off('warning', onWarning);
    }
    expect(written).toBeGreaterThan(12 * 256 * 1024);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    expect(mostDrainListeners).toBeLessThanOrEqual(1);
  }, 120_000);
});

describe('annuities engine thread, stopped when idle', () => {
  it('fails no run started on a new thread while the idle one exits', async () => {
    const shared = createSharedThread(new URL('../src/annuities/annuity-engine-worker.mjs', import.meta.url), 'annuities engine', { idleMs: 1 });
    try {
      const first = shared.thread();
      const exited = once(first, 'exit');
      const run = () => {};
      shared.active.add(run);
      shared.active.delete(run); // idle: stopped 1 ms later
      let second = shared.thread();
      while (second === first) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        second = shared.thread();
      }
      // A run of the new thread, registered before the old one's 'exit' arrives.
      const failures: Error[] = [];
      const fail = (error: Error) => void failures.push(error);
      shared.active.add(fail);
      await exited;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(failures).toEqual([]);
      expect(shared.thread()).toBe(second);
      shared.active.delete(fail);
    } finally {
      await shared.close();
    }
  });

  it('runs a file after the idle thread stopped', async () => {
    const quick = createAnnuityThreadEngine({ idleMs: 1 });
    try {
      const bytes = await xlsxBuffer([{ name: 'Patents', headers: ENGLISH_HEADERS, rows: [...rowsFrom(0, 1500)] }]);
      const run = () => quick(bytes, { mode: 'check', fileName: 'p.xlsx', today: '2026-11-24', batchSize: 1000, out: sink(), onRows: () => Promise.resolve(undefined) });
      const a = await run();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const b = await run();
      expect(a).toMatchObject({ ok: true, counts: { rows: 1500 } });
      expect(b).toMatchObject({ ok: true, counts: { rows: 1500 } });
    } finally {
      await quick.close();
    }
  }, 120_000);
});
