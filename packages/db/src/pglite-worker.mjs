// The embedded database's thread (decision 180): one PGlite instance, owned by this worker thread of the API
// process, answering the statements `pglite-thread.ts` sends from the main thread. Plain JavaScript: the thread
// loads PGlite and nothing else (no TypeScript loader).
//
// Messages in: { id, op: 'query', sql, params, rowMode, rawTypes, tx? | lane } | { id, op: 'exec', sql, tx? | lane }
//   | { id, op: 'begin', lane } | { id, op: 'end', tx, commit } | { id, op: 'close' }
// Messages out: { id, ok: true, result } | { id, ok: false, error }; first { ready: true } or { ready: false, error }.
// { op: 'port', port }: another thread's port (decision 232), whose 'query' messages are answered on it.
// Statements of the open transaction go to PGlite as they come; the others wait in this thread's two lanes
// (decision 185, below) and are handed to PGlite one at a time, a request's first.
import { appendFileSync, readFileSync } from 'node:fs';
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
          .finally(() => {
            const open = transactions.get(message.id);
            if (open?.began !== undefined) trace({ op: 'transaction', lane: message.lane, sent: message.sent, received: message.received, started: open.began, ended: now(), statements: open.statements });
            transactions.delete(message.id);
          });
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

// The thread's own queue (decision 185): PGlite answers one statement at a time, so the order in which they are
// handed to it is the order they run in. Statements outside a transaction (and `begin`, `close`) wait here in two
// lanes: 'request' (issued while the API serves an HTTP request) goes ahead of 'background' (jobs, maintenance).
// One is handed to PGlite at a time; a transaction, once begun, holds the connection until its `end`: only its own
// statements (they carry its id) run meanwhile, so nothing interleaves inside it.
const lanes = { request: [], background: [] };
// PGLITE_THREAD_LANES=off: one lane, first come first served (as before decision 185); for the benches' comparison.
const LANES = process.env.PGLITE_THREAD_LANES !== 'off';
/** Something is under way: a statement, or a transaction from its begin to its end. */
let busy = false;

// PGLITE_THREAD_TRACE=<file>: one JSON line per statement and per transaction (lane, SQL head, ms waited and
// run, the thread's clock) appended every second; a measuring aid for the benches, off by default.
const tracePath = process.env.PGLITE_THREAD_TRACE;
let traceLines = [];
if (tracePath) {
  const flush = () => {
    if (traceLines.length === 0) return;
    appendFileSync(tracePath, traceLines.join('\n') + '\n');
    traceLines = [];
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}
const head = (sql) => (typeof sql === 'string' ? sql.replace(/\s+/g, ' ').slice(0, 100) : undefined);
function trace(record) {
  if (tracePath) traceLines.push(JSON.stringify(record));
}

const now = () => performance.timeOrigin + performance.now();
/** This thread's CPU time and run-queue wait so far, ms (Linux; a statement's own cost, apart from the machine's load). */
function schedstat() {
  try {
    const [cpu, queued] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { cpu: cpu / 1e6, queued: queued / 1e6 };
  } catch {
    return { cpu: 0, queued: 0 };
  }
}

function reply(message, promise) {
  const started = now();
  const sched = tracePath ? schedstat() : undefined;
  // A statement of another thread's port (decision 232) is answered on that port.
  const to = message.replyTo ?? parentPort;
  if (!tracePath) return promise.then((result) => to.postMessage({ id: message.id, ok: true, result }), (error) => to.postMessage({ id: message.id, ok: false, error: serializeError(error) }));
  // Times are the epoch's (ms), comparable with the main thread's: `sent` is its, when it posted the message.
  const record = (extra) => {
    const after = schedstat();
    trace({ id: message.id, op: message.op, lane: message.lane, tx: message.tx, sql: head(message.sql), sent: message.sent, received: message.received, started, ended: now(), cpu: after.cpu - sched.cpu, queued: after.queued - sched.queued, ...extra });
  };
  return promise.then(
    (result) => {
      if (message.op !== 'begin') record({ rows: result?.rows?.length });
      to.postMessage({ id: message.id, ok: true, result });
    },
    (error) => {
      record({ error: String(error?.message ?? error) });
      to.postMessage({ id: message.id, ok: false, error: serializeError(error) });
    },
  );
}

/**
 * The next statement is chosen in a task of its own, once the thread has taken in every message that came
 * meanwhile. A statement runs in the promise callbacks of whatever started it: dispatched from the message
 * handler, it ran before the port's next messages were read, and the port's order (first come, first served)
 * was the order, whatever the lane.
 */
let scheduled = false;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    pump();
  });
}

function pump() {
  while (!busy) {
    const message = lanes.request.shift() ?? lanes.background.shift();
    if (!message) return;
    busy = true;
    const release = () => {
      busy = false;
      schedule();
    };
    if (message.op === 'begin') {
      const began = now();
      void reply(message, handle(message)).then(() => {
        const open = transactions.get(message.id);
        // Begun: the transaction holds the connection until it ends (`done` settles either way).
        if (!open) return release();
        open.statements = 0;
        open.began = began;
        open.done.then(release, release);
      });
    } else {
      void reply(message, handle(message)).then(release);
    }
  }
}

/**
 * Another thread's port (decision 232): its statements join the background lane and are answered on it; only
 * statements outside a transaction (a transaction holds the connection for the main thread's callback alone).
 */
function attachPort(port) {
  port.on('message', (message) => {
    if (tracePath) message.received = now();
    if (message.op !== 'query' || message.tx !== undefined) {
      port.postMessage({ id: message.id, ok: false, error: serializeError(new Error(`A thread's port takes statements outside transactions only, not ${message.op}`)) });
      return;
    }
    message.replyTo = port;
    message.lane = 'background';
    lanes.background.push(message);
    schedule();
  });
  port.once('close', () => port.removeAllListeners('message'));
}

parentPort.on('message', (message) => {
  if (message.op === 'port') {
    attachPort(message.port);
    return;
  }
  if (tracePath) message.received = now();
  if (message.tx !== undefined) {
    // A statement, or the end, of the transaction that holds the connection: straight to PGlite.
    const open = transactions.get(message.tx);
    if (open && message.op !== 'end') open.statements++;
    void reply(message, handle(message));
    return;
  }
  (message.lane === 'request' && LANES ? lanes.request : lanes.background).push(message);
  schedule();
});

pglite.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serializeError(error) }),
);
