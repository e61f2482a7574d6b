// The embedded database's thread (decision 180): one PGlite instance, owned by this worker thread of the API
// process, answering the statements `pglite-thread.ts` sends from the main thread. Plain JavaScript: the thread
// loads PGlite and nothing else (no TypeScript loader).
//
// Messages in: { id, op: 'query', sql, params, rowMode, rawTypes, tx? } | { id, op: 'exec', sql, tx? }
//   | { id, op: 'begin' } | { id, op: 'end', tx, commit } | { id, op: 'close' }
// Messages out: { id, ok: true, result } | { id, ok: false, error }; first { ready: true } or { ready: false, error }.
// Statements are handed to PGlite as they come: PGlite serialises them itself, and one outside a transaction
// waits for an open transaction to end, as on the main thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const { dataDir, startParams, template } = workerData;

/** Identity parsers by type OID: what Drizzle's parsers are (the value as PostgreSQL's text), rebuilt here. */
const parserSets = new Map();
function parsersFor(rawTypes) {
  if (!rawTypes || rawTypes.length === 0) return undefined;
  const key = rawTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(rawTypes.map((oid) => [oid, (value) => value]));
    parserSets.set(key, parsers);
  }
  return parsers;
}

/** An error as a plain object that crosses the thread: name, message, stack and every primitive field (code, detail, constraint…). */
function serializeError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

const pglite = new PGlite(dataDir, {
  startParams,
  extensions: { pg_trgm },
  ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
});

/** Open transactions by id: the PGlite transaction object, and how to end it. */
const transactions = new Map();
const ROLLBACK = Symbol('rollback');

function runnerOf(message) {
  if (message.tx === undefined) return pglite;
  const open = transactions.get(message.tx);
  if (!open) throw new Error(`No open transaction ${message.tx} on the database thread`);
  return open.tx;
}

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const options = { rowMode: message.rowMode ?? 'object' };
      const parsers = parsersFor(message.rawTypes);
      if (parsers) options.parsers = parsers;
      const result = await runnerOf(message).query(message.sql, message.params ?? [], options);
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec': {
      const results = await runnerOf(message).exec(message.sql);
      return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    }
    case 'begin':
      return new Promise((opened, failed) => {
        let end;
        const ended = new Promise((resolve, reject) => (end = { resolve, reject }));
        // Committed when the main thread's callback resolves, rolled back when it throws (PGlite's own transaction).
        const done = pglite
          .transaction(async (tx) => {
            transactions.set(message.id, { tx, end, done });
            opened(message.id);
            await ended;
          })
          .catch((error) => {
            if (error !== ROLLBACK) throw error;
          })
          .finally(() => transactions.delete(message.id));
        // A transaction that fails to start (BEGIN refused) never opened.
        done.catch(failed);
      });
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) throw new Error(`No open transaction ${message.tx} on the database thread`);
      if (message.commit) open.end.resolve();
      else open.end.reject(ROLLBACK);
      await open.done;
      return null;
    }
    case 'close':
      await pglite.close();
      return null;
    default:
      throw new Error(`Unknown database thread operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, ok: true, result }),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: serializeError(error) }),
  );
});

pglite.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serializeError(error) }),
);
