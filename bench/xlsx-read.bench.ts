/**
 * The .xlsx reader alone (decision 240): the engine's own reader against exceljs' streaming reader (the one it
 * replaced, kept in the tests as the differential's reference), on the 100,000-row workbook of `scale-annuities`.
 * Each read runs in a process of its own, three times: wall time, CPU time and the process's own peak RSS, with the
 * rows only counted (no engine, no export), beside the guard's inspection alone (the zip inflated and scanned once).
 *
 *   npm run bench -- xlsx-read
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectSpreadsheet } from '../packages/annuities/src/spreadsheet/guard.ts';
import { DEFAULT_LIMITS } from '../packages/annuities/src/spreadsheet/limits.ts';
import { readXlsx } from '../packages/annuities/src/spreadsheet/read-xlsx.ts';
import type { RowVisitor } from '../packages/annuities/src/spreadsheet/rows.ts';
import { readXlsxWithExcelJs } from '../packages/annuities/test/support/exceljs-reader.ts';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { ownPeakRssMb } from './proc.ts';

const ROWS = 100_000;
const RUNS = 3;
const READERS = { guard: null, ours: readXlsx, exceljs: readXlsxWithExcelJs } as const;
type ReaderName = keyof typeof READERS;

interface Measure {
  readonly rows: number;
  readonly wall: number;
  readonly cpu: number;
  readonly peak: number;
}

async function measure(reader: ReaderName, file: string): Promise<Measure> {
  const bytes = readFileSync(file);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const inspection = await inspectSpreadsheet(bytes, 'scale.xlsx', DEFAULT_LIMITS);
  if (!inspection.ok) throw new Error(inspection.reason);
  let rows = 0;
  const read = READERS[reader];
  if (read) {
    const visitor: RowVisitor = { sheet: () => {}, row: () => void rows++ };
    const result = await read(bytes, inspection.value, DEFAULT_LIMITS, visitor);
    if (!result.ok) throw new Error(result.reason);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { rows, wall: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6, peak: ownPeakRssMb() };
}

const childIndex = process.argv.indexOf('--read');
if (childIndex !== -1) {
  const result = await measure(process.argv[childIndex + 1] as ReaderName, process.argv[childIndex + 2]!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const self = fileURLToPath(import.meta.url);
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-xlsx-read-'));
  const file = path.join(dir, 'scale.xlsx');
  const bytes = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
  writeFileSync(file, bytes);
  const run = (reader: ReaderName): Measure => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--read', reader, file], { cwd: path.join(path.dirname(self), '..'), encoding: 'utf8' });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) throw new Error(`${reader} failed: ${child.stderr}`);
    return JSON.parse(line) as Measure;
  };
  try {
    const results = new Map<ReaderName, Measure[]>();
    // Interleaved, so a change in the machine's state falls on each reader alike.
    for (let i = 0; i < RUNS; i++) for (const reader of Object.keys(READERS) as ReaderName[]) results.set(reader, [...(results.get(reader) ?? []), run(reader)]);
    console.log(`\n.xlsx reader alone: ${ROWS.toLocaleString('en')} rows (${(bytes.length / 2 ** 20).toFixed(1)} MiB), ${RUNS} runs each, each in its own process`);
    console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString()}\n`);
    console.log('| reader | rows | wall s (best / worst) | CPU s (best) | peak RSS MB (best / worst) |\n|---|---:|---:|---:|---:|');
    const label: Record<ReaderName, string> = { guard: 'guard only (inspection: inflate + scan)', ours: 'guard + own reader (decision 240)', exceljs: 'guard + exceljs streaming reader (before)' };
    for (const [reader, runs] of results) {
      const walls = runs.map((r) => r.wall);
      const peaks = runs.map((r) => r.peak);
      console.log(`| ${label[reader]} | ${runs[0]!.rows.toLocaleString('en')} | ${Math.min(...walls).toFixed(2)} / ${Math.max(...walls).toFixed(2)} | ${Math.min(...runs.map((r) => r.cpu)).toFixed(2)} | ${Math.min(...peaks).toFixed(0)} / ${Math.max(...peaks).toFixed(0)} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
