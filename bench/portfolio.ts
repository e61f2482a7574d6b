/**
 * What the portfolio benches (`patents`, `payments`) share: a fresh PostgreSQL database with the demo portfolio,
 * the list service's context, the demo agent's scope, the load sampler, and the report table.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { sql } from 'drizzle-orm';
import type { PatentListQuery } from '@portal/contracts';
import { openDatabase, type Database } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { rowsOf, seedDemoPortfolio } from '@portal/jobs';
import { createLogger, type Logger } from '@portal/logger';
import type { AppContext } from '../apps/api/src/context.ts';
import type { PatentScope } from '../apps/api/src/modules/patents/service.ts';
import { seedBaseData } from '../apps/api/src/seed.ts';

import { ms, percentile, timed } from './report.ts';

export { ms, percentile, timed };

/** Rows printed as they come (name padded to `width`), then again as a Markdown table by `print`. */
export function createReport(width: number) {
  const rows: Array<[string, string, string]> = [];
  return {
    report(name: string, a: string, b = ''): void {
      rows.push([name, a, b]);
      console.log(`${name.padEnd(width)} ${a.padStart(12)} ${b.padStart(12)}`);
    },
    print(loads: readonly number[]): void {
      console.log(`\nload average during the run: max ${Math.max(...loads, 0).toFixed(2)}, mean ${(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(2)}`);
      console.log('\n| measure | value | |\n|---|---:|---:|');
      for (const [name, a, b] of rows) console.log(`| ${name} | ${a} | ${b} |`);
    },
  };
}

export interface PortfolioBench {
  db: Database;
  ctx: AppContext;
  logger: Logger;
  agentScope: PatentScope;
  /** The agents' list's default page: the unprocessed tab by due date, 25 rows. */
  base: PatentListQuery;
  /** The load average, sampled every second until `close`. */
  loads: number[];
  close(): Promise<void>;
}

/**
 * A scratch database on the server of TEST_DATABASE_URL, migrated, with the base data and `patents` demo patents
 * over `cabinets` cabinets, vacuumed and analysed as autovacuum would after a bulk insert (PostgreSQL 13+).
 */
export async function openPortfolio(options: { name: string; patents: number; cabinets: number; today: string; queryRuns: number }): Promise<PortfolioBench & { seeded: { patents: number }; seedMs: number }> {
  const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const scratch = await createScratchDatabase(baseUrl);
  const database = openDatabase({ driver: 'postgres', url: scratch.url });
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]!), 1000);
  const close = async () => {
    clearInterval(sampler);
    await database.close();
    await scratch.drop();
  };
  try {
    const logger = createLogger({ level: 'warn', name: options.name });
    await database.migrate();
    const db = database.db;
    await seedBaseData(db, { email: 'bench@portal.example.com', password: 'bench-admin-password' });
    console.log(`machine: ${cpus().length} cpus, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; patents ${options.patents}, cabinets ${options.cabinets}, runs per query ${options.queryRuns}`);
    const [seeded, seedMs] = await timed(() => seedDemoPortfolio(db, { patents: options.patents, cabinets: options.cabinets, today: options.today, passwordHash: null }));
    await db.execute(sql`vacuum analyze`);
    // The services' ports: the mails they write (the bulk update's confirmation) stay rows; nothing sends them here.
    const ctx = { db, clock: { now: () => new Date() }, logger, queue: { enqueue: async () => undefined } } as unknown as AppContext;
    const [agent] = rowsOf<{ id: string; code: string[]; cabinets: string[] }>(
      await db.execute(sql`select u.id, u.code, (select array_agg(cabinet_id) from user_cabinets where user_id = u.id) as cabinets from users u where email = 'agent.annuites.01@portal.local'`),
    );
    if (!agent) throw new Error('no demo agent');
    const agentScope: PatentScope = { kind: 'owned', cabinetIds: agent.cabinets, codes: agent.code };
    const base: PatentListQuery = { tab: 'unprocessed', sort: 'DateEcheance', order: 'asc', page: 1, limit: 25 };
    return { db, ctx, logger, agentScope, base, loads, close, seeded, seedMs };
  } catch (error) {
    await close();
    throw error;
  }
}
