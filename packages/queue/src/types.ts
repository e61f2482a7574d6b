import type { JobPayload, QueueName } from '@portal/contracts';

export interface JobContext {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** 0–100, or any number the processor finds useful; informational only (state lives in the DB). */
  updateProgress(value: number): Promise<void>;
  log: (msg: string) => void;
}

/** A job handler, shared by the inline and BullMQ drivers. Must be idempotent (at-least-once delivery). */
export type Processor<Q extends QueueName> = (payload: JobPayload<Q>, ctx: JobContext) => Promise<void>;
export type ProcessorMap = { [Q in QueueName]?: Processor<Q> };

export interface JobCounts {
  waiting: number;
  active: number;
  /** Waiting for a retry (backoff) or scheduled later. */
  delayed: number;
  failed: number;
  completed: number;
}

export type JobOutcome = 'completed' | 'failed' | 'timeout' | 'unknown';

export interface QueuePort {
  readonly driver: 'inline' | 'bullmq';
  /**
   * Validates the payload (InvalidJobPayloadError) and adds the job with id `jobIdFor(queue, payload)`,
   * so enqueueing the same payload again while the job exists is a no-op.
   * bullmq: rejects with QueueUnavailableError when Redis is unreachable (→ HTTP 503).
   */
  enqueue<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<void>;
  /**
   * Waits for the job of this payload to finish (e.g. the synchronous LEDES check, under its
   * 120 s budget). `unknown`: no such job (never enqueued, or no longer kept). The job's outcome
   * in the DB remains the truth; this only says when to look.
   */
  waitUntilFinished<Q extends QueueName>(queue: Q, payload: JobPayload<Q>, timeoutMs: number): Promise<JobOutcome>;
  counts(queue: QueueName): Promise<JobCounts>;
  close(): Promise<void>;
}

export interface FailureInfo {
  jobId: string;
  /** Attempts made, including the failed one. */
  attemptsMade: number;
}

/** Called once per job, when it has failed for good (attempts exhausted or unrecoverable). */
export type OnFailed = <Q extends QueueName>(queue: Q, payload: JobPayload<Q>, error: Error, info: FailureInfo) => unknown;

/** Runs a caller's failure hook so that its own error (sync or async) can never crash the driver. */
export function reportFailure(hook: OnFailed | undefined, ...args: Parameters<OnFailed>): void {
  if (!hook) return;
  const complain = (error: unknown) => console.error('[queue] onFailed hook threw:', error);
  try {
    void Promise.resolve(hook(...args)).catch(complain);
  } catch (error) {
    complain(error);
  }
}

/** The retry policy both drivers apply by default (BullMQ `attempts` + exponential `backoff`). */
export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 2000;

/** BullMQ's exponential backoff: 2^(attemptsMade-1) × delay. */
export function backoffDelay(backoffMs: number, attemptsMade: number): number {
  return Math.round(2 ** Math.max(0, attemptsMade - 1) * backoffMs);
}
