/**
 * What a 100,000-row annuity file's inserts cost, and where: `npm run bench -- annuity-insert`. The rows are the
 * engine's own (the bench workbook of `scale-annuities`, checked once by the engine thread and kept), stored
 * into a freshly migrated database per variant: on PGlite in a data directory on disk (as the embedded portal
 * runs it, in this process) and on PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432). Per variant: wall time,
 * CPU seconds of this process and, on PostgreSQL, of the connection's backend (user + sys from /proc), and the
 * longest statement. Another file of 20,000 rows is stored first (the table is not empty in real use).
 * BENCH_ROWS sets the rows (100,000); BENCH_VARIANTS picks variants by name (comma-separated substrings);
 * BENCH_KINDS picks `pglite`, `postgres` or both (default).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { getTableColumns, sql } from 'drizzle-orm';
import { annuityFiles, annuityPatents, openDatabase, users, type Database, type DatabaseHandle } from '@portal/db';
import { createScratchDatabase } from '@portal/db/testing';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../packages/annuities/test/support/workbooks.ts';
import { createAnnuityThreadEngine } from '../packages/jobs/src/annuities/engine.ts';
import type { PatentRecord } from '../packages/jobs/src/annuities/protocol.ts';
import { storePatents } from '../packages/jobs/src/annuities/patents.ts';
import { PGLITE_START_PARAMS } from '../packages/db/src/client.ts';
import { backendsCpu } from './proc.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

type Store = (db: Database, fileId: string, rows: PatentRecord[]) => Promise<void>;

interface Variant {
  name: string;
  /** DDL run on the migrated database before the inserts. */
  before?: string[];
  /** PGlite start parameters added to the portal's (`-c name=value`; the last one given wins). */
  params?: string[];
  /** Rows per statement. */
  statementRows: number;
  /** Statements in flight at once, each on a connection of its own (PostgreSQL; 1 by default). */
  concurrent?: number;
  store: Store;
}
type Kind = 'pglite' | 'postgres';

const SORT_INDEXES = ['publication', 'filing_number', 'reference', 'name', 'country', 'payer', 'filing_date', 'filing_month', 'previous', 'previous_number', 'next', 'deadline'].map(
  (s) => `annuity_patents_file_${s}_idx`,
);
const dropSorts = SORT_INDEXES.map((i) => `drop index if exists ${i}`); // gone since migration 0023 (decision 190)

/** The columns `storePatents` writes, in its order (a row's fields, then the file). */
const COLUMNS = Object.keys(getTableColumns(annuityPatents))
  .filter((field) => !['id', 'fileId', 'edited'].includes(field))
  .map((field) => {
    const column = getTableColumns(annuityPatents)[field as keyof typeof annuityPatents._.columns];
    const type = column.getSQLType();
    return { field: field as keyof PatentRecord, name: column.name, list: type.endsWith('[]'), type };
  });

/** The same unnest statement as `storePatents`, without `on conflict`: what the upsert costs. */
const storePlainInsert: Store = async (db, fileId, rows) => {
  if (rows.length === 0) return;
  const arrays = COLUMNS.map(({ field, list, type }) => sql`${sql.param(rows.map((r) => (list ? (r[field] as string[]).join('\u001f') : r[field])))}::${sql.raw(list ? 'text' : type)}[]`);
  await db.execute(sql`
    insert into annuity_patents (file_id, ${sql.raw(COLUMNS.map((c) => `"${c.name}"`).join(', '))})
    select ${fileId}::uuid, ${sql.raw(COLUMNS.map((c) => (c.list ? `string_to_array(u."${c.name}", chr(31))` : `u."${c.name}"`)).join(', '))}
    from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.raw(COLUMNS.map((c) => `"${c.name}"`).join(', '))})`);
};

/** COPY's text format: backslash, tab, newline and carriage return escaped; null is \N. */
const copyText = (value: string) => value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
const copyArray = (items: string[]) => `{${items.map((i) => `"${i.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** PGlite only: `COPY … FROM '/dev/blob'` of the rows in text format (no `on conflict`: a plain insert). */
const storeCopy: Store = async (db, fileId, rows) => {
  if (rows.length === 0) return;
  const lines = rows.map((r) =>
    [fileId, ...COLUMNS.map(({ field, list }) => {
      const v = r[field];
      return v === null ? '\\N' : list ? copyText(copyArray(v as string[])) : typeof v === 'string' ? copyText(v) : String(v);
    })].join('\t'),
  );
  const client = (db as unknown as { $client: { query(q: string, p: unknown[], o: { blob: Blob }): Promise<unknown> } }).$client;
  await client.query(`copy annuity_patents (file_id, ${COLUMNS.map((c) => `"${c.name}"`).join(', ')}) from '/dev/blob'`, [], { blob: new Blob([lines.join('\n') + '\n']) });
};

/** A plpgsql function holding the upsert: its plan is kept by the session, each call plans `select f(…)` only. */
const FUNCTION_DDL = `create or replace function annuity_patents_store(p_file uuid, ${COLUMNS.map((c, i) => `a${i} ${c.list ? 'text' : c.type}[]`).join(', ')}) returns void language plpgsql as $$
begin
  insert into annuity_patents (file_id, ${COLUMNS.map((c) => `"${c.name}"`).join(', ')})
  select p_file, ${COLUMNS.map((c) => (c.list ? `string_to_array(u."${c.name}", chr(31))` : `u."${c.name}"`)).join(', ')}
  from unnest(${COLUMNS.map((_, i) => `a${i}`).join(', ')}) as u(${COLUMNS.map((c) => `"${c.name}"`).join(', ')})
  on conflict (file_id, row_index) do update set ${COLUMNS.filter((c) => c.field !== 'rowIndex').map((c) => `"${c.name}" = excluded."${c.name}"`).join(', ')};
end $$`;
const storeByFunction: Store = async (db, fileId, rows) => {
  if (rows.length === 0) return;
  const arrays = COLUMNS.map(({ field, list, type }) => sql`${sql.param(rows.map((r) => (list ? (r[field] as string[]).join('\u001f') : r[field])))}::${sql.raw(list ? 'text' : type)}[]`);
  await db.execute(sql`select annuity_patents_store(${fileId}::uuid, ${sql.join(arrays, sql`, `)})`);
};

const VARIANTS: Variant[] = [
  { name: 'upsert 250 (main)', statementRows: 250, store: storePatents },
  { name: 'upsert 250, no sort indexes', before: dropSorts, statementRows: 250, store: storePatents },
  { name: 'upsert 250, no sort nor colour index', before: [...dropSorts, 'drop index annuity_patents_file_colour_idx'], statementRows: 250, store: storePatents },
  { name: 'upsert 1000', statementRows: 1000, store: storePatents },
  { name: 'upsert 250, shared_buffers 64MB', params: ['shared_buffers=64MB'], statementRows: 250, store: storePatents },
  { name: 'upsert 250, shared_buffers 128MB', params: ['shared_buffers=128MB'], statementRows: 250, store: storePatents },
  { name: 'upsert 250, full_page_writes off', params: ['full_page_writes=off'], statementRows: 250, store: storePatents },
  { name: 'upsert 250, 4 statements at once (PostgreSQL)', statementRows: 250, concurrent: 4, store: storePatents },
  { name: 'upsert 250, 2 statements at once (PostgreSQL)', statementRows: 250, concurrent: 2, store: storePatents },
  { name: 'plain insert 250 (no on conflict)', statementRows: 250, store: storePlainInsert },
  { name: 'copy 1000 (PGlite)', statementRows: 1000, store: storeCopy },
  { name: 'copy 250 (PGlite)', statementRows: 250, store: storeCopy },
  { name: 'upsert 100 (embedded)', statementRows: 100, store: storePatents },
  { name: 'upsert 100, no foreign key', before: ['alter table annuity_patents drop constraint annuity_patents_file_id_annuity_files_id_fk'], statementRows: 100, store: storePatents },
  { name: 'upsert 100, no colour index', before: ['drop index annuity_patents_file_colour_idx'], statementRows: 100, store: storePatents },
  { name: 'plain insert 100', statementRows: 100, store: storePlainInsert },
  { name: 'function upsert 100', before: [FUNCTION_DDL], statementRows: 100, store: storeByFunction },
  { name: 'function upsert 250', before: [FUNCTION_DDL], statementRows: 250, store: storeByFunction },
];

async function engineRows(): Promise<PatentRecord[]> {
  const file = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
    const engine = createAnnuityThreadEngine();
  const rows: PatentRecord[] = [];
  try {
    const out = new Writable({ write: (_c, _e, done) => done() });
    const result = await engine(new Uint8Array(file), { mode: 'check', fileName: 'scale.xlsx', today: '2026-11-27', batchSize: 1000, out, onRows: async (batch) => void rows.push(...(batch as PatentRecord[])) });
    if (!result.ok) throw new Error(result.reason);
  } finally {
    await engine.close();
  }
  return rows;
}

async function open(kind: Kind, params: string[] = [], concurrent = 1): Promise<{ handle: DatabaseHandle; backend: () => number; done(): Promise<void> }> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-insert-db-'));
    const added = params.flatMap((p) => ['-c', p]);
    PGLITE_START_PARAMS.push(...added);
    const handle = openDatabase({ driver: 'pglite', dataDir: dir });
    await handle.migrate();
    PGLITE_START_PARAMS.splice(PGLITE_START_PARAMS.length - added.length, added.length);
    return { handle, backend: () => 0, done: async () => (await handle.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  // As many connections as statements in flight: the CPU read is that of the database's backends.
  const handle = openDatabase({ driver: 'postgres', url: scratch.url, poolSize: concurrent });
  await handle.migrate();
  const name = new URL(scratch.url).pathname.slice(1);
  return { handle, backend: () => backendsCpu(name), done: async () => (await handle.close(), await scratch.drop()) };
}

async function measure(kind: Kind, variant: Variant, all: PatentRecord[]) {
  const { store } = variant;
  if ((variant.params || store === storeCopy) && kind !== 'pglite') return null;
  if (variant.concurrent && kind !== 'postgres') return null;
  const { handle, backend, done } = await open(kind, variant.params, variant.concurrent);
  try {
    const { db } = handle;
    for (const ddl of variant.before ?? []) await db.execute(sql.raw(ddl));
    const [owner] = await db.insert(users).values({ companyAgent: 'Bench', email: 'bench@portal.test' }).returning();
    const newFile = async () =>
      (await db.insert(annuityFiles).values({ ownerId: owner!.id, importName: 'a.xlsx', exportName: 'a.xlsx', importKey: `k/${crypto.randomUUID()}`, size: 1, sha256: 'x', state: 'Done' }).returning())[0]!.id;
    const other = await newFile();
    for (let from = 0; from < 20_000; from += 1000) await store(db, other, all.slice(from, from + 1000));
    const fileId = await newFile();
    let worst = 0;
    const cpu0 = process.cpuUsage();
    const b0 = backend();
    const started = performance.now();
    const step = variant.statementRows * (variant.concurrent ?? 1);
    for (let from = 0; from < all.length; from += step) {
      const t0 = performance.now();
      const slices: PatentRecord[][] = [];
      for (let at = from; at < Math.min(all.length, from + step); at += variant.statementRows) slices.push(all.slice(at, at + variant.statementRows));
      await Promise.all(slices.map((slice) => store(db, fileId, slice)));
      worst = Math.max(worst, performance.now() - t0);
    }
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const backendCpu = backend() - b0;
    return { wall, cpu: (cpu.user + cpu.system) / 1e6, backendCpu, worst };
  } finally {
    await done();
  }
}

const kinds = (process.env.BENCH_KINDS ?? 'pglite,postgres').split(',') as Kind[];
const picked = process.env.BENCH_VARIANTS?.split(',');
const all = await engineRows();
console.log(`\nannuity_patents inserts: ${all.length.toLocaleString('en')} engine rows of one file (${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()[0]!.toFixed(1)})\n`);
console.log('| database | variant | wall (s) | CPU this process (s) | CPU backend (s) | longest statement (ms) | load |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const kind of kinds) {
  for (const variant of VARIANTS.filter((v) => !picked || picked.some((p) => v.name.includes(p)))) {
    const m = await measure(kind, variant, all);
    if (!m) continue;
    console.log(`| ${kind} | ${variant.name} | ${(m.wall / 1000).toFixed(2)} | ${m.cpu.toFixed(2)} | ${kind === 'postgres' ? m.backendCpu.toFixed(2) : '—'} | ${m.worst.toFixed(0)} | ${loadavg()[0]!.toFixed(1)} |`);
  }
}
