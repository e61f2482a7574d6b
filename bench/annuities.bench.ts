/**
 * Annuities engine benchmark: `npm run bench -w @portal/annuities`.
 * Each scenario runs in its own child process so its peak RSS (getrusage maxrss) is its own.
 * Fixtures (100,000 mixed rows as .xlsx and as .xls) are generated once into the OS temp dir.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import {
  checkSpreadsheet,
  computeSchedule,
  evaluateRow,
  ExportWriter,
  parseIsoDate,
  readSpreadsheet,
  type Day,
  type Office,
  type Origin,
  type RightInput,
  type SheetInfo,
  type SheetRow,
  writeLedgerExport,
} from '../packages/annuities/src/index.ts';
import { ENGLISH_HEADERS, rowsFrom, xlsBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { ANNUITY_BENCH_DIR, BENCH_TODAY, exportFixture, exportFixturePath, workbookFixture, workbookFixturePath } from './annuity-fixtures.ts';
import { ownPeakRssMb } from './proc.ts';

const ROWS = 100_000;
const XLS_SHEET_ROWS = 50_000; // BIFF8 holds 65,536 rows a sheet
const TODAY = BENCH_TODAY;
const DIR = ANNUITY_BENCH_DIR;
const XLSX_FILE = workbookFixturePath(ROWS);
const XLS_FILE = join(DIR, `mixed-${ROWS}.xls`);
const OUT_FILE = join(DIR, 'export.xlsx');
/** The check's export of XLSX_FILE, kept: the input of the download's recolouring for a reader's ledger. */
const EXPORT_FIXTURE = exportFixturePath(ROWS);
const CAPPED_HEAP_MB = 256;

interface Measure {
  scenario: string;
  count: number;
  unit: string;
  seconds: number;
  peakRssMb: number;
  /** User + system CPU of the whole child (zlib threads included): steadier than wall time on a shared machine. */
  cpuSeconds?: number;
  note?: string;
}

const RUNS = 3;

function peakRssMb(): number {
  return Math.round(ownPeakRssMb());
}

async function fixtures(): Promise<void> {
  await workbookFixture(ROWS);
  if (!existsSync(XLS_FILE)) {
    const sheets = [];
    for (let s = 0; s * XLS_SHEET_ROWS < ROWS; s++) sheets.push({ name: `Patents ${s + 1}`, headers: ENGLISH_HEADERS, rows: rowsFrom(s * XLS_SHEET_ROWS, XLS_SHEET_ROWS) });
    await writeFile(XLS_FILE, xlsBuffer(sheets, false));
  }
  await exportFixture(ROWS);
}

const SCENARIOS: Record<string, () => Promise<Measure>> = {
  async schedules() {
    const offices: Array<[Office, Origin]> = [['FR', 'national'], ['DE', 'ep_validated'], ['EP', 'ep_application'], ['GB', 'national'], ['ES', 'national'], ['IT', 'national'], ['NL', 'ep_validated'], ['SE', 'national'], ['BE', 'national'], ['UP', 'unitary']];
    const inputs: RightInput[] = [];
    for (let i = 0; i < 1000; i++) {
      const [office, origin] = offices[i % offices.length] as [Office, Origin];
      const filing = (parseIsoDate('2006-01-01') as Day) + ((i * 97) % 7000);
      inputs.push({ office, origin, filing: filing as Day, grant: origin === 'national' && office !== 'GB' ? null : ((filing + 1500) as Day), lastPaid: i % 3 === 0 ? 5 + (i % 10) : null });
    }
    const n = 2_000_000;
    let sink = 0;
    for (let i = 0; i < 100_000; i++) sink += computeSchedule(inputs[i % 1000] as RightInput, TODAY).ok ? 1 : 0; // warm-up
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const r = computeSchedule(inputs[i % 1000] as RightInput, TODAY);
      if (r.ok) sink += r.value.annuities.length;
    }
    const seconds = (performance.now() - started) / 1000;
    return { scenario: 'schedules (all annuities + portal fields)', count: n, unit: 'schedules', seconds, peakRssMb: peakRssMb(), note: `checksum ${sink}` };
  },

  async 'exceljs-plain'() {
    const bytes = await readFile(XLSX_FILE);
    const started = performance.now();
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit', entries: 'ignore' });
    let rows = 0;
    let cells = 0;
    for await (const ws of reader) {
      for await (const row of ws as unknown as AsyncIterable<ExcelJS.Row>) {
        rows++;
        cells += (row.values as unknown[]).length;
      }
    }
    return { scenario: 'plain exceljs streaming read (ceiling)', count: rows - 1, unit: 'rows', seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb(), note: `${cells} cell slots` };
  },

  async 'read-xlsx'() {
    return read(XLSX_FILE, 'read .xlsx (guard + own reader, decision 240, + typed rows)');
  },

  async 'read-xls'() {
    return read(XLS_FILE, 'read .xls (guard + SheetJS + typed rows)');
  },

  async 'write-export'() {
    const bytes = await readFile(XLSX_FILE);
    const sheets: SheetInfo[] = [];
    const rows: SheetRow[] = [];
    await readSpreadsheet(bytes, 'bench.xlsx', { sheet: (s) => void sheets.push(s), row: (r) => void rows.push(r) });
    const evaluations = rows.map((r) => evaluateRow(r, TODAY));
    const out = createWriteStream(OUT_FILE);
    const started = performance.now();
    const writer = new ExportWriter(out);
    await writer.startSheet(sheets[0] as SheetInfo);
    for (let i = 0; i < rows.length; i++) await writer.addRow(rows[i] as SheetRow, evaluations[i] as ReturnType<typeof evaluateRow>);
    await writer.finish();
    out.end();
    await finished(out);
    return { scenario: 'write export .xlsx (rows held in memory)', count: rows.length, unit: 'rows', seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb() };
  },

  // A download of the export by a reader whose ledger moves half the rows (decision 234): unzip, recolour, zip.
  async 'ledger-export'() {
    const out = createWriteStream(OUT_FILE);
    const started = performance.now();
    const result = await writeLedgerExport(EXPORT_FIXTURE, (i) => (i % 4 === 0 ? 'paid' : i % 4 === 1 ? 'lapsed' : undefined), out);
    out.end();
    await finished(out);
    return { scenario: 'export recoloured for a reader’s ledger (half the rows moved)', count: result.rows, unit: 'rows', seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb(), note: `${result.recoloured} recoloured` };
  },

  async 'check-xlsx'() {
    return check(XLSX_FILE, 'read + compute + write, from .xlsx');
  },

  async 'check-xls'() {
    return check(XLS_FILE, 'read + compute + write, from .xls');
  },

  // The same two runs in a process whose heap is capped, as a bounded worker would run them:
  // V8 then collects SheetJS's garbage early instead of growing the heap.
  async 'check-xlsx-capped'() {
    return check(XLSX_FILE, `read + compute + write, from .xlsx, --max-old-space-size=${CAPPED_HEAP_MB}`);
  },

  async 'check-xls-capped'() {
    return check(XLS_FILE, `read + compute + write, from .xls, --max-old-space-size=${CAPPED_HEAP_MB}`);
  },
};

async function read(file: string, label: string): Promise<Measure> {
  const bytes = await readFile(file);
  const started = performance.now();
  let count = 0;
  const result = await readSpreadsheet(bytes, file, { sheet: () => undefined, row: () => void count++ });
  if (!result.ok) throw new Error(`${label}: ${result.reason}`);
  return { scenario: label, count, unit: 'rows', seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb() };
}

async function check(file: string, label: string): Promise<Measure> {
  const bytes = await readFile(file);
  const out = createWriteStream(OUT_FILE);
  const started = performance.now();
  const result = await checkSpreadsheet(bytes, file, { today: TODAY, out });
  out.end();
  await finished(out);
  if (!result.ok) throw new Error(`${label}: ${result.reason}`);
  return { scenario: label, count: result.value.rows, unit: 'rows', seconds: (performance.now() - started) / 1000, peakRssMb: peakRssMb() };
}

function runChild(name: string): Measure {
  const self = fileURLToPath(import.meta.url);
  // Run from the repository root so `--import tsx` resolves whatever the caller's directory.
  const flags = name.endsWith('-capped') ? [`--max-old-space-size=${CAPPED_HEAP_MB}`] : [];
  const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', self, '--scenario', name], { cwd: join(dirname(self), '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`scenario ${name} failed: ${child.stderr}`);
  return JSON.parse(line) as Measure;
}

const scenarioIndex = process.argv.indexOf('--scenario');
if (scenarioIndex !== -1) {
  const name = process.argv[scenarioIndex + 1] ?? '';
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const cpuBefore = process.cpuUsage();
  const measure = await scenario();
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(`${JSON.stringify({ ...measure, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
} else {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  await fixtures();
  // Best wall time of RUNS runs (the machine is shared); peak RSS is the worst of them.
  const results = (only.length ? only : Object.keys(SCENARIOS)).map((name) => {
    const runs = Array.from({ length: RUNS }, () => runChild(name));
    const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    return { ...best, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) };
  });
  const plain = results.find((r) => r.scenario.startsWith('plain exceljs'));
  const xlsxRead = results.find((r) => r.scenario.startsWith('read .xlsx'));
  console.log(`machine: ${cpus().length} CPU (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} free), node ${process.version}`);
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(', ')}; best of ${RUNS} runs, peak RSS the highest of them`);
  console.log('| scenario | count | seconds | per second | per CPU-second | peak RSS (MB) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const perCpu = r.cpuSeconds ? Math.round(r.count / r.cpuSeconds).toLocaleString('en') : '';
    console.log(`| ${r.scenario} | ${r.count.toLocaleString('en')} ${r.unit} | ${r.seconds.toFixed(2)} | ${Math.round(r.count / r.seconds).toLocaleString('en')} | ${perCpu} | ${r.peakRssMb} |`);
  }
  if (plain && xlsxRead) console.log(`\nread .xlsx / plain exceljs time ratio: ${(xlsxRead.seconds / plain.seconds).toFixed(2)} (target ≤ 1.5)`);
}
