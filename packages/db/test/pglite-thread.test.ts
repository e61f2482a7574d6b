import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, openDatabase, openDatabasePort, type DatabaseHandle } from '../src/client.ts';
import { DatabasePort, type DatabasePortError } from '../src/thread-port.ts';
import { inRequestLane } from '../src/lanes.ts';
import { PgliteThreadClient } from '../src/pglite-thread.ts';
import { users } from '../src/schema.ts';
import { pgliteTestTemplate, testPgliteConfig } from '../src/testing.ts';
import { PGLITE_START_PARAMS } from '../src/client.ts';

const rowsOf = <T = Record<string, unknown>>(result: unknown) => (result as { rows: T[] }).rows;

/** Decision 180: the embedded database on a worker thread, behind the client Drizzle's pglite driver is given. */
describe('PGlite on a thread of its own', () => {
  let threaded: DatabaseHandle;
  let inline: DatabaseHandle;
  beforeAll(async () => {
    threaded = openDatabase({ ...testPgliteConfig(), thread: true });
    inline = openDatabase(testPgliteConfig());
    await Promise.all([threaded.migrate(), inline.migrate()]);
    for (const h of [threaded, inline]) {
      await h.db.execute(sql`create table probe (id integer primary key, label text unique, day date, at timestamptz, span interval, amount numeric(12, 2), big bigint, flag boolean, tags text[], doc jsonb, bytes bytea)`);
    }
  });
  afterAll(async () => {
    await threaded?.close();
    await inline?.close();
  });

  it('answers a query as PGlite on the main thread does (every kind of value, object and array rows, through Drizzle)', async () => {
    for (const h of [threaded, inline]) {
      await h.db.execute(sql`insert into probe values
        (1, 'O''Brien', '2026-02-03', '2026-02-03T04:05:06.789Z', '1 day 02:00', 12.40, 9007199254740993, true, '{a,b}', '{"k": [1, "x"]}', '\\x0102ff'),
        (2, null, null, null, null, null, null, false, null, null, null)`);
    }
    const statement = sql`select * from probe order by id`;
    const raw = rowsOf(await threaded.db.execute(statement));
    expect(raw).toEqual(rowsOf(await inline.db.execute(statement)));
    expect(raw[0]).toMatchObject({ id: 1, label: "O'Brien", day: '2026-02-03', amount: '12.40', flag: true, tags: ['a', 'b'], doc: { k: [1, 'x'] } });
    expect(raw[0]!.bytes).toEqual(new Uint8Array([1, 2, 255]));
    // Drizzle's typed select (array rows, its own parsers: dates and timestamps kept as text, then mapped).
    const select = (h: DatabaseHandle) => h.db.select({ id: users.id, email: users.email, createdAt: users.createdAt }).from(users).orderBy(users.email);
    expect(await select(threaded)).toEqual(await select(inline));
    // A raw exec of several statements.
    const client = (threaded.db as unknown as { $client: PgliteThreadClient }).$client;
    const results = await client.exec('select 1 as one; select 2 as two');
    expect(results.map((r) => r.rows)).toEqual([[{ one: 1 }], [{ two: 2 }]]);
  });

  it('commits a transaction whose callback resolves', async () => {
    const result = await threaded.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe (id, label) values (10, 'committed')`);
      const seen = rowsOf(await tx.execute(sql`select label from probe where id = 10`));
      return seen;
    });
    expect(result).toEqual([{ label: 'committed' }]);
    expect(rowsOf(await threaded.db.execute(sql`select label from probe where id = 10`))).toEqual([{ label: 'committed' }]);
  });

  it('rolls back a transaction whose callback throws, savepoints included, and rethrows its error', async () => {
    const failure = new Error('changed my mind');
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(sql`insert into probe (id, label) values (11, 'rolled back')`);
        await tx.transaction(async (inner) => inner.execute(sql`insert into probe (id, label) values (12, 'inner')`));
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(threaded.db.transaction(async (tx) => tx.rollback())).rejects.toThrow(/Rollback/i);
    expect(rowsOf(await threaded.db.execute(sql`select id from probe where id in (11, 12)`))).toEqual([]);
  });

  it('keeps the PostgreSQL error code, message and fields of a unique violation, inside and outside a transaction', async () => {
    const violation = await threaded.db.execute(sql`insert into probe (id, label) values (20, 'O''Brien')`).catch((error: unknown) => error);
    expect(isUniqueViolation(violation)).toBe(true);
    const cause = (violation as { cause: Error & { code: string; constraint: string; severity: string } }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'probe_label_key', severity: 'ERROR' });
    expect(cause.message).toMatch(/duplicate key value violates unique constraint/);
    expect(cause.stack).toMatch(/duplicate key/);
    const inTx = await threaded.db
      .transaction(async (tx) => tx.execute(sql`insert into probe (id) values (1)`))
      .catch((error: unknown) => error);
    expect(isUniqueViolation(inTx)).toBe(true);
    // The session is usable after both.
    expect(rowsOf(await threaded.db.execute(sql`select 1 as ok`))).toEqual([{ ok: 1 }]);
  });

  it('makes statements outside a transaction wait for its end, as PGlite does on the main thread', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const tx = threaded.db.transaction(async (t) => {
      await t.execute(sql`insert into probe (id, label) values (30, 'in tx')`);
      inside();
      await held;
      order.push('commit');
    });
    await opened;
    const outside = threaded.db.execute(sql`select count(*)::integer as n from probe where id = 30`).then((r) => {
      order.push('outside');
      return rowsOf<{ n: number }>(r)[0]!.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual([]);
    release();
    await tx;
    // It ran after the commit and saw the transaction's row.
    expect(await outside).toBe(1);
    expect(order).toEqual(['commit', 'outside']);
  });

  it("leaves the caller's event loop free while a long statement runs (a 10 ms timer keeps firing)", async () => {
    for (const [h, free] of [
      [threaded, true],
      [inline, false],
    ] as const) {
      let last = performance.now();
      let longest = 0;
      let ticks = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        ticks++;
      }, 10);
      const started = performance.now();
      last = started;
      await h.db.execute(sql`select count(*) from generate_series(1, 1000000) g where g % 7 = 3`);
      const took = performance.now() - started;
      clearInterval(timer);
      // The gap up to the statement's end counts (on the main thread the timer never got to fire).
      longest = Math.max(longest, performance.now() - last);
      // On the main thread the timer cannot fire during the statement; on the thread it does, all along.
      if (free) {
        expect(ticks).toBeGreaterThanOrEqual(3);
        expect(longest).toBeLessThan(Math.max(100, took / 2));
      } else {
        expect(longest).toBeGreaterThanOrEqual(took * 0.8);
      }
    }
  }, 60_000);

  it('gives another thread a port (decision 232): its statements run in order, keep the database’s error code; none without a thread', async () => {
    expect(openDatabasePort(inline.db)).toBeNull();
    await threaded.db.execute(sql`create table port_probe (id integer primary key, label text)`);
    const port = openDatabasePort(threaded.db)!;
    const client = new DatabasePort(port);
    await Promise.all([1, 2, 3].map((id) => client.run('insert into port_probe (id, label) values ($1, $2)', [id, `label ${id}`])));
    const duplicate = await client.run('insert into port_probe (id, label) values ($1, $2)', [2, 'again']).catch((error: unknown) => error as DatabasePortError);
    expect(duplicate).toMatchObject({ code: '23505' });
    expect(rowsOf(await threaded.db.execute(sql`select id, label from port_probe order by id`))).toEqual([
      { id: 1, label: 'label 1' },
      { id: 2, label: 'label 2' },
      { id: 3, label: 'label 3' },
    ]);
    client.close();
    await expect(client.run('select 1', [])).rejects.toThrow(/closed/);
    // The main thread's client goes on.
    expect(rowsOf(await threaded.db.execute(sql`select count(*)::int as n from port_probe`))).toEqual([{ n: 3 }]);
  });
});

/** Decision 185: statements issued while serving a request go ahead of the background's waiting on the thread. */
describe('the database thread’s two lanes', () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = openDatabase({ ...testPgliteConfig(), thread: true });
    await db.db.execute(sql`create table lane_log (id serial primary key, who text not null)`);
  });
  afterAll(async () => {
    await db?.close();
  });
  // (`.then` sends the statement now: Drizzle's query is lazy, sent when first awaited.)
  const log = (who: string) => db.db.execute(sql`insert into lane_log (who) values (${who})`).then(() => undefined);
  const long = () => db.db.execute(sql`select count(*) from generate_series(1, 3000000) g where g % 7 = 3`).then(() => undefined);

  it('runs a request’s statement right after the statement under way, before the background statements queued', async () => {
    const done: string[] = [];
    const track = (who: string, p: Promise<unknown>) => p.then(() => void done.push(who));
    const running = track('long', long());
    // The long statement is under way on the thread; eight background statements queue behind it, then a request's.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const queued = Array.from({ length: 8 }, (_, i) => track(`background ${i}`, log(`background ${i}`)));
    const request = inRequestLane(() => track('request', log('request')));
    await Promise.all([running, ...queued, request]);
    expect(done).toEqual(['long', 'request', ...Array.from({ length: 8 }, (_, i) => `background ${i}`)]);
    // The thread's own order, as the serial column saw it.
    const order = rowsOf<{ who: string }>(await db.db.execute(sql`select who from lane_log order by id`)).map((r) => r.who);
    expect(order).toEqual(['request', ...Array.from({ length: 8 }, (_, i) => `background ${i}`)]);
  }, 60_000);

  it('never runs a request’s statement inside a background transaction: it waits for the end, and a rollback does not undo it', async () => {
    await db.db.execute(sql`truncate lane_log`);
    const order: string[] = [];
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const failure = new Error('rolled back');
    const tx = db.db
      .transaction(async (t) => {
        await t.execute(sql`insert into lane_log (who) values ('tx 1')`);
        entered();
        // Between its statements the transaction holds the connection: the request's statement waits.
        await new Promise((resolve) => setTimeout(resolve, 50));
        await t.execute(sql`insert into lane_log (who) values ('tx 2')`);
        const seen = rowsOf<{ who: string }>(await t.execute(sql`select who from lane_log order by id`)).map((r) => r.who);
        order.push(`tx saw ${seen.join(', ')}`);
        throw failure;
      })
      .catch((error: unknown) => {
        order.push('tx ended');
        expect(error).toBe(failure);
      });
    await inside;
    const request = inRequestLane(() => log('request')).then(() => void order.push('request'));
    await Promise.all([tx, request]);
    expect(order).toEqual(['tx saw tx 1, tx 2', 'tx ended', 'request']);
    expect(rowsOf<{ who: string }>(await db.db.execute(sql`select who from lane_log order by id`)).map((r) => r.who)).toEqual(['request']);
  });

  it('runs a request’s transaction ahead of the background statements queued, and nothing of theirs inside it', async () => {
    await db.db.execute(sql`truncate lane_log`);
    const running = long();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const queued = Array.from({ length: 4 }, (_, i) => log(`background ${i}`));
    const request = inRequestLane(() =>
      db.db.transaction(async (t) => {
        await t.execute(sql`insert into lane_log (who) values ('request 1')`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await t.execute(sql`insert into lane_log (who) values ('request 2')`);
      }),
    );
    await Promise.all([running, ...queued, request]);
    const order = rowsOf<{ who: string }>(await db.db.execute(sql`select who from lane_log order by id`)).map((r) => r.who);
    expect(order).toEqual(['request 1', 'request 2', 'background 0', 'background 1', 'background 2', 'background 3']);
  }, 60_000);
});

describe('a crash of the database thread', () => {
  it('rejects the statements under way and every later one, and reports the crash once', async () => {
    const crashes: Error[] = [];
    // A thread whose JavaScript heap is too small for the answer it builds: it dies (ERR_WORKER_OUT_OF_MEMORY).
    const client = new PgliteThreadClient({
      dataDir: 'memory://',
      startParams: PGLITE_START_PARAMS,
      template: pgliteTestTemplate(),
      onCrash: (error) => crashes.push(error),
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    await client.waitReady;
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const huge = client.query(`select repeat(g::text, 200) as filler from generate_series(1, 2000000) g`);
    await expect(huge).rejects.toThrow(/embedded database thread stopped/);
    await expect(client.query('select 1')).rejects.toThrow(/embedded database thread stopped/);
    expect(crashes).toHaveLength(1);
    await client.close();
  }, 120_000);
});
