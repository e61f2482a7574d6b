/**
 * `npm run bench -- forecast`: the renewal budget (GET /api/forecast's service, decision 201) at 100,000 demo patents
 * (FORECAST_PATENTS; 300,000 annuity records, three per patent) × 5 years, in both modes — embedded (PGlite on a data directory) and production (PostgreSQL) —
 * in this process: the first build of the schedule rows (every patent through the engine once), then per figure
 * FORECAST_RUNS answers (median, p95, max wall time and this process's CPU per answer): the whole portfolio, one
 * office, one origin, the what-if, an agent's scope, and a re-answer after one patent changed (its rows rebuilt first).
 * Reference: what the rows avoid, running the engine over the 100,000 patents and summing per year (pure JS, no I/O).
 * Goal (issue 30 §2): every answer under 1 s. FORECAST_MODES=embedded,production chooses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { parseIsoDate } from '@portal/annuities/core';
import type { ForecastQuery } from '@portal/contracts';
import { openDatabase, type DatabaseConfig } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { liveParts, refreshForecast, rowsOf, seedDemoPortfolio } from '@portal/jobs';
import { computeForecast, specialCte } from '../apps/api/src/modules/forecast/service.ts';
import type { PatentScope } from '../apps/api/src/modules/patents/service.ts';
import { seedBaseData } from '../apps/api/src/seed.ts';
import { ms, percentile, timed } from './portfolio.ts';

const PATENTS = Number(process.env.FORECAST_PATENTS ?? 100_000);
const CABINETS = 88;
const RUNS = Number(process.env.FORECAST_RUNS ?? 15);
const MODES = (process.env.FORECAST_MODES ?? 'embedded,production').split(',');
const TODAY = new Date().toISOString().slice(0, 10);

interface Row {
  mode: string;
  figure: string;
  p50: number;
  p95: number;
  max: number;
  cpu: number;
  note: string;
}
const rows: Row[] = [];
const loads: number[] = [];

async function run(mode: string): Promise<void> {
  const dataDir = mode === 'embedded' ? mkdtempSync(path.join(tmpdir(), 'portal-forecast-')) : null;
  const scratch = mode === 'production' ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') : null;
  const config: DatabaseConfig = scratch ? { driver: 'postgres', url: scratch.url } : { driver: 'pglite', dataDir: path.join(dataDir!, 'db') };
  const handle = openDatabase(config);
  try {
    await handle.migrate();
    const db = handle.db;
    await seedBaseData(db, { email: 'bench@portal.example.com', password: 'bench-admin-password' });
    // The demo portfolio keeps three annuity records per patent (BRV-n): 3 × PATENTS records.
    const [seeded, seedMs] = await timed(() => seedDemoPortfolio(db, { patents: PATENTS * 3, cabinets: CABINETS, today: TODAY, passwordHash: null }));
    console.log(`${mode}: seeded ${seeded.patents} annuity records in ${(seedMs / 1000).toFixed(1)} s`);
    const [built, buildMs, buildCpu] = await timed(() => refreshForecast(db, TODAY));
    const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from patent_forecast_rows`)) as [{ n: number }];
    const [{ special }] = rowsOf<{ special: number }>(await db.execute(sql`with ${specialCte(TODAY)} select count(*)::int as special from special`)) as [{ special: number }];
    const [{ sums }] = rowsOf<{ sums: number }>(await db.execute(sql`select count(*)::int as sums from patent_forecast_sums`)) as [{ sums: number }];
    console.log(`${mode}: ${special} patents read through the engine per answer (overdue, in grace, ledger or "do not pay"); ${sums} month sums`);
    rows.push({ mode, figure: `first build (${built} patents → ${n} rows)`, p50: buildMs, p95: buildMs, max: buildMs, cpu: buildCpu, note: 'once, then per changed patent' });
    await db.execute(sql`vacuum analyze`);

    const [agent] = rowsOf<{ code: string[]; cabinets: string[] }>(
      await db.execute(sql`select u.code, (select array_agg(cabinet_id) from user_cabinets where user_id = u.id) as cabinets from users u where email = 'agent.annuites.01@portal.local'`),
    );
    const agentScope: PatentScope = { kind: 'owned', cabinetIds: agent?.cabinets ?? [], codes: agent?.code ?? [] };
    const all: PatentScope = { kind: 'all' };
    const base: ForecastQuery = { years: 5 };
    const figures: Array<[string, PatentScope, ForecastQuery]> = [
      ['admin, whole portfolio, 5 years', all, base],
      ['admin, office FR', all, { ...base, office: 'FR' }],
      ['admin, origin ep_validated', all, { ...base, origin: 'ep_validated' }],
      ['admin, what-if older than 10 years', all, { ...base, abandon_older_than: 10 }],
      ['agent (own cabinets and codes)', agentScope, base],
    ];
    for (const [figure, scope, query] of figures) {
      await computeForecast(db, scope, query, TODAY);
      const walls: number[] = [];
      const cpus: number[] = [];
      let annuities = 0;
      for (let i = 0; i < RUNS; i++) {
        const [body, wall, cpu] = await timed(() => computeForecast(db, scope, query, TODAY));
        walls.push(wall);
        cpus.push(cpu);
        annuities = body.totals.reduce((sum, t) => sum + t.annuities, 0);
      }
      rows.push({ mode, figure, p50: percentile(walls, 50), p95: percentile(walls, 95), max: Math.max(...walls), cpu: percentile(cpus, 50), note: `${annuities} annuities` });
    }
    // One patent changes: the next answer rebuilds its rows first.
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await db.execute(sql`update patent_records set quantieme = quantieme where id = (select id from patent_records order by id offset ${i} limit 1)`);
      await db.execute(sql`update patent_records set date_depot = date_depot - 1 where id = (select id from patent_records order by id offset ${i} limit 1)`);
      const [, wall, cpu] = await timed(() => computeForecast(db, all, base, TODAY));
      walls.push(wall);
      cpus.push(cpu);
    }
    rows.push({ mode, figure: 'admin, after one patent changed', p50: percentile(walls, 50), p95: percentile(walls, 95), max: Math.max(...walls), cpu: percentile(cpus, 50), note: 'rebuild + answer' });

    // Reference: the engine over every patent, per request (what the rows avoid).
    const inputs = rowsOf<{ pays: string; origine: string | null; date_depot: string | null; quantieme: number | null }>(
      await db.execute(sql`select pays, origine, date_depot::text as date_depot, quantieme from patent_records`),
    );
    const today = parseIsoDate(TODAY)!;
    const [, refWall, refCpu] = await timed(async () => {
      const sums = new Map<string, number>();
      for (const r of inputs) {
        for (const p of liveParts({ pays: r.pays, origine: r.origine, dateDepot: r.date_depot, quantieme: r.quantieme }, today)) {
          const key = `${p.payDay.slice(0, 4)}|${p.office}|${p.currency}`;
          sums.set(key, (sums.get(key) ?? 0) + (p.officialMinor ?? 0) + p.surchargeMinor);
        }
      }
      return sums;
    });
    rows.push({ mode, figure: `reference: engine over ${inputs.length} patents, no I/O`, p50: refWall, p95: refWall, max: refWall, cpu: refCpu, note: 'not counting the read of the records' });
  } finally {
    await handle.close();
    if (scratch) await scratch.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const sampler = setInterval(() => loads.push(loadavg()[0]!), 1000);
try {
  console.log(`machine: ${cpus().length} cpus, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; patents ${PATENTS}, runs per figure ${RUNS}, today ${TODAY}`);
  const cpu0 = process.cpuUsage();
  for (const mode of MODES) await run(mode);
  const used = process.cpuUsage(cpu0);
  console.log(`\nprocess CPU: ${((used.user + used.system) / 1e6).toFixed(1)} s; load average during the run: max ${Math.max(...loads, 0).toFixed(2)}, mean ${(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(2)}`);
  console.log('\n| mode | figure | p50 ms | p95 ms | max ms | CPU ms (p50) | |\n|---|---|---:|---:|---:|---:|---|');
  for (const r of rows) console.log(`| ${r.mode} | ${r.figure} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.cpu)} | ${r.note} |`);
  const worst = Math.max(...rows.filter((r) => !r.figure.startsWith('first build') && !r.figure.startsWith('reference')).map((r) => r.p95));
  console.log(`\ngoal: every answer's p95 under 1,000 ms → worst ${ms(worst)} ms: ${worst < 1000 ? 'met' : 'NOT met'}`);
} finally {
  clearInterval(sampler);
}
