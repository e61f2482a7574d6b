import { jobIdFor, type JobPayload, type QueueName } from '@portal/contracts';
import { Queue, UnrecoverableError, WaitingError, Worker, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { isFinalFailure, runFinalFailure } from './definition.ts';
import { QueueUnavailableError, UnrecoverableJobError } from './errors.ts';
import { parsePayload } from './payloads.ts';
import { DEFAULT_RETRY, retryDelay, type JobContext, type JobCounts, type JobHandler, type JobOutcome, type QueuePort, type RetryPolicy } from './types.ts';

export const DEFAULT_PREFIX = 'portal';
/** Our backoff type: the worker computes the delay from the queue's RetryPolicy and the error. */
const BACKOFF_TYPE = 'portal';
/** How often waitUntilFinished looks at the job state. */
const WAIT_POLL_MS = 100;

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Redis key prefix shared by producers and workers; default `portal`. */
  prefix?: string;
  /** The queues that have consumers (the job registry's); enqueue refuses the others. Default: all. */
  queues?: readonly QueueName[];
  /** Each queue's retry policy (from the job registry); default DEFAULT_RETRY. */
  retry?: Partial<Record<QueueName, RetryPolicy>>;
  /** How long the first enqueue waits for the initial connection before failing; default 2000 ms. */
  connectTimeoutMs?: number;
  onError?: (error: Error) => void;
  /**
   * Called each time the connection is ready again after an outage: what was accepted meanwhile
   * (rows committed while enqueue failed, jobs lost with Redis' data) can be enqueued at once.
   */
  onReconnect?: () => void;
}

/**
 * Producer side (the API). One ioredis connection with `enableOfflineQueue: false`: while Redis
 * is down, enqueue fails at once with QueueUnavailableError (→ 503) instead of buffering or hanging.
 */
export function createBullmqQueue(opts: BullmqQueueOptions): QueuePort {
  const onError = opts.onError ?? ((error) => console.error('[queue] redis error:', error.message));
  const connection = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  // A 'ready' after a loss (or after failed attempts before the first connection: Redis was down
  // when the process started) is a reconnection: what was refused meanwhile is enqueued at once.
  let lost = false;
  let connectedBefore = false;
  connection.on('error', (error: Error) => {
    lost = true;
    onError(error);
  });
  connection.on('ready', () => {
    if (connectedBefore || lost) opts.onReconnect?.();
    connectedBefore = true;
    lost = false;
  });
  const jobOptions = (name: QueueName): JobsOptions => ({
    attempts: (opts.retry?.[name] ?? DEFAULT_RETRY).attempts,
    backoff: { type: BACKOFF_TYPE },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 5000 }, // failed jobs are the dead-letter list: keep plenty for inspection
  });
  const queues = new Map<QueueName, Queue>();

  const queueFor = async (name: QueueName): Promise<Queue> => {
    await whenReady(connection, opts.connectTimeoutMs ?? 2000);
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix: opts.prefix ?? DEFAULT_PREFIX, defaultJobOptions: jobOptions(name) });
      queue.on('error', onError);
      queues.set(name, queue);
    }
    return queue;
  };

  return {
    driver: 'bullmq',

    async enqueue<Q extends QueueName>(name: Q, payload: JobPayload<Q>): Promise<void> {
      const valid = parsePayload(name, payload);
      if (opts.queues && !opts.queues.includes(name)) throw new Error(`No processor registered for queue "${name}"`);
      const queue = await queueFor(name);
      const jobId = jobIdFor(name, valid);
      try {
        // BullMQ ignores an add whose id exists, finished jobs included (kept as the dead-letter
        // list): a run whose earlier job failed would never run again. A finished job of that id is
        // removed first; a pending one (waiting, delayed, active) makes the add a no-op.
        const previous = await queue.getJob(jobId);
        if (previous && ((await previous.isFailed()) || (await previous.isCompleted()))) await previous.remove();
        await queue.add(name, valid, { jobId });
      } catch (error) {
        throw new QueueUnavailableError(undefined, { cause: error });
      }
    },

    /**
     * Polls the job state rather than listening to QueueEvents: a fresh QueueEvents reads the
     * stream from "now" once its first XREAD runs, so a job finishing just before that is missed
     * (seen under load). A few GETs per second for a handful of synchronous waits is cheap.
     */
    async waitUntilFinished<Q extends QueueName>(name: Q, payload: JobPayload<Q>, timeoutMs: number): Promise<JobOutcome> {
      const queue = await queueFor(name);
      const id = jobIdFor(name, parsePayload(name, payload));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = await queue.getJobState(id);
        if (state === 'completed' || state === 'failed' || state === 'unknown') return state;
        const left = deadline - Date.now();
        if (left <= 0) return 'timeout';
        await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, left)));
      }
    },

    async isQueued<Q extends QueueName>(name: Q, payload: JobPayload<Q>): Promise<boolean> {
      const queue = await queueFor(name);
      const state = await queue.getJobState(jobIdFor(name, parsePayload(name, payload)));
      return state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children';
    },

    async counts(name: QueueName): Promise<JobCounts> {
      return countsOf(await queueFor(name));
    },

    async close(): Promise<void> {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      queues.clear();
      connection.disconnect();
    },
  };
}

async function countsOf(queue: Queue): Promise<JobCounts> {
  const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
  return {
    waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0),
    active: c['active'] ?? 0,
    delayed: c['delayed'] ?? 0,
    failed: c['failed'] ?? 0,
    completed: c['completed'] ?? 0,
  };
}

export interface InspectedQueues {
  /** One BullMQ queue object per name, for reading (the queue dashboard, the metrics). */
  queues: ReadonlyMap<QueueName, Queue>;
  counts(name: QueueName): Promise<JobCounts>;
  /** Resolves when Redis answers on this connection (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Read access to the given queues on a connection of their own (the queue dashboard and the
 * depth metrics): a command fails after one retry while Redis is down instead of waiting, so a
 * scrape or a dashboard page never hangs on an outage.
 */
export function inspectQueues(opts: { redisUrl: string; prefix?: string; queues: readonly QueueName[]; onError?: (error: Error) => void }): InspectedQueues {
  const onError = opts.onError ?? (() => {});
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1 });
  connection.on('error', onError);
  const queues = new Map<QueueName, Queue>();
  for (const name of opts.queues) {
    const queue = new Queue(name, { connection, prefix: opts.prefix ?? DEFAULT_PREFIX });
    queue.on('error', onError);
    queues.set(name, queue);
  }
  return {
    queues,
    async counts(name) {
      const queue = queues.get(name);
      if (!queue) throw new Error(`queue ${name} is not inspected here`);
      return countsOf(queue);
    },
    async ping() {
      await connection.ping();
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}

/** Waits for the first connection only; once connected, an outage fails immediately. */
async function whenReady(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return;
  if (connection.status !== 'connecting' && connection.status !== 'wait' && connection.status !== 'connect') {
    throw new QueueUnavailableError(`Redis unavailable (status ${connection.status})`);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      connection.off('ready', onReady);
      reject(new QueueUnavailableError(`Redis not ready within ${timeoutMs} ms (status ${connection.status})`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    connection.once('ready', onReady);
  });
}

export interface BullmqWorkerOptions {
  redisUrl: string;
  prefix?: string;
  /** Lock lifetime (renewed at half); default BullMQ's 30 000 ms. */
  lockDuration?: number;
  /** How often stalled jobs are looked for; default BullMQ's 30 000 ms. */
  stalledInterval?: number;
  /** Stalls a job survives before failing; default BullMQ's 1. */
  maxStalledCount?: number;
  onError?: (error: Error) => void;
  /** Final-failure hook reports; default console.error. */
  report?: (message: string, error: unknown) => void;
}

export interface RunningWorker {
  worker: Worker;
  /**
   * Waits for active jobs; `force` abandons them. With `handBackAfterMs`, jobs still running then
   * are signalled (`ctx.signal`) and returned to waiting without spending an attempt, so a SIGTERM
   * on a long job ends within the grace period instead of being killed mid-job.
   */
  close(force?: boolean, handBackAfterMs?: number): Promise<void>;
}

/**
 * Consumer side (a worker process). Its connection uses `maxRetriesPerRequest: null` so the
 * blocking fetch loop survives Redis hiccups. Payloads are re-validated before the processor runs.
 */
export function startBullmqWorker<Q extends QueueName>(handler: JobHandler<Q>, opts: BullmqWorkerOptions): RunningWorker {
  return startWorker(handler, toBullmqProcessor(handler, opts.report), opts);
}

/**
 * Same, but jobs run in a child process (BullMQ sandbox), for CPU-heavy parsing that would
 * otherwise starve lock renewal. `sandboxFile` must `export default toBullmqProcessor(handler)`;
 * under `tsx` the child inherits the loader, so it may be a `.ts` file. The child cannot hand a job
 * back at shutdown.
 */
export function startSandboxedBullmqWorker<Q extends QueueName>(
  handler: JobHandler<Q>,
  sandboxFile: string | URL,
  opts: BullmqWorkerOptions & {
    /** Node flags for the child; default: this process's (so `--import tsx` carries over). */
    execArgv?: string[];
  },
): RunningWorker {
  return startWorker(handler, sandboxFile, opts, opts.execArgv ? { workerForkOptions: { execArgv: opts.execArgv } } : {});
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Adapts a handler to BullMQ: validation, context, the awaited final-failure hook (the job is
 * active and locked while it runs, so a crash meanwhile re-runs the job instead of losing the
 * hook), UnrecoverableJobError → UnrecoverableError, and the hand-back at shutdown.
 */
export function toBullmqProcessor<Q extends QueueName>(
  handler: JobHandler<Q>,
  report?: (message: string, error: unknown) => void,
): (job: Job, token?: string, signal?: AbortSignal) => Promise<void> {
  // Three declared parameters: BullMQ passes the abort signal only to processors that take it.
  return async (job, token, signal) => {
    const ctx: JobContext = {
      jobId: job.id ?? '',
      attempt: job.attemptsMade + 1,
      signal: signal ?? NEVER_ABORTED,
      updateProgress: (value) => job.updateProgress(value),
      log: (msg) => {
        job.log(msg).catch(() => {}); // a lost log line is not worth failing the job for
      },
    };
    let payload: JobPayload<Q> | undefined;
    try {
      payload = parsePayload(handler.queue, job.data);
      await handler.process(payload, ctx);
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      if (signal?.aborted && token && typeof job.moveToWait === 'function') {
        await job.moveToWait(token); // handed back: another worker (or this one, restarted) takes it
        throw new WaitingError();
      }
      if (payload && isFinalFailure(error, job.attemptsMade + 1, job.opts.attempts ?? 1)) {
        await runFinalFailure(handler, payload, { error, jobId: job.id ?? '', attemptsMade: job.attemptsMade + 1 }, report);
      }
      if (error instanceof UnrecoverableJobError) throw new UnrecoverableError(`${error.name}: ${error.message}`);
      throw error;
    }
  };
}

function startWorker<Q extends QueueName>(
  handler: JobHandler<Q>,
  processor: ((job: Job, token?: string, signal?: AbortSignal) => Promise<void>) | string | URL,
  opts: BullmqWorkerOptions,
  extra: Partial<WorkerOptions> = {},
): RunningWorker {
  const queue = handler.queue;
  const onError = opts.onError ?? ((error) => console.error(`[queue:${queue}] worker error:`, error.message));
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', onError);
  const worker = new Worker(queue, processor, {
    connection,
    prefix: opts.prefix ?? DEFAULT_PREFIX,
    concurrency: handler.concurrency,
    // The delay before a retry depends on the error: infrastructure faults wait longer.
    settings: { backoffStrategy: (attemptsMade, _type, error) => retryDelay(handler.retry, attemptsMade, error) },
    ...(opts.lockDuration !== undefined && { lockDuration: opts.lockDuration }),
    ...(opts.stalledInterval !== undefined && { stalledInterval: opts.stalledInterval }),
    ...(opts.maxStalledCount !== undefined && { maxStalledCount: opts.maxStalledCount }),
    ...extra,
  });
  worker.on('error', onError);
  return {
    worker,
    async close(force = false, handBackAfterMs?: number) {
      const handBack = handBackAfterMs === undefined ? undefined : setTimeout(() => worker.cancelAllJobs('shutdown'), handBackAfterMs);
      try {
        await worker.close(force);
      } finally {
        clearTimeout(handBack);
        connection.disconnect();
      }
    },
  };
}
