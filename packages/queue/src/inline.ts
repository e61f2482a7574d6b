import { jobIdFor, type JobPayload, type QueueName } from '@portal/contracts';
import { UnrecoverableJobError } from './errors.ts';
import { parsePayload } from './payloads.ts';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  backoffDelay,
  reportFailure,
  type JobContext,
  type JobCounts,
  type JobOutcome,
  type OnFailed,
  type Processor,
  type ProcessorMap,
  type QueuePort,
} from './types.ts';

export interface InlineQueueOptions {
  attempts?: number;
  backoffMs?: number;
  /** Jobs run at once per queue; default 1 (as a BullMQ worker). */
  concurrency?: Partial<Record<QueueName, number>>;
  onFailed?: OnFailed;
  /** Receives `ctx.log` lines; default: dropped. */
  log?: (queue: QueueName, jobId: string, msg: string) => void;
}

export type InlineQueue = QueuePort & {
  /** Resolves once no job is waiting, running or waiting for a retry (tests, shutdown). */
  drain(): Promise<void>;
};

interface PendingJob {
  queue: QueueName;
  id: string;
  payload: unknown;
  attemptsMade: number;
}

interface Lane {
  waiting: PendingJob[];
  active: number;
  delayed: Map<string, NodeJS.Timeout>;
  completed: number;
  failed: number;
}

/**
 * Embedded-mode driver: runs the same processors in this process with BullMQ's semantics —
 * asynchronous (never inside the caller's stack), `attempts` with exponential backoff,
 * UnrecoverableJobError failing at once, payload re-validated before each run, and dedup by job id
 * while the job is pending. Nothing survives a restart: the DB rows and the sweeper are the truth.
 */
export function createInlineQueue(processors: ProcessorMap, opts: InlineQueueOptions = {}): InlineQueue {
  const attempts = opts.attempts ?? DEFAULT_ATTEMPTS;
  const backoffMs = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
  const lanes = new Map<QueueName, Lane>();
  /** Job ids waiting, running or between attempts. */
  const pending = new Set<string>();
  /** Resolvers of waitUntilFinished, by job id. */
  const finishWaiters = new Map<string, Array<(outcome: JobOutcome) => void>>();
  let idleWaiters: Array<() => void> = [];
  let closed = false;

  const lane = (queue: QueueName): Lane => {
    let found = lanes.get(queue);
    if (!found) {
      found = { waiting: [], active: 0, delayed: new Map(), completed: 0, failed: 0 };
      lanes.set(queue, found);
    }
    return found;
  };

  const processorFor = (queue: QueueName): Processor<QueueName> => {
    const processor = processors[queue];
    if (!processor) throw new Error(`No processor registered for queue "${queue}"`);
    return processor;
  };

  const finish = (id: string, outcome: JobOutcome) => {
    pending.delete(id);
    const waiters = finishWaiters.get(id) ?? [];
    finishWaiters.delete(id);
    for (const resolve of waiters) resolve(outcome);
  };

  const notifyIfIdle = () => {
    if (pending.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = (queue: QueueName) => {
    const current = lane(queue);
    const limit = opts.concurrency?.[queue] ?? 1;
    while (!closed && current.active < limit && current.waiting.length > 0) {
      const job = current.waiting.shift()!;
      current.active += 1;
      run(job)
        .finally(() => {
          current.active -= 1;
          pump(queue);
          notifyIfIdle();
        })
        // run() settles every processor error itself; only a bug in the bookkeeping can land here.
        .catch((error: unknown) => console.error('[queue] inline driver failed:', error));
    }
  };

  const run = async (job: PendingJob): Promise<void> => {
    const current = lane(job.queue);
    job.attemptsMade += 1;
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attemptsMade,
      updateProgress: async () => {},
      log: (msg) => opts.log?.(job.queue, job.id, msg),
    };
    try {
      const payload = parsePayload(job.queue, job.payload);
      await processorFor(job.queue)(payload, ctx);
      current.completed += 1;
      finish(job.id, 'completed');
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      const final = error instanceof UnrecoverableJobError || job.attemptsMade >= attempts;
      if (!final && closed) {
        finish(job.id, 'unknown'); // shutting down: the retry is dropped, the DB sweeper re-enqueues it
        return;
      }
      if (final) {
        current.failed += 1;
        finish(job.id, 'failed');
        reportFailure(opts.onFailed, job.queue, job.payload as JobPayload<QueueName>, error, { jobId: job.id, attemptsMade: job.attemptsMade });
        return;
      }
      const timer = setTimeout(() => {
        current.delayed.delete(job.id);
        current.waiting.push(job);
        pump(job.queue);
      }, backoffDelay(backoffMs, job.attemptsMade));
      current.delayed.set(job.id, timer);
    }
  };

  return {
    driver: 'inline',

    async enqueue<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<void> {
      if (closed) throw new Error('Queue is closed');
      const valid = parsePayload(queue, payload);
      processorFor(queue); // fail at enqueue, not silently later
      const id = jobIdFor(queue, valid);
      if (pending.has(id)) return;
      pending.add(id);
      lane(queue).waiting.push({ queue, id, payload: valid, attemptsMade: 0 });
      setImmediate(() => pump(queue)); // never run inside the caller's stack (or its transaction)
    },

    waitUntilFinished<Q extends QueueName>(queue: Q, payload: JobPayload<Q>, timeoutMs: number): Promise<JobOutcome> {
      const id = jobIdFor(queue, parsePayload(queue, payload));
      if (!pending.has(id)) return Promise.resolve('unknown');
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          finishWaiters.set(id, (finishWaiters.get(id) ?? []).filter((waiter) => waiter !== onFinish));
          resolve('timeout');
        }, timeoutMs);
        const onFinish = (outcome: JobOutcome) => {
          clearTimeout(timer);
          resolve(outcome);
        };
        finishWaiters.set(id, [...(finishWaiters.get(id) ?? []), onFinish]);
      });
    },

    async counts(queue: QueueName): Promise<JobCounts> {
      const { waiting, active, delayed, failed, completed } = lane(queue);
      return { waiting: waiting.length, active, delayed: delayed.size, failed, completed };
    },

    drain(): Promise<void> {
      if (pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    /** Stops starting jobs, drops waiting ones and pending retries, and waits for running jobs. */
    async close(): Promise<void> {
      closed = true;
      for (const current of lanes.values()) {
        for (const [id, timer] of current.delayed) {
          clearTimeout(timer);
          finish(id, 'unknown'); // dropped, not failed: the DB sweeper re-enqueues it
        }
        for (const job of current.waiting) finish(job.id, 'unknown');
        current.delayed.clear();
        current.waiting = [];
      }
      const running = [...lanes.values()].some((current) => current.active > 0);
      if (running) await new Promise<void>((resolve) => idleWaiters.push(resolve));
      notifyIfIdle();
    },
  };
}
