import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import client from 'prom-client';
import type { QueueName } from '@portal/contracts';
import type { Database } from '@portal/db';
import type { JobCounts, JobHandler, JobHandlers } from '@portal/queue';

/** What a scrape waits at most for one source (Redis, the database) before leaving its series out. */
export const SCRAPE_SOURCE_TIMEOUT_MS = 3000;

/** The queue states a dashboard watches (completed grows for ever: BullMQ trims it, so it says little). */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const satisfies ReadonlyArray<keyof JobCounts>;

/** How a job run ended, as the job duration histogram labels it. */
export type JobRunOutcome = 'completed' | 'failed' | 'handed_back';

export interface QueueDepthSource {
  queues: readonly QueueName[];
  counts(queue: QueueName): Promise<JobCounts>;
}

export interface MetricsOptions {
  /** `api`, `worker-ledes`, …: the `service` label of every series of this process. */
  service: string;
  /** Waiting / active / delayed / failed per queue, read on each scrape (omitted when absent). */
  queueDepth?: QueueDepthSource;
  /** Runs per kind and state (and leased runs per kind), counted on each scrape from the run tables. */
  runsFrom?: Database;
  /**
   * `kind` label → run table: `RUN_TABLES` of `@portal/jobs`, derived from its run kinds, so a new
   * kind is counted with no edit here.
   */
  runTables?: Readonly<Record<string, string>>;
  /** Live socket.io connections on this node. */
  sockets?: () => number;
}

export interface PortalMetrics {
  registry: client.Registry;
  /** Seconds per HTTP request, by declared route pattern (never the raw URL), method and status. */
  httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  jobDuration: client.Histogram<'queue' | 'outcome'>;
  /** Seconds per statement of the embedded database's maintenance (decision 175), by table and action (analyze, vacuum, vacuum_cleanup). */
  dbMaintenance: client.Histogram<'table' | 'action'>;
  /** The Prometheus text of every series. */
  render(): Promise<string>;
  contentType: string;
}

function withinTimeout<T>(work: Promise<T>, ms = SCRAPE_SOURCE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One Prometheus registry per process (decision 130): the process' own series (Node defaults, HTTP,
 * jobs it ran) and the gauges computed on scrape from the shared truth (queue depths from the queue
 * driver, runs per state from the database, sockets of this node). A source that fails or hangs
 * leaves its series out of that scrape; the scrape itself always answers.
 */
export function createMetrics(options: MetricsOptions): PortalMetrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service: options.service });
  client.collectDefaultMetrics({ register: registry });

  const httpDuration = new client.Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'HTTP request duration by declared route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  const jobDuration = new client.Histogram({
    name: 'portal_job_duration_seconds',
    help: 'Job run duration by queue and outcome (completed, failed: an attempt that threw, handed_back: returned to waiting at shutdown)',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });

  const dbMaintenance = new client.Histogram({
    name: 'portal_db_maintenance_seconds',
    help: 'Embedded database maintenance: seconds per statement (the database is held meanwhile), by table and action',
    labelNames: ['table', 'action'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const depth = options.queueDepth;
  if (depth) {
    new client.Gauge({
      name: 'portal_queue_jobs',
      help: 'Jobs per queue and state, read from the queue driver on scrape',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const counted = await Promise.allSettled(depth.queues.map((queue) => withinTimeout(depth.counts(queue))));
        counted.forEach((result, i) => {
          if (result.status !== 'fulfilled') return;
          for (const state of QUEUE_STATES) this.set({ queue: depth.queues[i]!, state }, result.value[state]);
        });
      },
    });
  }

  const db = options.runsFrom;
  const runTables = options.runTables ?? {};
  if (db && Object.keys(runTables).length > 0) {
    new client.Gauge({
      name: 'portal_runs',
      help: 'Uploaded files per kind and state (in_progress, Done, Error), counted from the run tables on scrape',
      labelNames: ['kind', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const parts = Object.entries(runTables).map(([kind, table]) => sql`select ${kind}::text as kind, state, count(*)::int as n from ${sql.identifier(table)} group by state`);
        let rows: Array<{ kind: string; state: string; n: number }>;
        try {
          const result = await withinTimeout(db.execute(sql.join(parts, sql` union all `)));
          rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as typeof rows;
        } catch {
          return;
        }
        for (const row of rows) this.set({ kind: row.kind, state: row.state }, Number(row.n));
      },
    });
  }

  if (db && Object.keys(runTables).length > 0) {
    new client.Gauge({
      name: 'portal_runs_leased',
      help: 'In-progress runs per kind held under an unexpired lease (a worker processes them now), counted on scrape',
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const parts = Object.entries(runTables).map(
          ([kind, table]) => sql`select ${kind}::text as kind, count(*)::int as n from ${sql.identifier(table)} where state = 'in_progress' and lease_expires_at > now()`,
        );
        let rows: Array<{ kind: string; n: number }>;
        try {
          const result = await withinTimeout(db.execute(sql.join(parts, sql` union all `)));
          rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as typeof rows;
        } catch {
          return;
        }
        for (const row of rows) this.set({ kind: row.kind }, Number(row.n));
      },
    });
  }

  const sockets = options.sockets;
  if (sockets) {
    new client.Gauge({
      name: 'portal_socketio_connections',
      help: 'socket.io connections open on this node',
      registers: [registry],
      collect() {
        this.set(sockets());
      },
    });
  }

  return {
    registry,
    httpDuration,
    jobDuration,
    dbMaintenance,
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

/**
 * The handler with its runs timed: what both drivers execute (the inline driver in the embedded
 * API, BullMQ in a worker), so the job metrics count the same in either mode.
 */
export function instrumentJob<Q extends QueueName>(handler: JobHandler<Q>, metrics: Pick<PortalMetrics, 'jobDuration'>): JobHandler<Q> {
  const process: JobHandler<Q>['process'] = async (payload, ctx) => {
    const end = metrics.jobDuration.startTimer({ queue: handler.queue });
    try {
      await handler.process(payload, ctx);
      end({ outcome: 'completed' });
    } catch (error) {
      end({ outcome: ctx.signal.aborted ? 'handed_back' : 'failed' });
      throw error;
    }
  };
  return { ...handler, process };
}

/** Every handler of the map timed (the embedded mode's inline driver runs them all). */
export function instrumentJobs(handlers: JobHandlers, metrics: Pick<PortalMetrics, 'jobDuration'>): JobHandlers {
  const out: Record<string, JobHandler<QueueName>> = {};
  for (const [queue, handler] of Object.entries(handlers)) if (handler) out[queue] = instrumentJob(handler as JobHandler<QueueName>, metrics);
  return out;
}

/** Whether an `Authorization` header carries the metrics token (constant-time compare). */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
