import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { driverOf, type Database } from './client.ts';

/**
 * Plans kept for the embedded database's repeated statements (issue 28). PGlite plans in the API process (on its thread, decision 180),
 * and planning a list page (patent_records has ~25 indexes to weigh, each one's size read from its file system)
 * costs more than running it: ~1.5 of ~2 ms. PGlite's client has no named statements, and SQL's `EXECUTE` takes
 * no bound parameters, so a statement met a second time is prepared with its values written in it (Drizzle's own
 * inlining: numbers, booleans, strings quoted with `''`, as PostgreSQL reads them with standard_conforming_strings
 * on, its default): its plan is the one planning with those values gives, kept by the session. A statement met
 * once (a page after a cursor) is run as it is and never kept. At most CAPACITY plans; the oldest is deallocated.
 *
 * node-postgres (production): the statement runs as it is; planning is the server's, not the API process's.
 */
const CAPACITY = 32;
/** Texts met once, remembered until this many (then forgotten all at once). */
const SEEN_CAPACITY = 256;

const dialect = new PgDialect();

interface Entry {
  name: string;
  ready: Promise<unknown>;
}

interface Cache {
  plans: Map<string, Entry>;
  seen: Set<string>;
  next: number;
}

/** By the driver's client: a statement's name is the session's, whichever Drizzle instance wraps it. */
const caches = new WeakMap<object, Cache>();
const clientOf = (db: Database) => (db as unknown as { $client: object }).$client;

const isPglite = (db: Database) => driverOf(db) === 'pglite';

/** PostgreSQL's "prepared statement does not exist" and "cached plan must not change result type". */
const LOST = new Set(['26000', '0A000']);
/** "prepared statement already exists". */
const DUPLICATE = '42P05';

/**
 * Runs a read-only statement of `db` (the database, not a transaction) as `db.execute` would (its result, `{ rows }`), with its plan
 * kept on the embedded database once the same statement comes back.
 */
export async function executeKeepingPlan(db: Database, statement: SQL): Promise<unknown> {
  if (!isPglite(db)) return db.execute(statement);
  let cache = caches.get(clientOf(db));
  if (!cache) caches.set(clientOf(db), (cache = { plans: new Map(), seen: new Set(), next: 0 }));
  const text = dialect.sqlToQuery(statement.inlineParams()).sql;
  let entry = cache.plans.get(text);
  if (!entry) {
    if (!cache.seen.has(text)) {
      if (cache.seen.size >= SEEN_CAPACITY) cache.seen.clear();
      cache.seen.add(text);
      return db.execute(statement);
    }
    cache.seen.delete(text);
    entry = prepare(db, cache, text);
    await deallocate(db, evicted(cache));
  } else {
    // Most recently used last: the first entry is the one to evict.
    cache.plans.delete(text);
    cache.plans.set(text, entry);
  }
  try {
    await entry.ready;
    return await db.execute(sql.raw(`execute ${entry.name}`));
  } catch (error) {
    // A failed preparation is forgotten, as is a statement deallocated behind our back or whose tables changed
    // shape; the latter two run as they are.
    if (cache.plans.get(text) === entry) cache.plans.delete(text);
    if (!LOST.has(codeOf(error))) throw error;
    return db.execute(statement);
  }
}

/** The PostgreSQL error code, under Drizzle's wrapping (DrizzleQueryError keeps the driver's error as its cause). */
function codeOf(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code ?? '';
}

function prepare(db: Database, cache: Cache, text: string): Entry {
  const name = `portal_kept_${cache.next++}`;
  // Drizzle's query runs each time it is awaited: one promise of it, awaited by every caller.
  const entry: Entry = { name, ready: Promise.resolve(db.execute(sql.raw(`prepare ${name} as ${text}`))) };
  cache.plans.set(text, entry);
  return entry;
}

/** The least recently used entries past CAPACITY, out of the cache. */
function evicted(cache: Cache): Entry[] {
  const out: Entry[] = [];
  while (cache.plans.size > CAPACITY) {
    const [oldest, entry] = cache.plans.entries().next().value!;
    cache.plans.delete(oldest);
    out.push(entry);
  }
  return out;
}

/** Each entry's statement, after its preparation; one that failed or is already gone has nothing to free. */
async function deallocate(db: Database, entries: Entry[]): Promise<void> {
  for (const entry of entries) {
    try {
      await entry.ready;
      await db.execute(sql.raw(`deallocate ${entry.name}`));
    } catch (error) {
      if (!LOST.has(codeOf(error)) && !(await preparationFailed(entry))) throw error;
    }
  }
}

const preparationFailed = (entry: Entry) => entry.ready.then(
  () => false,
  () => true,
);

interface QueryClient {
  query(text: string, params?: unknown[], options?: unknown): Promise<unknown>;
}

/** A bound value as an SQL literal (what `EXECUTE` takes), or undefined for a kind not written here. */
function literal(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') return dialect.escapeString(value);
  return undefined;
}

/**
 * Gives a Drizzle prepared query (`db.select()….prepare(name)`) of the embedded database what its name gives it on
 * node-postgres: a statement PostgreSQL prepared once, its plan kept by the session (PGlite's client has no named
 * statements; Drizzle's `prepare` only builds the SQL there). Each run is `EXECUTE name(values)`, the values
 * written as literals; PostgreSQL plans with them for five runs, then keeps a generic plan if it costs no more:
 * for the lookups of every request (a session, a scope: equality on keys) it does. The result is Drizzle's, mapped
 * as before. node-postgres: the query as it is.
 */
export function keepPreparedPlan<T extends object>(db: Database, prepared: T, name: string): T {
  if (!isPglite(db)) return prepared;
  // Drizzle's PglitePreparedQuery runs `this.client.query(queryString, params, config)`: the client is replaced.
  const target = prepared as unknown as { client: QueryClient };
  const client = target.client;
  let ready: Promise<unknown> | undefined;
  target.client = {
    async query(text, params = [], options) {
      const values = params.map(literal);
      if (values.includes(undefined)) return client.query(text, params, options);
      ready ??= client.query(`prepare ${name} as ${text}`).catch((error: unknown) => {
        // Prepared already in this session (another handle on the same client, the same code): use it.
        if (codeOf(error) === DUPLICATE) return;
        ready = undefined;
        throw error;
      });
      try {
        await ready;
        return await client.query(`execute ${name}(${values.join(', ')})`, [], options);
      } catch (error) {
        if (!LOST.has(codeOf(error))) throw error;
        ready = undefined;
        return client.query(text, params, options);
      }
    },
  };
  return prepared;
}
