import { sql } from 'drizzle-orm';
import { driverOf, type Database } from './client.ts';

/**
 * Vacuum and analyze for the embedded database (decision 175). PGlite runs no autovacuum: after a
 * bulk write the planner has no statistics and no visibility map, so a count reads every heap page.
 * This module decides from PostgreSQL's own counters (`pg_stat_user_tables`, which PGlite keeps)
 * with autovacuum's thresholds, and runs one table at a time. On PostgreSQL, autovacuum vacuums; a
 * bulk writer only analyses the tables it grew (`afterBulkWrite`), so the next list has right plans.
 */

/** Autovacuum's defaults (PostgreSQL 18): `*_threshold` + `*_scale_factor` × reltuples. */
export const AUTOVACUUM_THRESHOLDS = {
  analyze: { base: 50, scale: 0.1 },
  vacuum: { base: 50, scale: 0.2 },
  insert: { base: 1000, scale: 0.2 },
} as const;
export type Thresholds = typeof AUTOVACUUM_THRESHOLDS;

/**
 * The ANALYZE sample of the embedded database: `default_statistics_target` for the policy's ANALYZE
 * (PostgreSQL samples 300 × target rows). PGlite answers one statement at a time, so a statement holds
 * every request's (decision 180: on its own thread, no longer the event loop too): at 100,000 patents the default target (100, a 30,000-row sample) took 1.2–1.9 s, 10
 * (3,000 rows) 50–60 ms with the same plans for the lists (decision 175, bench/scale-vacuum.bench.ts).
 */
export const EMBEDDED_STATISTICS_TARGET = 10;

/** A table's counters, as `pg_stat_user_tables` and `pg_class` keep them. */
export interface TableCounters {
  table: string;
  /** The planner's row estimate; -1 before the first ANALYZE or VACUUM (counted as 0). */
  reltuples: number;
  liveTuples: number;
  deadTuples: number;
  modifiedSinceAnalyze: number;
  insertedSinceVacuum: number;
  lastAnalyze: Date | null;
  lastVacuum: Date | null;
  /** The table's size now, in pages. */
  pages: number;
  /** Pages, and pages all-visible, as of the last VACUUM or ANALYZE (`pg_class`: they survive a restart, the counters do not). */
  relpages: number;
  relallvisible: number;
}

/** What the policy runs on a table: `vacuum` sets the visibility map (index-only counts); `cleanup` also removes dead rows from the indexes. */
export interface MaintenanceStep {
  table: string;
  vacuum: 'none' | 'visibility' | 'cleanup';
  analyze: boolean;
}

export interface StepResult {
  table: string;
  /** `analyze`, `vacuum` (visibility map only: INDEX_CLEANUP OFF) or `vacuum_cleanup` (the indexes too). */
  action: 'analyze' | 'vacuum' | 'vacuum_cleanup';
  ms: number;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

const MAINTAINERS = new WeakMap<object, Maintenance>();

/**
 * The counters of every user table (or of `tables`). PGlite, like a PostgreSQL backend, flushes its
 * pending counts at most once a second: the flush is forced first, then read in the next statement.
 */
export async function readTableCounters(db: Database, tables?: readonly string[]): Promise<TableCounters[]> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select s.relname as table, c.reltuples, c.relpages, c.relallvisible,
             pg_relation_size(c.oid) / current_setting('block_size')::int as pages, s.n_live_tup, s.n_dead_tup, s.n_mod_since_analyze, s.n_ins_since_vacuum,
             greatest(s.last_analyze, s.last_autoanalyze) as last_analyze, greatest(s.last_vacuum, s.last_autovacuum) as last_vacuum
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = 'public' ${tables ? sql`and s.relname = any(${sql.param([...tables])}::text[])` : sql``}
      order by s.relname`),
  );
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return rows.map((r) => ({
    table: String(r.table),
    reltuples: Number(r.reltuples),
    liveTuples: Number(r.n_live_tup),
    deadTuples: Number(r.n_dead_tup),
    modifiedSinceAnalyze: Number(r.n_mod_since_analyze),
    insertedSinceVacuum: Number(r.n_ins_since_vacuum),
    lastAnalyze: date(r.last_analyze),
    lastVacuum: date(r.last_vacuum),
    pages: Number(r.pages),
    relpages: Number(r.relpages),
    relallvisible: Number(r.relallvisible),
  }));
}

/**
 * Autovacuum's decision for one table: what it would run now (none: under every threshold). `force`:
 * whatever was written since the last pass, under the thresholds too (the seed's last step).
 *
 * PGlite does not keep its counters across a restart (a seed or import by a process that ended before
 * its maintenance is invisible to them), so the catalog decides too: a table never analysed that has
 * pages, or grown past the analyze scale factor since (`relpages`), is analysed; one whose pages not
 * all-visible at its last vacuum (`relallvisible`) pass the insert scale factor is vacuumed.
 */
export function stepFor(counters: TableCounters, thresholds: Thresholds = AUTOVACUUM_THRESHOLDS, force = false): MaintenanceStep {
  const tuples = Math.max(0, counters.reltuples);
  const over = (count: number, t: { base: number; scale: number }) => (force ? count > 0 : count > t.base + t.scale * tuples);
  const relpages = Math.max(0, counters.relpages);
  const grown = counters.pages > 0 && (counters.reltuples < 0 || counters.pages - relpages > (force ? 0 : CATALOG_BASE_PAGES + thresholds.analyze.scale * relpages));
  const unvisited = counters.pages - Math.min(counters.relallvisible, counters.pages) > (force ? 0 : CATALOG_BASE_PAGES + thresholds.insert.scale * counters.pages);
  const cleanup = over(counters.deadTuples, thresholds.vacuum);
  const visibility = over(counters.insertedSinceVacuum, thresholds.insert) || unvisited;
  return {
    table: counters.table,
    vacuum: cleanup ? 'cleanup' : visibility ? 'visibility' : 'none',
    analyze: over(counters.modifiedSinceAnalyze, thresholds.analyze) || grown,
  };
}

/** The catalog's rule ignores tables grown by fewer pages than this (64 KB: a few hundred rows). */
const CATALOG_BASE_PAGES = 8;

/** Every step over its threshold, biggest table last (the small ones are done before a long one holds the database). */
export function plannedSteps(counters: readonly TableCounters[], thresholds: Thresholds = AUTOVACUUM_THRESHOLDS, force = false): MaintenanceStep[] {
  return [...counters]
    .sort((a, b) => a.liveTuples - b.liveTuples || a.table.localeCompare(b.table))
    .map((c) => stepFor(c, thresholds, force))
    .filter((s) => s.vacuum !== 'none' || s.analyze);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const begun = performance.now();
  await work();
  return performance.now() - begun;
}

/** VACUUM of one table: INDEX_CLEANUP OFF when only inserts are to be made visible (no index pass: the cheap case). */
export async function vacuumTable(db: Database, table: string, kind: 'visibility' | 'cleanup'): Promise<number> {
  const options = kind === 'visibility' ? sql`(index_cleanup off) ` : sql``;
  return timed(() => db.execute(sql`vacuum ${options}${sql.identifier(table)}`));
}

/** ANALYZE of one table; `statisticsTarget` bounds its sample (300 × target rows) for this statement only. */
export async function analyzeTable(db: Database, table: string, statisticsTarget?: number): Promise<number> {
  if (statisticsTarget === undefined) return timed(() => db.execute(sql`analyze ${sql.identifier(table)}`));
  return timed(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('default_statistics_target', ${String(statisticsTarget)}, true)`);
      await tx.execute(sql`analyze ${sql.identifier(table)}`);
    }),
  );
}

export interface MaintenanceOptions {
  db: Database;
  /** Resolved before each statement: the database may be held now (the API: no request in flight). */
  idle?: () => Promise<void>;
  /** After each statement (logs, metrics). */
  onStep?: (result: StepResult) => void;
  thresholds?: Thresholds;
  /** ANALYZE's sample (default `EMBEDDED_STATISTICS_TARGET`; undefined: the server's). */
  statisticsTarget?: number | null;
}

export interface PassOptions {
  /** Only these tables (default: every user table). */
  tables?: readonly string[];
  /** Analyse and vacuum every table that was written since its last pass, under the thresholds too (the seed's last step). */
  force?: boolean;
}

export interface Maintenance {
  /** One pass: each table over its thresholds, one statement at a time. A call during a pass gets the pass after it (never two at once). */
  pass(options?: PassOptions): Promise<StepResult[]>;
  /** A pass soon, not awaited (a bulk writer's end point); its failure goes to `onError`. */
  request(tables?: readonly string[]): void;
  /** Stops after the statement under way (awaited); later passes do nothing. */
  close(): Promise<void>;
  /** Whether a pass is under way. */
  readonly running: boolean;
}

/**
 * The embedded database's maintenance: passes never overlap, each statement waits for `idle`, and
 * the decision is autovacuum's, from the database's counters.
 */
export function createMaintenance(options: MaintenanceOptions & { onError?: (error: unknown) => void }): Maintenance {
  const { db } = options;
  const statisticsTarget = options.statisticsTarget === null ? undefined : (options.statisticsTarget ?? EMBEDDED_STATISTICS_TARGET);
  let current: Promise<StepResult[]> | undefined;
  /** The one pass waiting for the current one: every caller during a pass shares it (tables merged). */
  let queued: { tables: Set<string> | undefined; force: boolean; promise: Promise<StepResult[]> } | undefined;
  let closed = false;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  /**
   * Waits for a task of its own (PGlite answers in turn: statements chained as bare promise callbacks would
   * follow each other with no request's statement between them, and HTTP would wait for the whole pass), then for
   * `idle`, or for `close` (which need not wait for the requests in flight); true: go on.
   */
  const mayRun = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    if (options.idle) await Promise.race([options.idle(), stopped]);
    return !closed;
  };

  const runPass = async (pass: PassOptions): Promise<StepResult[]> => {
    const steps = plannedSteps(await readTableCounters(db, pass.tables), options.thresholds, pass.force);
    const results: StepResult[] = [];
    const record = (result: StepResult) => {
      results.push(result);
      options.onStep?.(result);
    };
    for (const step of steps) {
      if (step.vacuum !== 'none') {
        if (!(await mayRun())) break;
        record({ table: step.table, action: step.vacuum === 'cleanup' ? 'vacuum_cleanup' : 'vacuum', ms: await vacuumTable(db, step.table, step.vacuum) });
      }
      if (step.analyze) {
        if (!(await mayRun())) break;
        record({ table: step.table, action: 'analyze', ms: await analyzeTable(db, step.table, statisticsTarget) });
      }
    }
    return results;
  };

  const pass = (passOptions: PassOptions = {}): Promise<StepResult[]> => {
    if (closed) return Promise.resolve([]);
    if (!current) {
      current = runPass(passOptions).finally(() => {
        current = undefined;
      });
      return current;
    }
    if (!queued) {
      const entry = { tables: passOptions.tables ? new Set(passOptions.tables) : undefined, force: Boolean(passOptions.force), promise: Promise.resolve<StepResult[]>([]) };
      entry.promise = current
        .catch(() => [])
        .then(() => {
          queued = undefined;
          return closed ? [] : pass({ tables: entry.tables ? [...entry.tables] : undefined, force: entry.force });
        });
      queued = entry;
      return entry.promise;
    }
    if (!passOptions.tables) queued.tables = undefined;
    else if (queued.tables) for (const table of passOptions.tables) queued.tables.add(table);
    queued.force ||= Boolean(passOptions.force);
    return queued.promise;
  };

  return {
    pass,
    request(tables) {
      pass(tables ? { tables } : {}).catch((error: unknown) => options.onError?.(error));
    },
    async close() {
      closed = true;
      stop();
      await Promise.allSettled([current, queued?.promise]);
    },
    get running() {
      return current !== undefined;
    },
  };
}

/** The maintenance of the embedded database `db` (registered by the API that runs it): bulk writers' end points reach it through `afterBulkWrite`. */
export function registerMaintenance(db: Database, maintenance: Maintenance | undefined): void {
  if (maintenance) MAINTAINERS.set(db, maintenance);
  else MAINTAINERS.delete(db);
}

/** What `afterBulkWrite` logs through (a pino logger fits). */
export interface MaintenanceLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * A bulk writer's end point (seed, import Done, annuity file Done, LEDES run Done, receipts): `writes`
 * is the rows it wrote per table (an upper bound is fine). Embedded: a maintenance pass is requested
 * (not awaited; the counters decide, when no request is in flight). PostgreSQL: each table grown past
 * autovacuum's analyze threshold is analysed at once (cheap there, other connections go on); VACUUM
 * stays autovacuum's. PGlite with no maintenance registered (a CLI, a test): nothing. Never throws.
 */
export async function afterBulkWrite(db: Database, writes: Readonly<Record<string, number>>, log?: MaintenanceLog): Promise<void> {
  const tables = Object.keys(writes).filter((table) => (writes[table] ?? 0) > 0);
  if (tables.length === 0) return;
  const maintenance = MAINTAINERS.get(db);
  if (maintenance) return maintenance.request(tables);
  if (driverOf(db) !== 'postgres') return;
  try {
    const estimates = rowsOf<{ table: string; reltuples: number }>(
      await db.execute(sql`select relname as table, reltuples from pg_class where relnamespace = 'public'::regnamespace and relname = any(${sql.param(tables)}::text[])`),
    );
    for (const { table, reltuples } of estimates) {
      const { base, scale } = AUTOVACUUM_THRESHOLDS.analyze;
      if ((writes[table] ?? 0) <= base + scale * Math.max(0, Number(reltuples))) continue;
      const ms = await analyzeTable(db, table);
      log?.info({ event: 'db_maintenance', table, action: 'analyze', ms: Math.round(ms) }, 'database maintenance');
    }
  } catch (error) {
    log?.warn({ event: 'db_maintenance_failed', err: error }, 'database maintenance failed');
  }
}
