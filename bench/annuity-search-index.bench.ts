/**
 * What the search index of `annuity_patents` costs a 100,000-row file's inserts, and what each option
 * gives the file list's search: `npm run bench -- annuity-search-index`. On PGlite (in this process,
 * as the embedded portal runs it) and on PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432), per option:
 * the rows stored in the processor's statements (PATENT_INSERT_ROWS each, `storePatents`), the longest
 * statement, and the p95 of a substring search inside the file and across files once stored.
 * BENCH_ROWS sets the rows (100,000); BENCH_OPTIONS picks options (comma-separated names).
 */
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { annuityFiles, users, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseBaseUrl, type TestDatabaseKind } from '@portal/db/testing';
import { storePatents } from '../packages/jobs/src/annuities/patents.ts';
import { PATENT_INSERT_ROWS } from '../packages/jobs/src/processors/check-annuities.ts';
import type { PatentRecord } from '../packages/jobs/src/annuities/protocol.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SEARCH_RUNS = 30;

/** Each option: the index DDL run on a freshly migrated database before the inserts (and after them, for `after`). */
interface IndexOption {
  name: string;
  before: string[];
  after?: string[];
}
const DROP = 'drop index if exists annuity_patents_search_trgm_idx';
// PGlite's migrations leave no trigram index (decision 176): each option starts from none.
const GIN = 'create index annuity_patents_search_trgm_idx on annuity_patents using gin (search_text gin_trgm_ops)';
const OPTIONS: IndexOption[] = [
  { name: 'gin trgm (fastupdate on)', before: [DROP, GIN] },
  { name: 'gin trgm fastupdate off', before: [DROP, `${GIN} with (fastupdate = off)`] },
  { name: 'no search index (per-file scan)', before: [DROP] },
  { name: 'gin built after the inserts', before: [DROP], after: [GIN] },
  { name: 'gist trgm', before: [DROP, 'create index annuity_patents_search_trgm_idx on annuity_patents using gist (search_text gist_trgm_ops)'] },
];

function row(i: number): PatentRecord {
  const publication = `EP ${String(1_000_000 + i).slice(-7, -6)} ${String(1_000_000 + i).slice(-6, -3)} ${String(1_000_000 + i).slice(-3)} B1`;
  const title = `Invention n°${i}: dispositif de fixation ${i % 97} pour panneaux`;
  return {
    rowIndex: i, sheet: 'Brevets', rowNumber: i + 2, numPublication: publication, numDepot: `EP${String(10 + (i % 15))}${String(1_000_000 + i).slice(1)}0`,
    reference: `REF-${i}`, nom: title, pays: 'FR', payeur: i % 2 ? 'Client A' : 'Client B', url: null, publie: null, office: 'FR', origin: 'national',
    dechu: false, missedNumber: null, missedLostAfter: null, expired: false, inGraceWithSurcharge: false, dateDepot: '2019-03-15', moisDateDepot: 3,
    datePrecedenteAnnuite: '2026-03-31', quantPrecedent: 8, dateProchaineAnnuite: '2027-03-31', nextNumber: 9, instructionLimit: '2027-03-24',
    limiteDateProchaineAnnuite: '2027-09-30', fee: '120.00', currency: 'EUR', colour: 'ok', reasons: ['filing_date_text'], flags: [], commentaire: null,
    searchText: [publication, `REF-${i}`, title, 'FR'].join('\u0001').toLowerCase(),
  };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

async function measure(kind: TestDatabaseKind, option: IndexOption) {
  const handle: DatabaseHandle = await openTestDatabase(kind);
  try {
    const { db } = handle;
    for (const ddl of option.before) await db.execute(sql.raw(ddl));
    const [owner] = await db.insert(users).values({ companyAgent: 'Bench', email: 'bench@portal.test' }).returning();
    const newFile = async () =>
      (await db.insert(annuityFiles).values({ ownerId: owner!.id, importName: 'a.xlsx', exportName: 'a.xlsx', importKey: `k/${crypto.randomUUID()}`, size: 1, sha256: 'x', state: 'Done' }).returning())[0]!.id;
    // Another file already stored: the cross-file search reads both.
    const other = await newFile();
    for (let from = 0; from < 20_000; from += 1000) await storePatents(db, other, Array.from({ length: 1000 }, (_, k) => row(from + k)));
    const fileId = await newFile();
    const statements: number[] = [];
    const started = performance.now();
    for (let from = 0; from < ROWS; from += PATENT_INSERT_ROWS) {
      const rows = Array.from({ length: Math.min(PATENT_INSERT_ROWS, ROWS - from) }, (_, k) => row(from + k));
      const t0 = performance.now();
      await storePatents(db, fileId, rows);
      statements.push(performance.now() - t0);
    }
    const inserts = performance.now() - started;
    const t1 = performance.now();
    for (const ddl of option.after ?? []) await db.execute(sql.raw(ddl));
    const after = performance.now() - t1;
    await db.execute(sql`analyze annuity_patents`);
    const timeSearch = async (query: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < SEARCH_RUNS; i++) {
        const t0 = performance.now();
        await query();
        times.push(performance.now() - t0);
      }
      return percentile(times, 95);
    };
    const term = (i: number) => `%ref-${4242 + i * 7}%`;
    let i = 0;
    const inFile = await timeSearch(() => db.execute(sql`select * from annuity_patents where file_id = ${fileId} and search_text like ${term(i++)} order by row_index limit 30`));
    const count = await timeSearch(() => db.execute(sql`select count(*) from annuity_patents where file_id = ${fileId} and search_text like ${term(i++)}`));
    const across = await timeSearch(() => db.execute(sql`select p.* from annuity_patents p join annuity_files f on f.id = p.file_id where f.state = 'Done' and p.search_text like ${term(i++)} order by f.created_at desc, p.file_id, p.row_index limit 30`));
    const title = await timeSearch(() => db.execute(sql`select * from annuity_patents where file_id = ${fileId} and search_text like ${'%fixation 42%'} order by row_index limit 30`));
    return { inserts, after, worst: Math.max(...statements), p95: percentile(statements, 95), inFile, count, across, title };
  } finally {
    await handle.close();
  }
}

const kinds: TestDatabaseKind[] = ['pglite', ...(testDatabaseBaseUrl() || process.env.BENCH_PG !== '0' ? (['postgres'] as const) : [])];
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const picked = process.env.BENCH_OPTIONS?.split(',');
console.log(`\nannuity_patents search index: ${ROWS.toLocaleString('en')} rows of one file in statements of ${PATENT_INSERT_ROWS} (${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()[0]!.toFixed(1)})\n`);
console.log('| database | option | inserts (s) | after (s) | statement p95 / max (ms) | search in file p95 (ms) | count p95 (ms) | title search p95 (ms) | across files p95 (ms) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const kind of kinds) {
  for (const option of OPTIONS.filter((o) => !picked || picked.some((p) => o.name.includes(p)))) {
    const m = await measure(kind, option);
    console.log(`| ${kind} | ${option.name} | ${(m.inserts / 1000).toFixed(2)} | ${(m.after / 1000).toFixed(2)} | ${m.p95.toFixed(0)} / ${m.worst.toFixed(0)} | ${m.inFile.toFixed(1)} | ${m.count.toFixed(1)} | ${m.title.toFixed(1)} | ${m.across.toFixed(1)} |`);
  }
}
console.log(`load after: ${loadavg()[0]!.toFixed(1)}`);
