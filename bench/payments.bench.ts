/**
 * The payment ledger (issue 29 §1, decision 191), on PostgreSQL: `npm run bench -- payments`. A fresh database on the
 * server of TEST_DATABASE_URL with BENCH_PATENTS (100,000) patents (the demo generator), then, back to back:
 * - the agents' list (agent and admin, both tabs, the default and two other sorts, a filter) p50 / p95 over
 *   BENCH_QUERY_RUNS runs, before the ledger has any row;
 * - 5 years of ledger history per patent and year of the portfolio (rows and events, written in SQL), and
 *   `ledger_state` kept on every record;
 * - the same list again; then one atomic update of 1,000 instructions (the bulk service, which now writes the
 *   ledger in its transaction) and 1,000 receipts marked paid through the ledger's writer (one transaction).
 * Targets: list p95 < 100 ms (issue 29 "Done when" 5).
 */
import { sql } from 'drizzle-orm';
import type { PatentListQuery } from '@portal/contracts';
import { rowsOf, writeLedger } from '@portal/jobs';
import type { AuthState } from '../apps/api/src/http/session.ts';
import { bulkUpdateInstructions, listPatents, type PatentScope } from '../apps/api/src/modules/patents/service.ts';
import { createReport, ms, openPortfolio, percentile, timed } from './portfolio.ts';

const PATENTS = Number(process.env.BENCH_PATENTS ?? 100_000);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);
const HISTORY_YEARS = 5;
const TODAY = new Date().toISOString().slice(0, 10);

const { report, print } = createReport(64);
const { db, ctx, agentScope, base, loads, close, seeded, seedMs } = await openPortfolio({ name: 'bench-payments', patents: PATENTS, cabinets: 50, today: TODAY, queryRuns: QUERY_RUNS });
try {
  report(`seed ${seeded.patents} patents (demo generator)`, `${ms(seedMs)} ms`);
  const lists = async (label: string) => {
    const p95s: number[] = [];
    for (const who of [
      { label: 'agent', scope: agentScope },
      { label: 'admin', scope: { kind: 'all' } as PatentScope },
    ]) {
      for (const query of [
        { tab: 'unprocessed' },
        { tab: 'unvalidated' },
        { tab: 'unvalidated', sort: 'ReferenceClient' },
        { tab: 'unprocessed', sort: 'cost', order: 'desc' },
        { tab: 'unvalidated', instruction: [2] },
      ] as Array<Partial<PatentListQuery>>) {
        const times: number[] = [];
        let withState = 0;
        for (let i = 0; i < QUERY_RUNS; i++) {
          const [page, took] = await timed(() => listPatents(ctx, who.scope, { ...base, ...query }));
          withState = page.brevet_eptane.filter((p) => p.ledger_state != null).length;
          times.push(took);
        }
        p95s.push(percentile(times, 95));
        report(`${label}: ${who.label} ${JSON.stringify(query)} (${withState}/25 with a ledger state)`, `p50 ${ms(percentile(times, 50))}`, `p95 ${ms(percentile(times, 95))}`);
      }
    }
    report(`${label}: worst p95`, `${ms(Math.max(...p95s))} ms`);
  };
  console.log('\nlist before any ledger row (ms):');
  await lists('no ledger');

  // Five years of history per patent, ending at each record's year: paid (with events due → instructed → ordered →
  // paid) for the four before, the record's own year from what it says (recordState in SQL).
  const [, historyMs] = await timed(async () => {
    await db.execute(sql`
      insert into patent_ledger (patent_key, annuity_year, record_id, state, source, state_at, amount, currency, paid_on)
      select distinct on (k, y) k, y, id, case when y = quantieme then
          case when date_paiement_office is not null or date_acquit is not null then 'paid'
               when instruction_id = 2 then 'abandoned' when instruction_id in (1, 3) and instruction_status = 'validated' then 'ordered'
               when instruction_id in (1, 3) then 'instructed' else 'due' end
        else 'paid' end,
        case when y = quantieme then 'sync' else 'receipt' end, now() - (quantieme - y) * interval '1 year', 100 + y * 10, 'EUR', (now() - (quantieme - y) * interval '1 year')::date
      from (select p.*, coalesce(nullif(p.idbrevet, ''), 'record:' || p.id::text) as k, g.y
            from patent_records p, generate_series(greatest(p.quantieme - ${HISTORY_YEARS - 1}, 1), p.quantieme) as g(y)
            where p.quantieme is not null) s
      order by k, y, id
      on conflict do nothing`);
    await db.execute(sql`
      insert into patent_ledger_events (patent_key, annuity_year, old_state, new_state, source, created_at)
      select l.patent_key, l.annuity_year, e.old_state, e.new_state, e.source, l.state_at - e.back * interval '1 day'
      from patent_ledger l, (values ('due', 'instructed', 'screen', 60), ('instructed', 'ordered', 'validation', 30), ('ordered', 'paid', 'receipt', 0)) as e(old_state, new_state, source, back)
      where l.state = 'paid'`);
    await db.execute(sql`
      update patent_records p set ledger_state = l.state from patent_ledger l
      where l.patent_key = coalesce(nullif(p.idbrevet, ''), 'record:' || p.id::text) and l.annuity_year = p.quantieme`);
    await db.execute(sql`vacuum analyze`);
  });
  const [counts] = rowsOf<{ years: number; events: number; states: number }>(
    await db.execute(sql`select (select count(*)::int from patent_ledger) as years, (select count(*)::int from patent_ledger_events) as events, (select count(*)::int from patent_records where ledger_state is not null) as states`),
  );
  report(`history: ${counts!.years} ledger years, ${counts!.events} events, ${counts!.states} records with a state`, `${ms(historyMs)} ms`);
  console.log('\nlist with 5 years of history (ms):');
  await lists('ledger');

  // One atomic update of 1,000 instructions (the bulk service writes the ledger in its transaction).
  const candidates = rowsOf<{ idagenda: string; version: number }>(
    await db.execute(sql`
    select idagenda, version from patent_records
    where has_instruction = false and instruction_status = 'unprocessed' and quantieme is not null and date_echeance > ${TODAY}::date + 10
    order by id limit 1000`),
  );
  const [benchAdmin] = rowsOf<{ id: string }>(await db.execute(sql`select id from users where email = 'bench@portal.example.com'`));
  const actor: AuthState = { sessionId: 'bench', userId: benchAdmin!.id, email: 'bench@portal.example.com', langue: 'en', roles: ['admin'], isAdmin: true };
  const items = candidates.map((r) => ({ idagenda: r.idagenda, instructionBeingUpdated: 1, version: r.version }));
  const [updated, bulkMs, bulkCpu] = await timed(() => bulkUpdateInstructions(ctx, actor, items as Parameters<typeof bulkUpdateInstructions>[2]));
  report(`atomic update of ${updated.length} instructions, ledger included`, `${ms(bulkMs)} ms`, `cpu ${ms(bulkCpu)} ms`);

  // The ledger's share of such an update: the writer alone for 1,000 other records' instructions, in one transaction.
  const others = rowsOf<{ id: string }>(
    await db.execute(sql`
    select id from patent_records
    where has_instruction = false and instruction_status = 'unprocessed' and quantieme is not null and not (idagenda = any(${sql.param(candidates.map((c) => c.idagenda))}::text[]))
    order by id desc limit 1000`),
  );
  const [, writerMs, writerCpu] = await timed(() =>
    db.transaction((tx) => writeLedger(tx, others.map((o) => ({ recordId: o.id, userId: benchAdmin!.id, event: { kind: 'instruction' as const, source: 'bulk' as const, instructionId: 1 } })), { at: new Date() })),
  );
  report(`the ledger's writer alone: ${others.length} instructions (one transaction)`, `${ms(writerMs)} ms`, `cpu ${ms(writerCpu)} ms`);

  // 1,000 receipts marking their year paid, through the writer, in one transaction.
  await db.execute(sql`insert into receipt_uploads (owner_id, original_name, storage_key, size, sha256) values (${benchAdmin!.id}, 'bench.zip', 'bench/payments.zip', 1, 'x')`);
  const receiptRows = rowsOf<{ id: string; record_id: string }>(
    await db.execute(sql`
    with r as (select id as record_id, row_number() over (order by id) as n from patent_records where quantieme is not null and ledger_state <> 'paid' order by id limit 1000)
    insert into receipts (upload_id, entry_index, file_name, storage_key, size, source, patent_id)
    select (select id from receipt_uploads where storage_key = 'bench/payments.zip'), n, 'r' || n || '.pdf', 'bench/r/' || n || '.pdf', 1, 'pdf_text', record_id from r
    returning id, patent_id as record_id`),
  );
  const at = new Date();
  const [, paidMs, paidCpu] = await timed(() =>
    db.transaction((tx) =>
      writeLedger(
        tx,
        receiptRows.map((r) => ({ recordId: r.record_id, event: { kind: 'receipt' as const, source: 'receipt' as const, receiptId: r.id, paidOn: TODAY, amount: '100.00', currency: 'EUR' } })),
        { at },
      ),
    ),
  );
  report(`${receiptRows.length} receipts marking their year paid (writer, one transaction)`, `${ms(paidMs)} ms`, `cpu ${ms(paidCpu)} ms`);

  print(loads);
} finally {
  await close();
}
