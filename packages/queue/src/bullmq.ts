import { jobIdFor, type JobPayload, type QueueName } from '@portal/contracts';
import { Queue, UnrecoverableError, Worker, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueUnavailableError, UnrecoverableJobError } from './errors.ts';
import { parsePayload } from './payloads.ts';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  reportFailure,
  type JobContext,
  type JobCounts,
  type JobOutcome,
  type OnFailed,
  type Processor,
  type QueuePort,
} from './types.ts';

export const DEFAULT_PREFIX = 'portal';
/** How often waitUntilFinished looks at the job state. */
const WAIT_POLL_MS = 100;

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Redis key prefix shared by producers and workers; default `portal`. */
  prefix?: string;
  attempts?: number;
  backoffMs?: number;
  /** How long the first enqueue waits for the initial connection before failing; default 2000 ms. */
  connectTimeoutMs?: number;
  onError?: (error: Error) => void;
}

/**
 * Producer side (the API). One ioredis connection with `enableOfflineQueue: false`: while Redis
 * is down, enqueue fails at once with QueueUnavailableError (→ 503) instead of buffering or hanging.
 */
export function createBullmqQueue(opts: BullmqQueueOptions): QueuePort {
  const onError = opts.onError ?? ((error) => console.error('[queue] redis error:', error.message));
  const connection = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  connection.on('error', onError);
  const defaultJobOptions: JobsOptions = {
    attempts: opts.attempts ?? DEFAULT_ATTEMPTS,
    backoff: { type: 'exponential', delay: opts.backoffMs ?? DEFAULT_BACKOFF_MS },
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 5000 }, // failed jobs are the dead-letter list: keep plenty for inspection
  };
  const queues = new Map<QueueName, Queue>();

  const queueFor = async (name: QueueName): Promise<Queue> => {
    await whenReady(connection, opts.connectTimeoutMs ?? 2000);
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix: opts.prefix ?? DEFAULT_PREFIX, defaultJobOptions });
      queue.on('error', onError);
      queues.set(name, queue);
    }
    return queue;
  };

  return {
    driver: 'bullmq',

    async enqueue<Q extends QueueName>(name: Q, payload: JobPayload<Q>): Promise<void> {
      const valid = parsePayload(name, payload);
      const queue = await queueFor(name);
      try {
        // Same job id while the job exists (waiting, active, delayed, or kept completed/failed) → no-op.
        await queue.add(name, valid, { jobId: jobIdFor(name, valid) });
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

    async counts(name: QueueName): Promise<JobCounts> {
      const queue = await queueFor(name);
      const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed', 'completed');
      return {
        waiting: (c['waiting'] ?? 0) + (c['prioritized'] ?? 0),
        active: c['active'] ?? 0,
        delayed: c['delayed'] ?? 0,
        failed: c['failed'] ?? 0,
        completed: c['completed'] ?? 0,
      };
    },

    async close(): Promise<void> {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      queues.clear();
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
  /** Jobs processed at once by this worker; default 1. */
  concurrency?: number;
  /** Lock lifetime (renewed at half); default BullMQ's 30 000 ms. */
  lockDuration?: number;
  /** How often stalled jobs are looked for; default BullMQ's 30 000 ms. */
  stalledInterval?: number;
  /** Stalls a job survives before failing; default BullMQ's 1. */
  maxStalledCount?: number;
  onFailed?: OnFailed;
  onError?: (error: Error) => void;
}

export interface RunningWorker {
  worker: Worker;
  /** Waits for active jobs (no timeout of its own: wrap with closeGracefully); `force` abandons them. */
  close(force?: boolean): Promise<void>;
}

/**
 * Consumer side (a worker process). Its connection uses `maxRetriesPerRequest: null` so the
 * blocking fetch loop survives Redis hiccups. Payloads are re-validated before the processor runs.
 */
export function startBullmqWorker<Q extends QueueName>(queue: Q, processor: Processor<Q>, opts: BullmqWorkerOptions): RunningWorker {
  return startWorker(queue, toBullmqProcessor(queue, processor), opts);
}

/**
 * Same, but jobs run in a child process (BullMQ sandbox), for CPU-heavy parsing that would
 * otherwise starve lock renewal. `sandboxFile` must `export default toBullmqProcessor(queue, fn)`;
 * under `tsx` the child inherits the loader, so it may be a `.ts` file.
 */
export function startSandboxedBullmqWorker<Q extends QueueName>(
  queue: Q,
  sandboxFile: string | URL,
  opts: BullmqWorkerOptions & {
    /** Node flags for the child; default: this process's (so `--import tsx` carries over). */
    execArgv?: string[];
  },
): RunningWorker {
  return startWorker(queue, sandboxFile, opts, opts.execArgv ? { workerForkOptions: { execArgv: opts.execArgv } } : {});
}

/** Adapts a portable Processor to BullMQ: validation, context, UnrecoverableJobError → UnrecoverableError. */
export function toBullmqProcessor<Q extends QueueName>(queue: Q, processor: Processor<Q>): (job: Job) => Promise<void> {
  return async (job) => {
    const ctx: JobContext = {
      jobId: job.id ?? '',
      attempt: job.attemptsMade + 1,
      updateProgress: (value) => job.updateProgress(value),
      log: (msg) => void job.log(msg).catch(() => {}),
    };
    try {
      await processor(parsePayload(queue, job.data), ctx);
    } catch (error) {
      if (error instanceof UnrecoverableJobError) {
        throw new UnrecoverableError(`${error.name}: ${error.message}`);
      }
      throw error;
    }
  };
}

function startWorker<Q extends QueueName>(
  queue: Q,
  processor: ((job: Job) => Promise<void>) | string | URL,
  opts: BullmqWorkerOptions,
  extra: Partial<WorkerOptions> = {},
): RunningWorker {
  const onError = opts.onError ?? ((error) => console.error(`[queue:${queue}] worker error:`, error.message));
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', onError);
  const worker = new Worker(queue, processor, {
    connection,
    prefix: opts.prefix ?? DEFAULT_PREFIX,
    concurrency: opts.concurrency ?? 1,
    ...(opts.lockDuration !== undefined && { lockDuration: opts.lockDuration }),
    ...(opts.stalledInterval !== undefined && { stalledInterval: opts.stalledInterval }),
    ...(opts.maxStalledCount !== undefined && { maxStalledCount: opts.maxStalledCount }),
    ...extra,
  });
  worker.on('error', onError);
  worker.on('failed', (job, error) => {
    if (!job || !opts.onFailed) return;
    // Report only the final failure: attempts exhausted, unrecoverable, or stalled too often.
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1) || job.finishedOn !== undefined;
    if (final) reportFailure(opts.onFailed, queue, job.data as JobPayload<Q>, error, { jobId: job.id ?? '', attemptsMade: job.attemptsMade });
  });
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      connection.disconnect();
    },
  };
}
