/**
 * `npm run bench -- findings-insert`: how the LEDES worker should store findings. 200,000 findings
 * (one run, one per line) in batches of 1,000 rows (the worker's batch), as multi-row VALUES (Drizzle's
 * `insert().values()`, 5 parameters a row) or as 5 `unnest` arrays (`insertFindings`), on PGlite and on
 * PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432, skipped when unreachable). Best of 3.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { eq } from 'drizzle-orm';
import { ledesFindings, ledesRuns, openDatabase, users, type Database, type DatabaseConfig } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { insertFindings } from '../packages/jobs/src/ledes/findings.ts';

const FINDINGS = Number(process.env.BENCH_FINDINGS ?? 200_000);
const BATCH = 1000;
type Row = typeof ledesFindings.$inferInsert;

const strategies: Record<string, (db: Database, rows: Row[]) => Promise<void>> = {
  'multi-row VALUES': async (db, rows) => {
    await db.insert(ledesFindings).values(rows).onConflictDoNothing();
  },
  'unnest arrays': (db, rows) => insertFindings(db, rows),
};

async function measure(kind: string, config: DatabaseConfig): Promise<void> {
  const handle = openDatabase(config);
  try {
    await handle.migrate();
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Bench', email: 'bench@bench.example.com' }).returning();
    for (const [name, insert] of Object.entries(strategies)) {
      let best = Infinity;
      for (let attempt = 0; attempt < 3; attempt++) {
        const [run] = await handle.db
          .insert(ledesRuns)
          .values({ ownerId: owner!.id, name: 'b', originalName: 'b.txt', originalKey: `b/${crypto.randomUUID()}`, size: 1, sha256: 'x', office: 'PAR', type: 'patent' })
          .returning();
        const started = performance.now();
        for (let from = 0; from < FINDINGS; from += BATCH) {
          const rows: Row[] = [];
          for (let line = from; line < Math.min(FINDINGS, from + BATCH); line++) rows.push({ runId: run!.id, line, code: 'CON-001', champ: 'INVOICE_TOTAL', severity: 'error' });
          await insert(handle.db, rows);
        }
        best = Math.min(best, performance.now() - started);
        await handle.db.delete(ledesRuns).where(eq(ledesRuns.id, run!.id));
      }
      console.log(`| ${kind} | ${name} | ${Math.round((FINDINGS / best) * 1000).toLocaleString('en')} | ${(best / 1000).toFixed(2)} |`);
    }
  } finally {
    await handle.close();
  }
}

console.log(`Findings insert: ${FINDINGS.toLocaleString('en')} rows in batches of ${BATCH}, best of 3, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
console.log('| database | statement | rows/s | seconds |\n|---|---|---:|---:|');
await measure('PGlite', { driver: 'pglite', dataDir: 'memory://' });
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
try {
  scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
} catch (error) {
  console.log(`| PostgreSQL | skipped: ${(error as Error).message} | | |`);
}
if (scratch) {
  try {
    await measure('PostgreSQL', { driver: 'postgres', url: scratch.url });
  } finally {
    await scratch.drop();
  }
}
