/**
 * Client billing guidelines in the LEDES engine pass (issue 31 §1): `npm run bench -- ledes-guidelines`.
 * The same generated file through the engine without guidelines and with a 30-rule set (rates per classification,
 * units per day, block billing, codes, expense caps, receipts, billing period, upload delay) that the file passes,
 * so both passes read and check the same lines and only the guidelines' own work differs. The set's cross-invoice
 * history is an in-memory answer (the database lookup is one query per 1,000 keys, at the end). Runs alternate,
 * best of three each; wall and CPU seconds, and the ratio the issue asks to stay ≥ 0.8×.
 */
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkLedes, defaultProfile, type GuidelineOptions } from '../packages/ledes/src/index.ts';
import { generateLedes } from '../packages/ledes/test/generate.ts';
import { THIRTY_RULES } from './thirty-rules.ts';

const LINES = Number(process.env.BENCH_LEDES_GUIDELINES_LINES ?? 500_000);
const profile = defaultProfile('PAR', 'patent')!;
const clock = () => new Date('2025-06-01T00:00:00Z');


const guidelines: GuidelineOptions = {
  versions: [{ id: 'bench', version: 1, effective_from: '20240101', rules: THIRTY_RULES }],
  history: { lookup: () => ({ units: [], lines: [] }) },
};

async function pass(path: string, withRules: boolean): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { summary } = await checkLedes(createReadStream(path, { highWaterMark: 256 * 1024 }), {
    filename: path,
    profile,
    clock,
    collect: false,
    ...(withRules ? { guidelines } : {}),
  });
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  if (!summary.accepted || summary.linesChecked !== LINES) throw new Error(`unexpected verdict ${summary.accepted} / ${summary.linesChecked}`);
  if (withRules && summary.guidelineVersions?.length !== 1) throw new Error('the set was not applied');
  return { wall, cpu: (used.user + used.system) / 1e6 };
}

const path = join(tmpdir(), `ledes-guidelines-${process.pid}.txt`);
await pipeline(Readable.from(generateLedes(LINES, '98B')), createWriteStream(path));
try {
  await pass(path, false); // warm-up
  const best = { without: { wall: Infinity, cpu: Infinity }, with: { wall: Infinity, cpu: Infinity } };
  for (let round = 0; round < 3; round++) {
    for (const key of ['without', 'with'] as const) {
      const r = await pass(path, key === 'with');
      best[key] = { wall: Math.min(best[key].wall, r.wall), cpu: Math.min(best[key].cpu, r.cpu) };
    }
  }
  const rate = (s: number) => Math.round(LINES / s).toLocaleString('en');
  console.log(`\nLEDES engine pass, ${LINES.toLocaleString('en')} lines, best of 3 (load ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  console.table({
    'no guidelines': { 'wall s': best.without.wall.toFixed(2), 'CPU s': best.without.cpu.toFixed(2), 'lines/s (wall)': rate(best.without.wall) },
    '30-rule set': { 'wall s': best.with.wall.toFixed(2), 'CPU s': best.with.cpu.toFixed(2), 'lines/s (wall)': rate(best.with.wall) },
  });
  const ratio = best.without.cpu / best.with.cpu;
  console.log(`speed with the set / without (CPU): ${ratio.toFixed(2)}× (issue 31: ≥ 0.80×)${ratio < 0.8 ? '  BELOW TARGET' : ''}`);
} finally {
  rmSync(path, { force: true });
}
