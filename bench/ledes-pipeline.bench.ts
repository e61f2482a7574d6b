/**
 * The LEDES pipeline without the database: `npm run bench -- ledes-pipeline`.
 * A generated 200,000-line 1998B file read from disk through the engine alone, then through the
 * engine and the treated workbook (what a LEDES run computes), in this thread and in the engine
 * worker thread. Best of 3 per row, lines per wall-clock second and per CPU-second of the process
 * (all threads, zlib's included). BENCH_LINES changes the size.
 */
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkLedes, defaultProfile } from '../packages/ledes/src/index.ts';
import { generateLedes } from '../packages/ledes/test/generate.ts';
import { runEngineInThread, type LedesEngine } from '../packages/jobs/src/ledes/engine.ts';
import { createThreadEngine } from '../packages/jobs/src/ledes/engine-thread.ts';

const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const profile = defaultProfile('PAR', 'patent')!;
const now = new Date('2025-06-01T00:00:00Z');
const path = join(tmpdir(), `ledes-pipeline-${process.pid}.txt`);

interface Speed {
  wall: number;
  cpu: number;
}

async function best(run: () => Promise<number>, runs = 3): Promise<Speed> {
  const out: Speed = { wall: 0, cpu: 0 };
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const lines = await run();
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    out.wall = Math.max(out.wall, lines / seconds);
    out.cpu = Math.max(out.cpu, lines / ((used.user + used.system) / 1e6));
  }
  return out;
}

const input = () => createReadStream(path, { highWaterMark: 64 * 1024 });

async function engineAlone(): Promise<number> {
  const { summary } = await checkLedes(input(), { filename: path, profile, clock: () => now, collect: false });
  return summary.linesChecked;
}

async function withWorkbook(engine: LedesEngine): Promise<number> {
  const out = new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });
  const { summary } = await engine(input(), { filename: path, profile, now, workbook: { out, lang: 'en' }, onFindings: () => {}, acceptedInvoices: async () => false });
  return summary.linesChecked;
}

await pipeline(Readable.from(generateLedes(LINES)), createWriteStream(path));
const startLoad = loadavg()[0]!;
const thread = createThreadEngine();
try {
  const engine = await best(engineAlone);
  const local = await best(() => withWorkbook(runEngineInThread));
  await withWorkbook(thread); // starts the thread and loads its modules
  const threaded = await best(() => withWorkbook(thread));
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const per100k = (x: Speed) => (100_000 / x.cpu).toFixed(2);
  const ratio = (x: Speed) => `${(x.wall / engine.wall).toFixed(2)} (cpu ${(x.cpu / engine.cpu).toFixed(2)})`;
  console.log(`\nLEDES pipeline, ${LINES.toLocaleString('en-US')} lines of 1998B, Node ${process.version}; load average (1 min) at start / end ${startLoad.toFixed(1)} / ${loadavg()[0]!.toFixed(1)}\n`);
  console.log('| Measure | lines/s (wall) | lines per CPU-second | CPU s per 100k lines | × engine alone |\n|---|---:|---:|---:|---:|');
  console.log(`| engine alone (summary only) | ${fmt(engine.wall)} | ${fmt(engine.cpu)} | ${per100k(engine)} | 1.00 |`);
  console.log(`| engine + treated workbook, this thread | ${fmt(local.wall)} | ${fmt(local.cpu)} | ${per100k(local)} | ${ratio(local)} |`);
  console.log(`| engine + treated workbook, worker thread | ${fmt(threaded.wall)} | ${fmt(threaded.cpu)} | ${per100k(threaded)} | ${ratio(threaded)} |`);
} finally {
  await thread.close();
  rmSync(path, { force: true });
}
