import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '@portal/db';
import { REGISTERED_QUEUES, RUN_KINDS } from '@portal/jobs';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../../../../packages/annuities/test/support/workbooks.ts';
import { buildZip } from '../../../../packages/annuities/test/support/zip.ts';
import type { FaultTopology } from './fault-topology.ts';
import { makePdf } from './pdf.ts';

/**
 * What the fault suite knows of each run kind, and nothing more: how to start a long run over real
 * HTTP, which row to read, how to tell it is part-way, which objects its success writes (each must be
 * written once) and what "once" means for its rows. Each fault is written once over this list.
 */
export interface RunKindFaults {
  /** The queue, as registered in `@portal/jobs`; the job id is `<queue>-<row id>`. */
  queue: string;
  /** The run table (state, attempts, started_at, finished_at, error_code). */
  table: string;
  /** Starts one long run over HTTP (its input large enough to be mid-way at the fault); the row id. */
  start(t: FaultTopology, tag: string): Promise<string>;
  /** True once the run has done part of its input (its progress shows, or its output rows). */
  midway(t: FaultTopology, id: string): Promise<boolean>;
  /** The storage objects a Done run wrote as its result: each must have been created exactly once. */
  results(t: FaultTopology, id: string): Promise<string[]>;
  /** False for a kind whose workers use no storage (their readiness has no storage check). */
  usesStorage?: false;
  /** The kind's own "nothing doubled, nothing lost" over its rows once the run is Done: each problem a sentence. */
  once(t: FaultTopology, id: string): Promise<string[]>;
}

/** The LEDES check of a 200,000-line file: one treated workbook, one delivery to step 2, one set of findings. */
const ledes: RunKindFaults = {
  queue: 'ledes',
  table: 'ledes_runs',
  async start(t, tag) {
    const id = await t.upload(await t.longFile(), `long-${tag}.txt`);
    if (!id) throw new Error(`the long LEDES file ${tag} was not accepted`);
    return id;
  },
  async midway(t, id) {
    // The row's lines_checked is written at the end only: part-way is 2 MiB of the file read (about a tenth).
    const { rows } = await t.db.query('select original_key from ledes_runs where id = $1', [id]);
    return rows[0] ? t.s3.bytesRead(rows[0].original_key as string) >= 2 * 1024 * 1024 : false;
  },
  async results(t, id) {
    const { rows } = await t.db.query('select treated_key from ledes_runs where id = $1', [id]);
    return rows[0]?.treated_key ? [rows[0].treated_key as string] : [];
  },
  async once(t, id) {
    const { rows } = await t.db.query('select count(*)::int as n, count(distinct (line, code, champ))::int as d from ledes_findings where run_id = $1', [id]);
    const { n, d } = rows[0] as { n: number; d: number };
    // Deliveries to step 2 are checked for every run by the topology (`deliveriesNotOnce`).
    return n === d ? [] : [`ledes ${id}: ${n - d} finding(s) recorded twice (a handed-back attempt's findings added to, not replaced)`];
  },
};

const ANNUITY_ROWS = 30_000;
/** The annuity check of a 30,000-row workbook: one patent per row, one treated export. */
const annuities: RunKindFaults = {
  queue: 'annuities',
  table: 'annuity_files',
  async start(t, tag) {
    const owner = await t.user('user_annuites', `faults-annuities-${tag}@portal.example.com`);
    const content = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ANNUITY_ROWS) }]);
    const sent = await owner.upload('/api/brevets/annuite', [{ filename: `long-${tag}.xlsx`, content }], { title: `faults ${tag}` });
    if (sent.status !== 200) throw new Error(`the long workbook ${tag} was not accepted: ${sent.status} ${JSON.stringify(sent.body)}`);
    return sent.body._id as string;
  },
  async midway(t, id) {
    const { rows } = await t.db.query('select count(*)::int as n from annuity_patents where file_id = $1', [id]);
    return rows[0].n >= 1000;
  },
  async results(t, id) {
    const { rows } = await t.db.query('select export_key from annuity_files where id = $1', [id]);
    return rows[0]?.export_key ? [rows[0].export_key as string] : [];
  },
  async once(t, id) {
    const { rows } = await t.db.query('select count(*)::int as n from annuity_patents where file_id = $1', [id]);
    return rows[0].n === ANNUITY_ROWS ? [] : [`annuities ${id}: ${rows[0].n} patents for ${ANNUITY_ROWS} rows`];
  },
};

const IMPORT_ROWS = 20_000;
const IMPORT_HEADER = 'idagenda;idbrevet;code_client;cabinet;ReferenceClient;nosref;noDepot;NoPublication;Pays;Origine;Depot;Expiration;DateEcheance;Quantieme;cost;currency;TitreAnglais;TitreFrancais';
/** The import of a 20,000-row portfolio CSV: every row upserted once, none rejected. */
const patentImport: RunKindFaults = {
  queue: 'patent-import',
  table: 'patent_imports',
  async start(t, tag) {
    const prefix = `${tag.toUpperCase()}-`;
    const csv = [IMPORT_HEADER, ...Array.from({ length: IMPORT_ROWS }, (_, i) => `${prefix}${i};;C1;Cabinet Un;REF-${prefix}${i};;;;FR;national;2019-05-10;;2027-05-31;9;136;EUR;;`)].join('\r\n') + '\r\n';
    const sent = await t.admin.upload('/api/patent_imports', [{ filename: `long-${tag}.csv`, content: csv }]);
    if (sent.status !== 200) throw new Error(`the long import ${tag} was not accepted: ${sent.status} ${JSON.stringify(sent.body)}`);
    const id = sent.body.patent_import._id as string;
    importPrefixes.set(id, prefix);
    return id;
  },
  async midway(t, id) {
    const { rows } = await t.db.query('select rows_done from patent_imports where id = $1', [id]);
    return Number(rows[0]?.rows_done ?? 0) > 0;
  },
  async results() {
    return [];
  },
  async once(t, id) {
    const prefix = importPrefixes.get(id)!;
    const { rows } = await t.db.query('select rejected from patent_imports where id = $1', [id]);
    const made = (await t.db.query('select count(*)::int as n, count(distinct idagenda)::int as d from patent_records where idagenda like $1', [`${prefix}%`])).rows[0] as { n: number; d: number };
    const problems: string[] = [];
    if (rows[0].rejected !== 0) problems.push(`patent-import ${id}: ${rows[0].rejected} row(s) rejected`);
    if (made.n !== IMPORT_ROWS || made.d !== IMPORT_ROWS) problems.push(`patent-import ${id}: ${made.n} patent rows (${made.d} distinct) for ${IMPORT_ROWS} imported`);
    return problems;
  },
};
const importPrefixes = new Map<string, string>();

const RECEIPT_ENTRIES = 600;
/** The upload of a zip of 600 PDFs: every entry made into one receipt, each object under its row. */
const receipts: RunKindFaults = {
  queue: 'receipts',
  table: 'receipt_uploads',
  async start(t, tag) {
    const agent = await t.user('user_agent_annuites', `faults-receipts-${tag}@portal.example.com`);
    const zip = buildZip(Array.from({ length: RECEIPT_ENTRIES }, (_, i) => ({ name: `r${i}.pdf`, data: makePdf([`receipt ${tag} ${i}`]), stored: i % 2 === 0 })));
    const sent = await agent.upload('/api/recepisse', [{ filename: `long-${tag}.zip`, content: zip }]);
    if (sent.status !== 200) throw new Error(`the long zip ${tag} was not accepted: ${sent.status} ${JSON.stringify(sent.body)}`);
    return sent.body.upload._id as string;
  },
  async midway(t, id) {
    const { rows } = await t.db.query('select count(*)::int as n from receipts where upload_id = $1', [id]);
    return rows[0].n >= 50;
  },
  async results() {
    // Each receipt's object is checked against its row by the topology (no stray object); a retried
    // entry writes the same key again by design (`receiptStorageKey`), so writes are not counted here.
    return [];
  },
  async once(t, id) {
    const made = (await t.db.query('select count(*)::int as n, count(distinct entry_index)::int as d from receipts where upload_id = $1', [id])).rows[0] as { n: number; d: number };
    return made.n === RECEIPT_ENTRIES && made.d === RECEIPT_ENTRIES ? [] : [`receipts ${id}: ${made.n} receipts (${made.d} distinct entries) for ${RECEIPT_ENTRIES} PDFs`];
  },
};

const SYNC_PATENTS = 100;
/** Each test's patents: their keys and publication numbers (EP3000000 + a block per tag), for `once`. */
const syncPortfolios = new Map<string, { prefix: string; numbers: string[] }>();
/**
 * The register sync (issue 29) over a portfolio of 100 EP patents of its own, read from the topology's local OPS
 * (recorded answers over HTTP, paced at 300 calls a minute). Each patent has a year paid on the portal that the
 * register confirms (one ledger change) and a year due the register says paid (one discrepancy). Patents of earlier
 * tests are walked too, already read today: nothing is asked of OPS for them, nothing written.
 */
const registerSync: RunKindFaults = {
  queue: 'register-sync',
  table: 'register_sync_runs',
  usesStorage: false,
  async start(t, tag) {
    const prefix = `${tag.toUpperCase()}-RS-`;
    const block = 3_000_000 + 1000 * (syncPortfolios.size + 1);
    const numbers = Array.from({ length: SYNC_PATENTS }, (_, i) => `EP${block + i}`);
    const [cabinet] = (await t.db.query('insert into cabinets (name) values ($1) returning id', [`Faults registers ${tag}`])).rows as Array<{ id: string }>;
    // Seeded rows (the portfolio is not what is under test); the run itself starts over HTTP, as an admin's "sync now".
    await t.db.query(
      `insert into patent_records (idagenda, idbrevet, cabinet_id, client_code, pays, numero_publication, quantieme, date_echeance, date_paiement_office)
       select $1 || i || '-' || y, $1 || i, $2::uuid, 'C1', 'EP', 'EP' || ($3::int + i), y, ((2008 + y) || '-06-30')::date, case when y = 5 then '2013-06-01'::date end
       from generate_series(0, $4::int - 1) i, (values (5), (9)) years(y)`,
      [prefix, cabinet!.id, block, SYNC_PATENTS],
    );
    const sent = await t.admin.post('/api/registers/sync', {});
    if (sent.status !== 200 || !sent.body.created) throw new Error(`the register sync ${tag} did not start a run: ${sent.status} ${JSON.stringify(sent.body)}`);
    const id = sent.body.run._id as string;
    syncPortfolios.set(id, { prefix, numbers });
    return id;
  },
  async midway(t, id) {
    const { rows } = await t.db.query('select count(*)::int as n from register_syncs where run_id = $1', [id]);
    return rows[0].n >= 20;
  },
  async results() {
    return []; // it stores no object
  },
  async once(t, id) {
    const { prefix, numbers } = syncPortfolios.get(id)!;
    const problems: string[] = [];
    const like = `${prefix}%`;
    const run = (await t.db.query('select attempts, found, failed from register_sync_runs where id = $1', [id])).rows[0] as { attempts: number; found: number; failed: number };
    const synced = (await t.db.query('select count(*)::int as n, count(distinct patent_key)::int as d, count(*) filter (where run_id = $2 and outcome = $3)::int as mine from register_syncs where patent_key like $1', [like, id, 'found'])).rows[0] as { n: number; d: number; mine: number };
    if (synced.n !== SYNC_PATENTS || synced.d !== SYNC_PATENTS || synced.mine !== SYNC_PATENTS) problems.push(`register-sync ${id}: ${synced.n} day keys (${synced.d} patents, ${synced.mine} found by this run) for ${SYNC_PATENTS} patents`);
    if (run.found !== SYNC_PATENTS || run.failed !== 0) problems.push(`register-sync ${id}: found ${run.found}, failed ${run.failed} for ${SYNC_PATENTS} patents (a patent counted twice, or lost)`);
    const events = (await t.db.query('select count(*)::int as n, count(distinct (patent_key, annuity_year))::int as d from patent_ledger_events where patent_key like $1', [like])).rows[0] as { n: number; d: number };
    if (events.n !== SYNC_PATENTS || events.d !== SYNC_PATENTS) problems.push(`register-sync ${id}: ${events.n} ledger events (${events.d} distinct years) for ${SYNC_PATENTS} confirmations`);
    const discrepancies = (await t.db.query('select count(*)::int as n from register_discrepancies where patent_key like $1', [like])).rows[0] as { n: number };
    if (discrepancies.n !== SYNC_PATENTS) problems.push(`register-sync ${id}: ${discrepancies.n} discrepancies for ${SYNC_PATENTS} patents`);
    const observations = (await t.db.query('select count(*)::int as n, count(distinct (patent_key, kind, country, annuity_year))::int as d from register_observations where patent_key like $1', [like])).rows[0] as { n: number; d: number };
    if (observations.n !== observations.d) problems.push(`register-sync ${id}: ${observations.n - observations.d} register observation(s) stored twice`);
    // Each patent read from OPS once; an attempt cut short (killed, handed back, its commit failed) may have read
    // the one patent it was on without committing it, read again by the next: at most one more read per attempt.
    const reads = numbers.map((n) => t.ops.reads(n));
    const unread = numbers.filter((_, i) => reads[i] === 0);
    if (unread.length > 0) problems.push(`register-sync ${id}: ${unread.length} patent(s) never read from OPS (first ${unread[0]})`);
    const extra = reads.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    if (extra > run.attempts - 1) problems.push(`register-sync ${id}: ${extra} patent read(s) from OPS beyond one per patent in ${run.attempts} attempt(s) (at most one per attempt cut short)`);
    return problems;
  },
};

/** One description per run kind. A kind registered without one fails every fault file (`describedRunKinds`). */
export const RUN_KIND_FAULTS: readonly RunKindFaults[] = [ledes, annuities, patentImport, receipts, registerSync];

/**
 * Registered queues that are not run kinds: they own no run row (state, attempts, started/finished),
 * so the run-kind faults do not apply. The mail queue keeps its own fault (smtp-outage).
 */
const NOT_RUN_KINDS: Record<string, string> = {
  mail: 'one mail row with sent_at and last_error, no run lifecycle (smtp-outage.test.ts)',
  'patent-export': 'a scheduled batch, its rows are export batches written whole',
  'patent-reminders': 'the day’s reminders, no run row',
  'ledes-digest': 'the admins’ digest of a day, one sent-log row per admin and day, no run row',
  'renewal-calls': 'the day’s renewal calls, one renewal_call_steps row per call and step, no run row',
};

/**
 * Run kinds whose faults are, for now, tested by their own suite instead of this one: each with where, and what is
 * missing. Listed here they are exempt from the gap check; the list is meant to be emptied.
 */
export const OWN_FAULT_SUITES: Readonly<Record<string, { table: string; why: string }>> = {};

/** The run kinds of `@portal/jobs`'s registry (decision 159), by queue. */
export function registeredRunKinds(): string[] {
  return RUN_KINDS.map((kind) => kind.queue);
}

const LIFECYCLE_COLUMNS = ['state', 'attempts', 'started_at', 'finished_at', 'error_code'];

/** The tables of `@portal/db` carrying the run lifecycle's columns. */
export function runTablesOfSchema(): string[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);
  return tables
    .map((table) => getTableConfig(table))
    .filter((config) => LIFECYCLE_COLUMNS.every((name) => config.columns.some((column) => column.name === name)))
    .map((config) => config.name)
    .sort();
}

/** Why the described kinds do not match the registry and the schema: each a sentence (empty when they match). */
export function runKindGaps(kinds: readonly RunKindFaults[] = RUN_KIND_FAULTS): string[] {
  const described = new Map(kinds.map((k) => [k.queue, k]));
  const problems: string[] = [];
  for (const queue of registeredRunKinds()) {
    if (!described.has(queue) && !(queue in OWN_FAULT_SUITES)) problems.push(`run kind ${queue} is registered in @portal/jobs but has no description in apps/api/test/support/run-kinds.ts: its faults are not tested`);
  }
  for (const queue of Object.keys(NOT_RUN_KINDS)) {
    if (!(REGISTERED_QUEUES as string[]).includes(queue)) problems.push(`${queue} is listed as not a run kind but is not a registered queue any more`);
  }
  for (const kind of kinds) {
    if (!(REGISTERED_QUEUES as string[]).includes(kind.queue)) problems.push(`run kind ${kind.queue} is described but not registered in @portal/jobs`);
    if (kind.queue in NOT_RUN_KINDS) problems.push(`${kind.queue} is described as a run kind and listed as not one`);
  }
  const tables = new Set([...kinds.map((k) => k.table), ...Object.values(OWN_FAULT_SUITES).map((k) => k.table)]);
  for (const table of runTablesOfSchema()) {
    if (!tables.has(table)) problems.push(`table ${table} has the run lifecycle's columns but no run kind of apps/api/test/support/run-kinds.ts reads it`);
  }
  for (const table of tables) {
    if (!runTablesOfSchema().includes(table)) problems.push(`run kind table ${table} lacks the run lifecycle's columns (${LIFECYCLE_COLUMNS.join(', ')})`);
  }
  return problems;
}

/** Every registered run kind's description; throws (failing the fault file) when one is missing. */
export function describedRunKinds(): readonly RunKindFaults[] {
  const gaps = runKindGaps();
  if (gaps.length > 0) throw new Error(`the fault suite does not cover every run kind:\n${gaps.join('\n')}`);
  return RUN_KIND_FAULTS;
}
