import { sql } from 'drizzle-orm';
import { PgDialect, getTableConfig, integer, pgTable, text, uuid, type PgTable } from 'drizzle-orm/pg-core';
import { runColumns, type Database } from '@portal/db';
import { defineRunKind, leaseOf, type RunPorts } from '../src/index.ts';

/**
 * A fifth run kind that exists only here: its table (the shared columns of `runColumns()` plus its
 * own result column), its definition and a trivial processor. Nothing else in the code base knows it;
 * `run-kinds.test.ts` shows it gets the lifecycle, sweep, events, metrics and lease from this file.
 */
export const fixtureRuns = pgTable('fixture_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull(),
  steps: integer('steps').notNull().default(3),
  stepsDone: integer('steps_done').notNull().default(0),
  result: text('result'),
  ...runColumns(),
});

export type FixtureRow = typeof fixtureRuns.$inferSelect;

export const fixtureRunKind = defineRunKind({
  kind: 'fixture',
  // Not a queue of the registry: the test drives the wrapped processor and a recording queue.
  queue: 'fixture',
  table: fixtureRuns,
  tableName: 'fixture_runs',
  idOf: (payload) => payload.fixtureId!,
  payloadOf: (fixtureId) => ({ fixtureId }),
  timeoutMs: 60_000,
  errorCodes: { failed: 'processing_failed', interrupted: 'interrupted' },
  toDto: (row: FixtureRow) => ({ _id: row.id, state: row.state, error_code: row.errorCode, steps_done: row.stepsDone, steps: row.steps, result: row.result }),
  event: 'fixture:run',
  ownerOf: (row) => row.ownerId,
  progressToAdmins: false,
  // The processor: counts its steps (each one a progress touch and event), then Done with its result.
  processor: (ports: RunPorts) => async (payload, ctx) => {
    const id = (payload as unknown as { fixtureId: string }).fixtureId;
    const lease = leaseOf(ctx)!;
    const row = await fixtureRunKind.load(ports.db, id);
    for (let step = 1; step <= row!.steps; step++) {
      ctx.signal.throwIfAborted();
      const progressed = await fixtureRunKind.renew(ports.db, id, lease.holder, new Date(), { stepsDone: step, updatedAt: new Date() });
      if (progressed) fixtureRunKind.publish(ports.realtime, progressed);
    }
    const done = await fixtureRunKind.done(ports.db, id, lease.holder, new Date(), { result: `${row!.steps} steps` });
    if (done) fixtureRunKind.publish(ports.realtime, done, { transition: true });
  },
});

/** Creates the fixture's table from its drizzle definition (the shared columns included): no migration. */
export async function createFixtureTable(db: Database, table: PgTable = fixtureRuns): Promise<void> {
  const dialect = new PgDialect();
  const config = getTableConfig(table);
  const columns = config.columns.map((column) => {
    let ddl = `"${column.name}" ${column.getSQLType()}`;
    if (column.primary) ddl += ' primary key';
    if (column.notNull && !column.primary) ddl += ' not null';
    if (column.hasDefault && column.default !== undefined) {
      const value = column.default;
      if (typeof value === 'object' && value !== null && 'queryChunks' in value) ddl += ` default ${dialect.sqlToQuery(value as never).sql}`;
      else if (typeof value === 'number') ddl += ` default ${value}`;
      else ddl += ` default '${String(value).replaceAll("'", "''")}'`;
    }
    return ddl;
  });
  await db.execute(sql.raw(`create table if not exists "${config.name}" (${columns.join(', ')})`));
}

/** One in-progress fixture run. */
export async function seedFixtureRun(db: Database, ownerId: string): Promise<string> {
  const [row] = await db.insert(fixtureRuns).values({ ownerId }).returning();
  return row!.id;
}
