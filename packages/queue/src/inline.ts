import { AsyncResource } from 'node:async_hooks';
import { jobIdFor, type JobPayload, type QueueName } from '@portal/contracts';
import { isFinalFailure, runFinalFailure } from './definition.ts';
import { parsePayload } from './payloads.ts';
import { retryDelay, type JobContext, type JobCounts, type JobHandler, type JobHandlers, type JobOutcome, type QueuePort } from './types.ts';

export interface InlineQueueOptions {
  /** Receives `ctx.log` lines; default: dropped. */
  log?: (queue: QueueName, jobId: string, msg: string) => void;
  /** Receives the final-failure hook's errors; default: console.error. */
  report?: (message: string, error: unknown) => void;
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
 * Embedded-mode driver: runs the registry's handlers in this process with BullMQ's semantics —
 * asynchronous (never inside the caller's stack), the handler's retry policy, UnrecoverableJobError
 * failing at once, payload re-validated before each run, the final-failure hook awaited (and
 * retried) before the job counts as failed, and dedup by job id while the job is pending. Nothing
 * survives a restart: the DB rows and the sweeper are the truth.
 */
export function createInlineQueue(handlers: JobHandlers, opts: InlineQueueOptions = {}): InlineQueue {
  const lanes = new Map<QueueName, Lane>();
  /** Job ids waiting, running or between attempts. */
  const pending = new Set<string>();
  /** Resolvers of waitUntilFinished, by job id. */
  const finishWaiters = new Map<string, Array<(outcome: JobOutcome) => void>>();
  /** Aborted on close: running processors stop and their jobs are handed back (re-run after a restart). */
  const shutdown = new AbortController();
  let idleWaiters: Array<() => void> = [];
  let closed = false;
  /**
   * Jobs run in the queue's own asynchronous context (where it was created), never in the enqueuer's: as with
   * BullMQ's workers, nothing of the HTTP request that enqueued a job follows it (its database lane, decision 185).
   */
  const scope = new AsyncResource('InlineQueue');

  const lane = (queue: QueueName): Lane => {
    let found = lanes.get(queue);
    if (!found) {
      found = { waiting: [], active: 0, delayed: new Map(), completed: 0, failed: 0 };
      lanes.set(queue, found);
    }
    return found;
  };

  const handlerFor = (queue: QueueName): JobHandler<QueueName> => {
    const handler = handlers[queue];
    if (!handler) throw new Error(`No processor registered for queue "${queue}"`);
    return handler;
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
    const limit = handlerFor(queue).concurrency;
    while (!closed && current.active < limit && current.waiting.length > 0) {
      const job = current.waiting.shift()!;
      current.active += 1;
      const settle = () => {
        current.active -= 1;
        pump(queue);
        notifyIfIdle();
      };
      // run() handles every failure of the job itself; a rejection here is a fault of the driver.
      run(job).then(settle, (error: unknown) => {
        console.error('[queue] inline driver fault:', error);
        settle();
      });
    }
  };

  const run = async (job: PendingJob): Promise<void> => {
    const current = lane(job.queue);
    const handler = handlerFor(job.queue);
    job.attemptsMade += 1;
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attemptsMade,
      signal: shutdown.signal,
      updateProgress: async () => {},
      log: (msg) => opts.log?.(job.queue, job.id, msg),
    };
    let payload: JobPayload<QueueName> | undefined;
    try {
      payload = parsePayload(job.queue, job.payload);
      await handler.process(payload, ctx);
      current.completed += 1;
      finish(job.id, 'completed');
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      const final = isFinalFailure(error, job.attemptsMade, handler.retry.attempts);
      if (closed && (!final || shutdown.signal.aborted)) {
        finish(job.id, 'unknown'); // handed back at shutdown: the DB sweeper enqueues it again at start
        return;
      }
      if (final) {
        if (payload) {
          await runFinalFailure(handler, payload, { error, jobId: job.id, attemptsMade: job.attemptsMade }, opts.report);
        }
        current.failed += 1;
        finish(job.id, 'failed');
        return;
      }
      const timer = setTimeout(() => {
        current.delayed.delete(job.id);
        current.waiting.push(job);
        pump(job.queue);
      }, retryDelay(handler.retry, job.attemptsMade, error));
      current.delayed.set(job.id, timer);
    }
  };

  return {
    driver: 'inline',

    async enqueue<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<void> {
      if (closed) throw new Error('Queue is closed');
      const valid = parsePayload(queue, payload);
      handlerFor(queue); // fail at enqueue, not silently later
      const id = jobIdFor(queue, valid);
      if (pending.has(id)) return;
      pending.add(id);
      lane(queue).waiting.push({ queue, id, payload: valid, attemptsMade: 0 });
      setImmediate(() => scope.runInAsyncScope(pump, null, queue)); // never run inside the caller's stack (or its transaction), nor its context
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

    async isQueued<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<boolean> {
      const id = jobIdFor(queue, parsePayload(queue, payload));
      const current = lane(queue);
      return current.delayed.has(id) || current.waiting.some((job) => job.id === id);
    },

    async counts(queue: QueueName): Promise<JobCounts> {
      const { waiting, active, delayed, failed, completed } = lane(queue);
      return { waiting: waiting.length, active, delayed: delayed.size, failed, completed };
    },

    drain(): Promise<void> {
      if (pending.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    /**
     * Stops starting jobs, drops waiting ones and pending retries, signals running processors to
     * stop (`ctx.signal`) and waits for them. Nothing dropped is reported failed: the DB sweeper
     * enqueues it again at the next start.
     */
    async close(): Promise<void> {
      closed = true;
      for (const current of lanes.values()) {
        for (const [id, timer] of current.delayed) {
          clearTimeout(timer);
          finish(id, 'unknown');
        }
        for (const job of current.waiting) finish(job.id, 'unknown');
        current.delayed.clear();
        current.waiting = [];
      }
      shutdown.abort(new Error('queue closing'));
      const running = [...lanes.values()].some((current) => current.active > 0);
      if (running) await new Promise<void>((resolve) => idleWaiters.push(resolve));
      notifyIfIdle();
    },
  };
}
