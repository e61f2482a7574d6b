import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { MIGRATIONS_FOLDER, openDatabase, PGLITE_START_PARAMS, type DatabaseConfig, type DatabaseHandle } from './client.ts';

/**
 * Creates a fresh PostgreSQL database for one test run and returns its URL and a drop function.
 * `baseUrl` points at a server where the role may CREATE DATABASE (CI: postgres@127.0.0.1, trust auth).
 */
export async function createScratchDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** The PostgreSQL server tests use: TEST_DATABASE_URL, or null when unset (PGlite-only run). */
export function testDatabaseBaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL || null;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/** The databases a test runs on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return testDatabaseBaseUrl() ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A migrated database of `kind` for one test file: an in-memory PGlite, or a fresh PostgreSQL database
 * (`createScratchDatabase`) that `close()` also drops.
 */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<DatabaseHandle> {
  const scratch = kind === 'postgres' ? await createScratchDatabase(testDatabaseBaseUrl()!) : null;
  const handle = openDatabase(scratch ? { driver: 'postgres', url: scratch.url } : testPgliteConfig());
  try {
    await handle.migrate();
  } catch (error) {
    await handle.close();
    await scratch?.drop();
    throw error;
  }
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch?.drop();
    },
  };
}

/** An in-memory PGlite database for a test, started from the migrated template (`pgliteTestTemplate`). */
export function testPgliteConfig(): Extract<DatabaseConfig, { driver: 'pglite' }> {
  return { driver: 'pglite', dataDir: 'memory://', template: pgliteTestTemplate() };
}

const TEMPLATE_DIR = path.resolve(import.meta.dirname, '../../../node_modules/.cache/portal-pglite');

/**
 * The path of a dump of an initialised, migrated PGlite database, made once per set of migrations
 * (and PGlite version and start parameters) and kept under node_modules/.cache: a test's in-memory
 * database then starts from it in ~1 s instead of running initdb and every migration (~4.5 s), which
 * the suite did some sixty times. Made by a child process (several test processes may make it at
 * once: each writes its own file, then renames it into place); older templates are removed.
 */
export function pgliteTestTemplate(): string {
  const file = path.join(TEMPLATE_DIR, `${templateKey()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
  try {
    execFileSync(process.execPath, [path.join(import.meta.dirname, 'pglite-template.mjs'), partial, JSON.stringify(PGLITE_START_PARAMS), MIGRATIONS_FOLDER], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  for (const other of readdirSync(TEMPLATE_DIR)) {
    if (other.endsWith('.tar') && other !== path.basename(file)) rmSync(path.join(TEMPLATE_DIR, other), { force: true });
  }
  return file;
}

let cachedKey: string | undefined;

function templateKey(): string {
  if (cachedKey) return cachedKey;
  const hash = createHash('sha256');
  // The package does not export its package.json: read it beside its resolved entry (dist/index.js).
  const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  const pgliteVersion = (JSON.parse(readFileSync(path.resolve(path.dirname(pgliteEntry), '../package.json'), 'utf8')) as { version: string }).version;
  hash.update(`${pgliteVersion}\0${JSON.stringify(PGLITE_START_PARAMS)}\0`);
  for (const dir of [MIGRATIONS_FOLDER, path.join(MIGRATIONS_FOLDER, 'meta')]) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql') || n.endsWith('.json')).sort()) {
      hash.update(`${name}\0`).update(readFileSync(path.join(dir, name))).update('\0');
    }
  }
  return (cachedKey = hash.digest('hex').slice(0, 16));
}

/** One node of `EXPLAIN (FORMAT JSON)`'s plan tree (the fields the plan tests read; PostgreSQL and PGlite print the same). */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Sort Key'?: string[];
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/**
 * The plan PostgreSQL (or PGlite) chooses for `query`, without running it. The caller has the table it reads
 * filled and analysed as the product would (a plan on an empty table says nothing).
 */
export async function explainPlan(db: DatabaseHandle['db'], query: SQL): Promise<PlanNode> {
  // Both drivers answer `{ rows }` (node-postgres and PGlite).
  const result: unknown = await db.execute(sql`explain (format json) ${query}`);
  const { rows } = result as { rows: Array<Record<string, unknown>> };
  const cell = Object.values(rows[0] ?? {})[0];
  const parsed = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode }>;
  return parsed[0]!.Plan;
}

/** Every node of a plan tree, depth first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/**
 * The nodes that sort rows in full (`Sort`, not `Incremental Sort` fed by an index, not a `Top-N` over a few
 * rows the caller accepts): a list page's plan should have none over its table.
 */
export function fullSorts(plan: PlanNode): PlanNode[] {
  return planNodes(plan).filter((node) => node['Node Type'] === 'Sort');
}

/**
 * The full sorts (`fullSorts`) that sort rows of `relation`: a Sort with a scan of that table among the nodes that
 * feed it rows (its init plans and subplans, which only compute values, are not looked into). A list may sort a
 * handful of other rows (its offices, its owners) and read its own table in an index's order.
 */
export function sortsOver(plan: PlanNode, relation: string): PlanNode[] {
  const feeding = (node: PlanNode): PlanNode[] => [
    node,
    ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'InitPlan' && child['Parent Relationship'] !== 'SubPlan').flatMap(feeding),
  ];
  return fullSorts(plan).filter((sort) => feeding(sort).some((node) => node['Relation Name'] === relation));
}
