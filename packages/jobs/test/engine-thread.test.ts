import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultProfile, type ResolvedFinding } from '@portal/ledes';
import { runEngineInThread, type LedesEngine } from '../src/ledes/engine.ts';
import { createThreadEngine } from '../src/ledes/engine-thread.ts';
import { goldenCases } from '../../ledes/test/golden.ts';

const profile = defaultProfile('PAR', 'patent')!;
const NOW = new Date('2025-06-01T08:00:00.000Z');
const HEADER =
  'LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\n';

/** Several invoices with findings of every kind: line errors, warnings, invoice totals, a duplicate. */
function ledesFile(invoices: number, linesPerInvoice: number, noise = false): Buffer {
  const rows: string[] = [];
  for (let inv = 1; inv <= invoices; inv++) {
    for (let i = 1; i <= linesPerInvoice; i++) {
      const total = i % 7 === 0 ? '701.00' : '700.00';
      // `noise`: a description per line that deflate cannot shrink, for a workbook of many megabytes.
      const description = i % 5 === 0 ? '=cmd' : noise ? `Research ${randomBytes(24).toString('hex')}` : 'Research and drafting of the reply';
      rows.push(`20250210|INV-${inv}|C1|0528|${(linesPerInvoice * 700).toFixed(2)}|20250101|20250131|For services rendered|${i}|F|2.00|0|${total}|20250115|L510||A102|22547|${description}|24-6437381|350.00|Arnsley, Robert|PARTNR|423-987[]`);
    }
  }
  return Buffer.from(HEADER + rows.join('\n') + '\n');
}

async function* chunks(bytes: Buffer, size = 4096): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function collector(): { out: Writable; bytes(): Buffer; writes(): number } {
  const parts: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      parts.push(Buffer.from(chunk));
      cb();
    },
  });
  return { out, bytes: () => Buffer.concat(parts), writes: () => parts.length };
}

async function check(engine: LedesEngine, bytes: Buffer) {
  const findings: ResolvedFinding[] = [];
  const lookups: string[] = [];
  const workbook = collector();
  const { summary } = await engine(chunks(bytes), {
    filename: 'f.txt',
    profile,
    now: NOW,
    workbook: { out: workbook.out, lang: 'fr' },
    onFindings: (batch) => findings.push(...batch),
    acceptedInvoices: async (invoiceNumber: string) => {
      lookups.push(invoiceNumber);
      return invoiceNumber === 'INV-3';
    },
  });
  return { summary, findings, lookups, workbook: workbook.bytes(), writes: workbook.writes() };
}

describe('LEDES engine in a worker thread', () => {
  const engine = createThreadEngine();
  afterAll(() => engine.close());

  it('gives the same summary, findings (in order), duplicate lookups and workbook bytes as the in-thread path', async () => {
    const bytes = ledesFile(12, 300);
    const local = await check(runEngineInThread, bytes);
    const threaded = await check(engine, bytes);
    expect(local.findings.length).toBeGreaterThan(1000);
    expect(local.findings.some((f) => f.code === 'CON-007')).toBe(true);
    expect(threaded.summary).toEqual(local.summary);
    expect(threaded.findings).toEqual(local.findings);
    expect(threaded.lookups).toEqual(local.lookups);
    expect(threaded.workbook.equals(local.workbook)).toBe(true);
    expect(threaded.workbook.subarray(0, 2).toString()).toBe('PK');
  });

  it('#8 gives the same workbook bytes, findings and summary as the in-thread path on every golden case (samples, damaged lines, encodings, XML)', async () => {
    const cases = await goldenCases();
    expect(cases.length).toBeGreaterThan(50);
    for (const [i, c] of cases.entries()) {
      const run = async (run: LedesEngine) => {
        const findings: ResolvedFinding[] = [];
        const workbook = collector();
        const { summary } = await run(chunks(Buffer.from(c.bytes), c.chunk), {
          filename: 'f.txt',
          profile: c.options?.profile ?? profile,
          now: NOW,
          maxLineBytes: c.options?.maxLineBytes,
          acceptedInvoices: c.options?.acceptedInvoices,
          workbook: { out: workbook.out, lang: i % 2 === 0 ? 'fr' : 'en' },
          onFindings: (batch) => findings.push(...batch),
        });
        return { summary, findings, workbook: workbook.bytes() };
      };
      const local = await run(runEngineInThread);
      const threaded = await run(engine);
      expect(threaded.summary, c.name).toEqual(local.summary);
      expect(threaded.findings, c.name).toEqual(local.findings);
      expect(threaded.workbook.equals(local.workbook), c.name).toBe(true);
    }
  });

  it('#8 a workbook of megabytes arrives byte for byte in a few large writes, not one per deflate piece', async () => {
    const bytes = ledesFile(40, 1000);
    const local = await check(runEngineInThread, bytes);
    const threaded = await check(engine, bytes);
    expect(threaded.workbook.length).toBeGreaterThan(1024 * 1024);
    expect(threaded.workbook.equals(local.workbook)).toBe(true);
    // Each write is a message handled on the main thread and a storage write: 256 KiB each, the last aside.
    expect(threaded.writes).toBeLessThanOrEqual(Math.ceil(threaded.workbook.length / (256 * 1024)) + 1);
  });

  it('#28 a slow destination holds the workbook back with one drain listener at a time, never a MaxListenersExceededWarning', async () => {
    // The production destination: a PassThrough (16 KiB mark) drained by the storage upload. Here nothing reads it
    // until 3 MiB wait in it, so each 256 KiB message of the writer's 4 MiB window finds it full.
    const out = new PassThrough();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    let maxDrainListeners = 0;
    const parts: Buffer[] = [];
    const watch = setInterval(() => (maxDrainListeners = Math.max(maxDrainListeners, out.listenerCount('drain'))), 5);
    try {
      // Read once 3 MiB wait in the destination: twelve messages the writer sent while it was full.
      const reading = new Promise<void>((resolve, reject) => {
        const full = setInterval(() => {
          if (out.writableLength < 3 * 1024 * 1024) return;
          clearInterval(full);
          out.on('data', (chunk: Buffer) => parts.push(chunk));
          out.once('end', resolve);
          out.once('error', reject);
        }, 5);
      });
      const bytes = ledesFile(60, 1000, true);
      const [{ summary }] = await Promise.all([engine(chunks(bytes, 65536), { filename: 'f.txt', profile, now: NOW, workbook: { out, lang: 'en' }, onFindings: () => {} }), reading]);
      expect(summary.linesChecked).toBe(60_000);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      clearInterval(watch);
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map(String)).toEqual([]);
    expect(maxDrainListeners).toBeLessThanOrEqual(1);
  });

  it('runs two checks at once in the one thread, each with its own result', async () => {
    const [a, b] = await Promise.all([check(engine, ledesFile(2, 50)), check(engine, ledesFile(3, 40))]);
    expect(a.summary.linesChecked).toBe(100);
    expect(b.summary.linesChecked).toBe(120);
  });

  it('a failing duplicate lookup on the main thread fails the run with its error', async () => {
    const failing: LedesEngine = (source, options) => engine(source, { ...options, acceptedInvoices: async () => Promise.reject(new Error('database down')) });
    await expect(check(failing, ledesFile(2, 10))).rejects.toThrow('database down');
  });

  it('#8 a destination that fails mid-workbook, or an input that fails mid-file, fails the run with its error; both threads take the next run', async () => {
    const bytes = ledesFile(40, 1000);
    let written = 0;
    const failingOut = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        cb(written > 512 * 1024 ? new Error('storage went read-only') : null);
      },
    });
    await expect(
      engine(chunks(bytes, 65536), { filename: 'f.txt', profile, now: NOW, workbook: { out: failingOut, lang: 'en' }, onFindings: () => {} }),
    ).rejects.toThrow('storage went read-only');
    async function* failingInput(): AsyncGenerator<Uint8Array> {
      yield* chunks(bytes.subarray(0, 1024 * 1024), 65536);
      throw new Error('storage read failed');
    }
    const out = collector();
    await expect(engine(failingInput(), { filename: 'f.txt', profile, now: NOW, workbook: { out: out.out, lang: 'en' }, onFindings: () => {} })).rejects.toThrow('storage read failed');
    const again = await check(engine, ledesFile(2, 10));
    expect(again.summary.linesChecked).toBe(20);
  });

  it.each(['engine', 'writer'] as const)('a crash of the %s thread (out of memory) fails the run with the reason instead of hanging; the next run gets a fresh thread', async (which) => {
    const starved = createThreadEngine({ resourceLimits: { [which]: { maxOldGenerationSizeMb: 4, maxYoungGenerationSizeMb: 1 } } });
    try {
      await expect(check(starved, ledesFile(20, 500))).rejects.toThrow(new RegExp(`LEDES ${which} thread (crashed|exited)`));
    } finally {
      await starved.close();
    }
    const again = await check(engine, ledesFile(1, 10));
    expect(again.summary.linesChecked).toBe(10);
  });
});
