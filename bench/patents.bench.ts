/**
 * Patents (issue 11), on PostgreSQL: `npm run bench -- patents`. A fresh database on the server of
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) with BENCH_PATENTS (100,000)
 * patents over 50 cabinets (the demo portfolio's generator), then:
 * - the tab list (the list service the route calls): each tab × each sort, and each filter, p50 / p95
 *   over BENCH_QUERY_RUNS runs, for an agent (its cabinet and one client code) and for an admin;
 * - one atomic update of 1,000 instructions (the bulk service);
 * - an import of BENCH_PATENTS rows (CSV, the patent-import processor) and the re-import of the same file;
 * - the reminder run over the portfolio (every agent), then the same day again.
 * Targets (issue 11): list p95 < 100 ms, bulk < 1 s, import < 20 s (re-import < 20 s, 0 changes), reminders < 10 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PATENT_SORTS, type PatentListQuery } from '@portal/contracts';
import { patentImports } from '@portal/db';
import { createImportPatentsProcessor, rowsOf, runPatentReminders } from '@portal/jobs';
import { createInProcessPublisher } from '@portal/realtime';
import { createStorage } from '@portal/storage';
import type { AuthState } from '../apps/api/src/http/session.ts';
import { bulkUpdateInstructions, listPatents, type PatentScope } from '../apps/api/src/modules/patents/service.ts';
import { createReport, ms, openPortfolio, percentile, timed } from './portfolio.ts';

const PATENTS = Number(process.env.BENCH_PATENTS ?? 100_000);
const CABINETS = 50;
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);
const TODAY = new Date().toISOString().slice(0, 10);

/** A number in the office's format (the import refuses others, issue 25 §3): the shape e2e/src/patents.ts uses. */
function officeNumber(pays: string, kind: 'application' | 'publication', i: number): string {
  const length = kind === 'application' ? ({ DE: 12, EP: 8, IT: 15 } as Record<string, number>)[pays] ?? 7 : pays === 'IT' ? 15 : 7;
  return `${pays}${(kind === 'application' ? '2' : '3').padEnd(length - 6, '0')}${String(i).padStart(6, '0')}`;
}

const { report, print } = createReport(58);
const { db, ctx, logger, agentScope, base, loads, close, seeded, seedMs } = await openPortfolio({ name: 'bench-patents', patents: PATENTS, cabinets: CABINETS, today: TODAY, queryRuns: QUERY_RUNS });
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-patents-'));
try {
  report(`seed ${seeded.patents} patents (demo generator)`, `${ms(seedMs)} ms`);

  const measure = async (name: string, scope: PatentScope, query: Partial<PatentListQuery>) => {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < QUERY_RUNS; i++) {
      const [page, took] = await timed(() => listPatents(ctx, scope, { ...base, ...query }));
      total = page.meta.total;
      times.push(took);
    }
    report(`${name} (${total} rows)`, `p50 ${ms(percentile(times, 50))}`, `p95 ${ms(percentile(times, 95))}`);
    return percentile(times, 95);
  };
  console.log('\nlist (ms):');
  const p95s: number[] = [];
  for (const who of [
    { label: 'agent', scope: agentScope },
    { label: 'admin', scope: { kind: 'all' } as PatentScope },
  ]) {
    for (const tab of ['unprocessed', 'unvalidated'] as const) {
      for (const sort of PATENT_SORTS) p95s.push(await measure(`${who.label} ${tab} sort ${sort}`, who.scope, { tab, sort }));
      p95s.push(await measure(`${who.label} ${tab} sort DateEcheance desc, page 20`, who.scope, { tab, order: 'desc', page: 20 }));
    }
    const from = TODAY;
    const to = new Date(Date.parse(`${TODAY}T00:00:00Z`) + 90 * 86_400_000).toISOString().slice(0, 10);
    p95s.push(await measure(`${who.label} filter dates (90 days)`, who.scope, { dates: [from, to] }));
    p95s.push(await measure(`${who.label} filter one day`, who.scope, { dates: [from] }));
    p95s.push(await measure(`${who.label} filter references (3, substring)`, who.scope, { references: ['CLI-12', 'FR2015', 'EP1000'] }));
    p95s.push(await measure(`${who.label} unvalidated filter instruction 2`, who.scope, { tab: 'unvalidated', instruction: [2] }));
    p95s.push(await measure(`${who.label} filter office DE, GB`, who.scope, { office: ['DE', 'GB'] }));
    p95s.push(await measure(`${who.label} search "invention 4242"`, who.scope, { search: 'invention 4242' }));
    p95s.push(await measure(`${who.label} search "cli-1"`, who.scope, { search: 'cli-1' }));
  }
  report('list: worst p95', `${ms(Math.max(...p95s))} ms`);

  // One atomic update of 1,000 instructions: unlocked, unprocessed rows (limit date ahead).
  const candidates = rowsOf<{ idagenda: string; reference_client: string | null; numero_depot: string | null; numero_publication: string | null; pays: string; date_echeance: string; version: number }>(await db.execute(sql`
    select idagenda, reference_client, numero_depot, numero_publication, pays, date_echeance::text as date_echeance, version
    from patent_records where has_instruction = false and instruction_status = 'unprocessed' and date_echeance > ${TODAY}::date + 10
    order by id limit 1000`));
  const [benchAdmin] = rowsOf<{ id: string }>(await db.execute(sql`select id from users where email = 'bench@portal.example.com'`));
  const actor: AuthState = { sessionId: 'bench', userId: benchAdmin!.id, email: 'bench@portal.example.com', langue: 'en', roles: ['admin'], isAdmin: true };
  const items = candidates.map((r) => ({
    idagenda: r.idagenda,
    ReferenceClient: r.reference_client,
    noDepot: r.numero_depot,
    NoPublication: r.numero_publication,
    Pays: r.pays,
    DateEcheance: r.date_echeance,
    instructionBeingUpdated: 1,
    version: r.version,
  }));
  const [updated, bulkMs] = await timed(() => bulkUpdateInstructions(ctx, actor, items as Parameters<typeof bulkUpdateInstructions>[2]));
  report(`atomic update of ${updated.length} instructions`, `${ms(bulkMs)} ms`);

  // Import: a CSV of PATENTS new rows (the back office's columns), then the same file again.
  const storage = await createStorage({ driver: 'local', root: path.join(dataDir, 'files') });
  await storage.ensureReady();
  const header = 'idagenda;idbrevet;code_client;cabinet;ReferenceClient;nosref;noDepot;NoPublication;Pays;Origine;Depot;Expiration;DateEcheance;Quantieme;cost;currency;TitreAnglais;TitreFrancais;DonneurOrdre;DonneurOrdreAn';
  const offices = ['BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE', 'EP', 'UP'];
  const lines = [header];
  for (let i = 0; i < PATENTS; i++) {
    const office = offices[i % offices.length]!;
    const origin = office === 'EP' ? 'ep_application' : office === 'UP' ? 'unitary' : 'national';
    const filing = `${2008 + (i % 15)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    // A third of the rows leave due date, annuity number and fee to the engine; some fees in pounds.
    const computed = i % 3 === 0;
    const due = computed ? '' : `${2027 + (i % 2)}-${String(1 + (i % 12)).padStart(2, '0')}-15`;
    const fee = computed ? '' : String(100 + (i % 900));
    const currency = computed ? '' : i % 7 === 0 ? 'GBP' : 'EUR';
    lines.push(
      [`IMP-${i}`, `B-${i}`, `DEMO${String(1 + (i % 100)).padStart(3, '0')}`, `Cabinet Démo ${String(1 + (i % CABINETS)).padStart(2, '0')}`, `REF-${i}`, `NS-${i}`, officeNumber(office === 'UP' ? 'EP' : office, 'application', i), officeNumber(office, 'publication', i), office, origin, filing, '', due, computed ? '' : String(3 + (i % 15)), fee, currency, `Title ${i}`, `Titre ${i}`, 'Donneur', 'Orderer'].join(';'),
    );
  }
  const csv = Buffer.from(lines.join('\r\n') + '\r\n');
  const processor = createImportPatentsProcessor({ db, storage, realtime: createInProcessPublisher(), logger });
  const job = { jobId: 'bench', attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} };
  for (const [index, label] of ['import', 're-import (same file)'].entries()) {
    // Each import row holds its own key (unique): the same bytes stored twice.
    const stored = await storage.put(`patent-imports/bench/${index}/import.csv`, csv);
    const [row] = await db.insert(patentImports).values({ originalName: 'import.csv', storageKey: stored.key, size: stored.size, sha256: stored.sha256 }).returning();
    const [, took] = await timed(() => processor({ importId: row!.id }, job));
    const [d] = rowsOf<{ state: string; inserted: number; updated: number; unchanged: number; rejected: number }>(
      await db.execute(sql`select state, inserted, updated, unchanged, rejected from patent_imports where id = ${row!.id}`),
    );
    if (!d) throw new Error('import row gone');
    report(`${label} of ${PATENTS} rows (CSV): ${d.state}, +${d.inserted} ~${d.updated} =${d.unchanged} x${d.rejected}`, `${ms(took)} ms`);
  }

  // Reminders over the whole portfolio (now 2 × PATENTS patents), every agent; then the same day again.
  const [first, remindMs] = await timed(() => runPatentReminders({ db, logger }, TODAY));
  report(`reminder run: ${first.agents} agents, ${first.mails} mails, ${first.reminders} reminders`, `${ms(remindMs)} ms`);
  const [second, againMs] = await timed(() => runPatentReminders({ db, logger }, TODAY));
  report(`reminder run again the same day: ${second.mails} mails`, `${ms(againMs)} ms`);

  print(loads);
} finally {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
}
