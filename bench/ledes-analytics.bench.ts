/**
 * `npm run bench -- ledes-analytics`: the LEDES spend analytics (issue 31 §2, decision 206) over 1,000,000 invoice
 * lines, in the embedded mode (PGlite) and the production mode (PostgreSQL: TEST_DATABASE_URL or 127.0.0.1:5432,
 * skipped when unreachable). The lines (1,000 files of 1,000 lines, a seeded generator: 40 firms, 120 clients,
 * 36 months, 30 tasks, each file one firm, one client, two matters, six timekeepers, two months) go through the
 * real rollup (`SpendAccumulator`, what the engine pass runs) and are stored as a run's Done transaction stores them
 * (`storeSpend`); then GET /api/ledes/analytics's query (`spendAnalytics`) is timed with four filter sets, median
 * of 5 after one warm-up. Reference: each answer under 1 s (issue 31, done-when 3).
 */
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { sql } from 'drizzle-orm';
import { ledesRuns, openDatabase, users, type DatabaseConfig } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { rowsOf } from '@portal/jobs';
import { SpendAccumulator, type SpendRow } from '../packages/jobs/src/ledes/spend.ts';
import { storeSpend } from '../packages/jobs/src/ledes/spend-store.ts';
import { spendAnalytics } from '../apps/api/src/modules/analytics/service.ts';
import { machine, timedRuns } from './report.ts';

const FILES = Number(process.env.BENCH_FILES ?? 1000);
const LINES = Number(process.env.BENCH_LINES_PER_FILE ?? 1000);
const REFERENCE_MS = 1000;
const HEADER =
  'INVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID'.split(
    '|',
  );

/** A small seeded generator (mulberry32): the same lines on every run of the bench. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The rollup of each file, built from its lines' fields as the engine pass builds it; with the CPU time it took. */
function rollups(): { files: { rows: SpendRow[]; accepted: boolean }[]; cpuMs: number } {
  const rnd = random(31);
  const pick = (n: number) => Math.floor(rnd() * n);
  const files: { rows: SpendRow[]; accepted: boolean }[] = [];
  let cpuMs = 0;
  for (let f = 0; f < FILES; f++) {
    const firm = `FIRM-${pick(40)}`;
    const client = `CL-${pick(120)}`;
    const matters = [`M-${pick(4000)}`, `M-${pick(4000)}`];
    const timekeepers = Array.from({ length: 6 }, () => `TK-${firm}-${pick(30)}`);
    const m = pick(35);
    const months = [m, m + 1].map((i) => `${2024 + Math.floor(i / 12)}${String((i % 12) + 1).padStart(2, '0')}15`);
    const lines: string[][] = [];
    for (let l = 0; l < LINES; l++) {
      const fields = new Array<string>(HEADER.length).fill('');
      const fee = rnd() < 0.85;
      const units = (1 + pick(40)) / 10;
      const rate = 150 + pick(400);
      fields[2] = client;
      fields[3] = matters[pick(2)]!;
      fields[9] = fee ? 'F' : 'E';
      fields[10] = units.toFixed(1);
      fields[12] = (units * rate).toFixed(2);
      fields[13] = months[pick(2)]!;
      fields[14] = fee ? `L${100 + 10 * pick(30)}` : '';
      fields[17] = fee ? timekeepers[pick(6)]! : '';
      fields[19] = firm;
      fields[21] = fee ? 'Name, First' : '';
      lines.push(fields);
    }
    const started = cpuUsage();
    const acc = new SpendAccumulator();
    acc.onStart(HEADER);
    for (const fields of lines) acc.onLine(fields, []);
    const rows = acc.result();
    const used = cpuUsage(started);
    cpuMs += (used.user + used.system) / 1000;
    files.push({ rows, accepted: rnd() < 0.9 });
  }
  return { files, cpuMs };
}

const QUERIES: Record<string, Parameters<typeof spendAnalytics>[1]> = {
  'everything': {},
  'one year': { from: '2025-01', to: '2025-12' },
  'one firm': { law_firm: 'FIRM-7' },
  'firm + task + quarter': { law_firm: 'FIRM-7', task: 'L200', from: '2025-04', to: '2025-06' },
};

async function measure(kind: string, config: DatabaseConfig, data: ReturnType<typeof rollups>): Promise<void> {
  const handle = openDatabase(config);
  try {
    await handle.migrate();
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Bench', email: 'bench@bench.example.com' }).returning();
    const started = performance.now();
    for (const [i, file] of data.files.entries()) {
      await handle.db.transaction(async (tx) => {
        const [run] = await tx
          .insert(ledesRuns)
          .values({ ownerId: owner!.id, name: `b${i}`, originalName: 'b.txt', originalKey: `b/${i}`, size: 1, sha256: 'x', office: 'PAR', type: 'patent', state: 'Done', accepted: file.accepted })
          .returning();
        await storeSpend(tx, run!.id, file.accepted, file.rows);
      });
    }
    const storeMs = performance.now() - started;
    await handle.db.execute(sql`analyze ledes_spend`);
    await handle.db.execute(sql`analyze ledes_spend_by_dimension`);
    const [counts] = rowsOf<{ n: number; d: number }>(
      await handle.db.execute(sql`select (select count(*) from ledes_spend)::integer as n, (select count(*) from ledes_spend_by_dimension)::integer as d`),
    );
    console.log(`| ${kind} | store ${FILES.toLocaleString('en')} runs' rollups (${Number(counts?.n).toLocaleString('en')} + ${Number(counts?.d).toLocaleString('en')} per dimension rows) | ${(storeMs / FILES).toFixed(1)} ms per run | |`);
    for (const [name, query] of Object.entries(QUERIES)) {
      const runs = await timedRuns(5, () => spendAnalytics(handle.db, query));
      const median = runs.p50;
      const cpu = runs.cpu;
      console.log(`| ${kind} | analytics: ${name} | ${median.toFixed(0)} ms (CPU of this process ${cpu.toFixed(0)} ms) | ${median < REFERENCE_MS ? 'under 1 s' : 'OVER 1 s'} |`);
    }
  } finally {
    await handle.close();
  }
}

const data = rollups();
const lines = FILES * LINES;
console.log(`LEDES spend analytics: ${lines.toLocaleString('en')} invoice lines in ${FILES.toLocaleString('en')} files, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Machine: ${machine()}`);
console.log(`Rollup in the engine pass: ${data.cpuMs.toFixed(0)} ms CPU for ${lines.toLocaleString('en')} lines (${((data.cpuMs * 1000) / lines).toFixed(2)} µs a line)\n`);
console.log('| mode | step | figure | reference (< 1 s) |\n|---|---|---:|---|');
await measure('embedded (PGlite)', { driver: 'pglite', dataDir: 'memory://' }, data);
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
try {
  scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
} catch (error) {
  console.log(`| production (PostgreSQL) | skipped: ${(error as Error).message} | | |`);
}
if (scratch) {
  try {
    await measure('production (PostgreSQL)', { driver: 'postgres', url: scratch.url }, data);
  } finally {
    await scratch.drop();
  }
}
console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
