import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { JobPayload, QueueName } from '@portal/contracts';
import type { Database, Executor, RunState } from '@portal/db';
import type { Logger } from '@portal/logger';
import { UnrecoverableJobError, type JobContext, type Processor } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';

/**
 * How long a lease on a run holds without renewal (decision 160). Shorter than the smallest BullMQ
 * lock duration in use (6 s in the fault tests, 30 s by default), so a dead worker's run is free by
 * the time BullMQ hands its stalled job to another worker.
 */
export const RUN_LEASE_MS = 5_000;
/** The holder renews its lease this often (five renewals per lease: a late one or two do not lose it). */
export const RUN_LEASE_RENEW_MS = 1_000;

/** The columns `runColumns()` (`@portal/db`) spreads into a run table, as the run kind reads them. */
export interface RunColumns {
  id: PgColumn;
  state: PgColumn;
  errorCode: PgColumn;
  attempts: PgColumn;
  createdAt: PgColumn;
  startedAt: PgColumn;
  finishedAt: PgColumn;
  updatedAt: PgColumn;
  leaseHolder: PgColumn;
  leaseExpiresAt: PgColumn;
}
export type RunTable = PgTable & RunColumns;

/** What every run row has (the shared columns). */
export interface RunRow {
  id: string;
  state: RunState;
  errorCode: string | null;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  updatedAt: Date;
  leaseHolder: string | null;
  leaseExpiresAt: Date | null;
}

export interface RunPorts {
  db: Database;
  realtime: RealtimePublisher;
  logger: Logger;
  clock?: { now(): Date };
}

/** A lease held by one execution of a run's job: it renews it, and loses it only to a takeover. */
export interface RunLease {
  holder: string;
  /** Aborted when another execution took the run over (this one's lease expired unrenewed). */
  lost: AbortSignal;
}

export interface RunKindDefinition<Q extends string, Row extends RunRow, Ports extends RunPorts, Dto> {
  /** The `kind` label of the metrics, and the name in logs. */
  kind: string;
  queue: Q;
  /** A table with `runColumns()` spread in; the row type is inferred from it. */
  table: RunTable & { $inferSelect: Row };
  /** The table's SQL name (the metrics count it). */
  tableName: string;
  idOf(payload: Payload<Q>): string;
  payloadOf(id: string): Payload<Q>;
  /** Silence (no `updated_at` touch) past this closes a started run as `interrupted`. */
  timeoutMs: number;
  errorCodes: { failed: string; interrupted: string };
  /** The wire shape of the event (and of the REST answer, which the kind may extend). */
  toDto(row: Row): Dto;
  /** The realtime event name (`ledes:run`, `annuities:file:updated`…). */
  event: string;
  /** Whose room the run's events go to (null: the admins' only). */
  ownerOf(row: Row): string | null;
  /** Progress events go to the admins too (a transition always does). */
  progressToAdmins: boolean;
  /** Extra rows the sweep enqueues again (e.g. a Done run whose delivery was not made), given the cutoff of "not started". */
  alsoEnqueueWhen?: (olderThan: Date) => SQL | undefined;
  /** Run in the transaction that moves a run to Error (e.g. the partial rows of the attempt go). */
  inErrorTransaction?: (tx: Executor, row: Row) => Promise<void>;
  /** After a run moved to Error and was published (e.g. objects an attempt stored are deleted). */
  afterError?: (ports: Ports, row: Row) => Promise<void>;
  /** Its processor (or given to `process` by its job definition): called with the lease held on an in_progress row (and on a finished one when `handlesFinished`). */
  processor?(ports: Ports): Processor<Q & QueueName>;
  /** The processor also has work for a Done/Error row (LEDES re-delivery, annuities' stale export); otherwise such a job is a no-op. */
  handlesFinished?: boolean;
  /**
   * Finished rows whose work goes on under the lease (a Done LEDES run whose treated workbook is not
   * recorded yet, decision 182): the holder keeps renewing it past the commit, a job for such a row
   * claims it as it claims an in_progress one (or waits out a live holder and ends), and the sweep
   * enqueues it again only once its lease expired. The processor ends that phase by clearing the lease.
   */
  leasedWhenFinished?: () => SQL;
}

type Payload<Q extends string> = Q extends QueueName ? JobPayload<Q> : Record<string, string>;

export interface RunKind<Q extends string = string, Row extends RunRow = RunRow, Ports extends RunPorts = RunPorts, Dto = unknown> extends RunKindDefinition<Q, Row, Ports, Dto> {
  load(db: Executor, id: string): Promise<Row | undefined>;
  /** Publishes the row to its owner's room, and to the admins' on a transition (or always, per kind). */
  publish(realtime: RealtimePublisher, row: Row, options?: { transition?: boolean }): void;
  /** Claims an in_progress run for `holder`: none holds an unexpired lease on it. Returns the row, or undefined. */
  claim(db: Executor, id: string, holder: string, now: Date, set?: Record<string, unknown>): Promise<Row | undefined>;
  /** Extends the holder's lease (and applies `set`, e.g. progress); undefined when the holder lost it or the run finished (past its `leasedWhenFinished` phase). */
  renew(db: Executor, id: string, holder: string, now: Date, set?: Record<string, unknown>): Promise<Row | undefined>;
  /** Moves an in_progress run to Done (with its result columns) if `holder` still holds it, clearing the lease. */
  done(db: Executor, id: string, holder: string | null, now: Date, set: Record<string, unknown>): Promise<Row | undefined>;
  /** Moves an in_progress run to Error with `errorCode` (final failure, refusal), publishes it; a Done/Error row is left alone. */
  fail(ports: Ports, id: string, errorCode: string): Promise<Row | undefined>;
  /** Closes as `interrupted` the started runs silent past the timeout, not leased, whose job does not wait its turn. */
  closeSilent(ports: Pick<RunPorts, 'db' | 'realtime'>, isQueued: (id: string) => Promise<boolean>, now: Date, timeoutMs?: number): Promise<number>;
  /** The ids the sweep enqueues again: not started or silent (and not leased), or the kind's extra predicate (and not leased). */
  toEnqueue(db: Executor, notStartedBefore: Date, silentBefore: Date, now: Date, limit: number): Promise<string[]>;
  /** The processor wrapped in the lease: what the queue runs. `processor` replaces the kind's own (the fault contract's tests). */
  process(ports: Ports, processor?: Processor<Q & QueueName>): Processor<Q & QueueName>;
  /** The final-failure hook of the queue: the run ends Error (`failed`) unless already finished. */
  onFinalFailure(ports: Ports): (payload: Payload<Q>, failure: { error: Error; attemptsMade: number }) => Promise<void>;
}

/** Not held: no lease, or one that expired. */
export function notLeased(table: RunTable, now: Date): SQL {
  return or(isNull(table.leaseHolder), isNull(table.leaseExpiresAt), lte(table.leaseExpiresAt, now))!;
}

const leaseUntil = (now: Date) => new Date(now.getTime() + RUN_LEASE_MS);
/** A job waiting out another execution's lease looks at the row this often. */
const LEASE_POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One kind of background run (decision 159): from its table (the shared columns of `runColumns()`),
 * queue, payload id, DTO and event, it gets the transitions with their guards, the lease (decision
 * 160), final failure, the silent close and the sweep's part. The kind keeps its processor and its
 * result columns.
 */
export function defineRunKind<Q extends string, Row extends RunRow, Ports extends RunPorts, Dto>(definition: RunKindDefinition<Q, Row, Ports, Dto>): RunKind<Q, Row, Ports, Dto> {
  const t: RunTable = definition.table;
  // Drizzle's builders are typed per table; the shared columns are the same on every run table.
  const update = (db: Executor) => (db as Database).update(t as never) as unknown as { set(values: Record<string, unknown>): { where(where: SQL | undefined): { returning(): Promise<Row[]> } } };

  /** Rows a lease applies to: in_progress ones, and the finished ones the kind still works on under it. */
  const leasable = (): SQL => {
    const finished = definition.leasedWhenFinished?.();
    return finished ? or(eq(t.state, 'in_progress'), finished)! : eq(t.state, 'in_progress');
  };
  /** The lease of a leasable row (undefined: no such row, or nothing to lease on it any more). */
  const leaseState = async (db: Executor, id: string): Promise<Pick<Row, 'state' | 'leaseHolder' | 'leaseExpiresAt'> | undefined> => {
    const [row] = (await (db as Database)
      .select({ state: t.state, leaseHolder: t.leaseHolder, leaseExpiresAt: t.leaseExpiresAt })
      .from(t as never)
      .where(and(eq(t.id, id), leasable()))) as Array<Pick<Row, 'state' | 'leaseHolder' | 'leaseExpiresAt'>>;
    return row;
  };

  const kind: RunKind<Q, Row, Ports, Dto> = {
    ...definition,

    async load(db, id) {
      const [row] = (await (db as Database).select().from(t as never).where(eq(t.id, id))) as Row[];
      return row;
    },

    publish(realtime, row, options = {}) {
      const dto = definition.toDto(row);
      const owner = definition.ownerOf(row);
      const loose = realtime as unknown as { toUser(user: string, event: string, dto: unknown): void; toAdmins(event: string, dto: unknown): void };
      if (owner) loose.toUser(owner, definition.event, dto);
      if (options.transition || definition.progressToAdmins) loose.toAdmins(definition.event, dto);
    },

    async claim(db, id, holder, now, set = {}) {
      const [row] = await update(db)
        .set({ startedAt: now, attempts: sql`${t.attempts} + 1`, updatedAt: now, ...set, leaseHolder: holder, leaseExpiresAt: leaseUntil(now) })
        .where(and(eq(t.id, id), eq(t.state, 'in_progress'), or(notLeased(t, now), eq(t.leaseHolder, holder))))
        .returning();
      return row;
    },

    async renew(db, id, holder, now, set = {}) {
      const [row] = await update(db)
        .set({ ...set, leaseExpiresAt: leaseUntil(now) })
        .where(and(eq(t.id, id), leasable(), eq(t.leaseHolder, holder)))
        .returning();
      return row;
    },

    async done(db, id, holder, now, set) {
      const [row] = await update(db)
        .set({ ...set, state: 'Done', finishedAt: now, updatedAt: now, leaseHolder: null, leaseExpiresAt: null })
        .where(and(eq(t.id, id), eq(t.state, 'in_progress'), holder === null ? undefined : or(eq(t.leaseHolder, holder), isNull(t.leaseHolder))))
        .returning();
      return row;
    },

    async fail(ports, id, errorCode) {
      const now = ports.clock?.now() ?? new Date();
      const failed = await ports.db.transaction(async (tx) => {
        const [row] = await update(tx)
          .set({ state: 'Error', errorCode, finishedAt: now, updatedAt: now, leaseHolder: null, leaseExpiresAt: null })
          .where(and(eq(t.id, id), eq(t.state, 'in_progress')))
          .returning();
        if (row && definition.inErrorTransaction) await definition.inErrorTransaction(tx, row);
        return row;
      });
      if (!failed) return undefined;
      kind.publish(ports.realtime, failed, { transition: true });
      if (definition.afterError) await definition.afterError(ports, failed);
      return failed;
    },

    async closeSilent(ports, isQueued, now, timeoutMs = definition.timeoutMs) {
      const cutoff = new Date(now.getTime() - timeoutMs);
      const silent = (await ports.db
        .select({ id: t.id })
        .from(t as never)
        .where(and(eq(t.state, 'in_progress'), isNotNull(t.startedAt), lt(t.updatedAt, cutoff), notLeased(t, now)))
        .limit(500)) as Array<{ id: string }>;
      const abandoned: string[] = [];
      for (const { id } of silent) if (!(await isQueued(id))) abandoned.push(id);
      if (abandoned.length === 0) return 0;
      const closed = await update(ports.db)
        .set({ state: 'Error', errorCode: definition.errorCodes.interrupted, finishedAt: now, updatedAt: now, leaseHolder: null, leaseExpiresAt: null })
        // Re-checked in the statement: a run that finished, beat or was claimed since the select is left alone.
        .where(and(inArray(t.id, abandoned), eq(t.state, 'in_progress'), lt(t.updatedAt, cutoff), notLeased(t, now)))
        .returning();
      for (const row of closed) kind.publish(ports.realtime, row, { transition: true });
      return closed.length;
    },

    async toEnqueue(db, notStartedBefore, silentBefore, now, limit) {
      const waiting = and(
        eq(t.state, 'in_progress'),
        notLeased(t, now),
        or(and(isNull(t.startedAt), lt(t.createdAt, notStartedBefore)), lt(t.updatedAt, silentBefore)),
      );
      // A finished row's extra work is left to a live holder too (decision 182: a second execution wrote a
      // Done run's workbook beside the one still writing it).
      const extra = definition.alsoEnqueueWhen?.(notStartedBefore);
      const rows = (await (db as Database)
        .select({ id: t.id })
        .from(t as never)
        .where(extra ? or(waiting, and(extra, notLeased(t, now))) : waiting)
        .limit(limit)) as Array<{ id: string }>;
      return rows.map((r) => r.id);
    },

    process(ports, processor = definition.processor?.(ports)) {
      if (!processor) throw new Error(`run kind ${definition.kind} has no processor`);
      const now = () => ports.clock?.now() ?? new Date();
      return async (payload, ctx) => {
        const id = definition.idOf(payload as Payload<Q>);
        const row = await kind.load(ports.db, id);
        if (!row) throw new UnrecoverableJobError(`${definition.kind} run ${id} does not exist`);
        if (row.state !== 'in_progress' && (!definition.handlesFinished || !definition.leasedWhenFinished)) {
          // A late job of a finished run: a no-op, unless the kind has work left for finished runs.
          if (definition.handlesFinished) await processor(payload, ctx);
          return;
        }
        const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
        let claim = await claimLease(id, holder);
        if (claim.held) {
          // Another execution holds the run. Wait out the lease seen now, once: a dead holder's lease
          // expires unrenewed (takeover); a live holder renews it (or ends its leased work), and this job
          // then ends without touching the run.
          const deadline = Date.now() + Math.min(RUN_LEASE_MS, Math.max(0, (claim.held.leaseExpiresAt?.getTime() ?? 0) - now().getTime())) + 100;
          while (claim.held && Date.now() < deadline) {
            await sleep(Math.min(LEASE_POLL_MS, Math.max(1, deadline - Date.now())));
            claim = await claimLease(id, holder);
          }
          if (claim.held) {
            ports.logger.info({ event: 'run_leased_elsewhere', kind: definition.kind, runId: id, jobId: ctx.jobId }, 'run held by another execution; this job ends without touching it');
            return;
          }
        }
        if (!claim.claimed) {
          // Nothing to lease: the run finished (and its leased work, if any, is done).
          const current = await kind.load(ports.db, id);
          if (!current) throw new UnrecoverableJobError(`${definition.kind} run ${id} does not exist`);
          if (current.state !== 'in_progress' && definition.handlesFinished) await processor(payload, ctx);
          return;
        }
        const lost = new AbortController();
        let renewing: Promise<unknown> = Promise.resolve();
        const timer = setInterval(() => {
          renewing = renewing.then(async () => {
            const renewed = await kind.renew(ports.db, id, holder, now());
            if (renewed) return;
            // Not renewed: the run left its leased phases (this execution ended them), or another took it over.
            const current = await leaseState(ports.db, id);
            if (current && current.leaseHolder !== holder) lost.abort(new Error(`${definition.kind} run ${id} taken over by another execution`));
          }).catch((error: unknown) => ports.logger.warn({ err: error, kind: definition.kind, runId: id }, 'run lease renewal failed'));
        }, RUN_LEASE_RENEW_MS);
        const leased: JobContext & { lease: RunLease } = { ...ctx, signal: AbortSignal.any([ctx.signal, lost.signal]), lease: { holder, lost: lost.signal } };
        try {
          await processor(payload, leased);
        } catch (error) {
          // Taken over: the other execution finishes the run; this job's end must not fail it.
          if (lost.signal.aborted && !ctx.signal.aborted) {
            ports.logger.warn({ kind: definition.kind, runId: id, jobId: ctx.jobId }, 'run taken over by another execution; this one stops');
            return;
          }
          throw error;
        } finally {
          clearInterval(timer);
          await renewing;
          // Released whatever the outcome: a retry (a new holder) claims at once instead of waiting the lease out.
          await update(ports.db)
            .set({ leaseHolder: null, leaseExpiresAt: null })
            .where(and(eq(t.id, id), eq(t.leaseHolder, holder)))
            .returning()
            .catch((error: unknown) => ports.logger.warn({ err: error, kind: definition.kind, runId: id }, 'run lease release failed; it expires'));
        }
      };

      /** Claims the lease of a leasable row: claimed, or held by another execution, or neither (nothing to lease). */
      async function claimLease(id: string, holder: string): Promise<{ claimed: boolean; held?: Pick<Row, 'leaseExpiresAt'> }> {
        const [row] = await update(ports.db)
          .set({ leaseHolder: holder, leaseExpiresAt: leaseUntil(now()) })
          .where(and(eq(t.id, id), leasable(), notLeased(t, now())))
          .returning();
        if (row) return { claimed: true };
        const current = await leaseState(ports.db, id);
        return { claimed: false, held: current ?? undefined };
      }
    },

    onFinalFailure(ports) {
      return async (payload, { error, attemptsMade }) => {
        const id = definition.idOf(payload);
        ports.logger.error({ err: error, kind: definition.kind, runId: id, attemptsMade }, `${definition.kind} job failed for good`);
        await kind.fail(ports, id, definition.errorCodes.failed);
      };
    },
  };
  return kind;
}

/** The lease of the execution running this job (set by the run kind's wrapper), if any. */
export function leaseOf(ctx: JobContext): RunLease | undefined {
  return (ctx as JobContext & { lease?: RunLease }).lease;
}
