import type { JobPayload, QueueName } from '@portal/contracts';

export interface JobContext {
  jobId: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /**
   * Aborted when the worker shuts down and hands the job back (SIGTERM on a long job): the processor
   * stops at its next await point and throws; the driver returns the job to waiting, not failed.
   */
  signal: AbortSignal;
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
   * so enqueueing the same payload again while the job is pending (waiting, delayed, active) is a
   * no-op; a finished job of that id (completed or failed) is replaced, so a row whose earlier job
   * failed can be run again. bullmq: rejects with QueueUnavailableError when Redis is unreachable (→ 503).
   */
  enqueue<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<void>;
  /**
   * Waits for the job of this payload to finish (e.g. the synchronous LEDES check, under its
   * 120 s budget). `unknown`: no such job (never enqueued, or no longer kept). The job's outcome
   * in the DB remains the truth; this only says when to look.
   */
  waitUntilFinished<Q extends QueueName>(queue: Q, payload: JobPayload<Q>, timeoutMs: number): Promise<JobOutcome>;
  /**
   * Whether the job of this payload waits to run (waiting, delayed for a retry), as opposed to
   * running, finished or absent: the timeout sweep never closes a run that merely waits its turn.
   */
  isQueued<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): Promise<boolean>;
  counts(queue: QueueName): Promise<JobCounts>;
  close(): Promise<void>;
}

export interface FailureInfo {
  jobId: string;
  /** Attempts made, including the failed one. */
  attemptsMade: number;
}

export interface FinalFailure extends FailureInfo {
  error: Error;
}

/**
 * Called once per job when it has failed for good (attempts exhausted or unrecoverable), awaited
 * before the job counts as failed. A hook that throws is retried (`RetryPolicy.hookAttempts`).
 */
export type FinalFailureHook<Q extends QueueName> = (payload: JobPayload<Q>, failure: FinalFailure) => Promise<void>;

/** How a queue retries. Both drivers apply it the same way. */
export interface RetryPolicy {
  /** Runs of the processor before the job fails for good. */
  attempts: number;
  /** Exponential backoff base for ordinary errors: 2^(n-1) × backoffMs. */
  backoffMs: number;
  /**
   * Backoff base when the error is an infrastructure fault (database, storage, SMTP unreachable):
   * long enough that an outage of a minute does not burn every attempt in seconds.
   */
  infrastructureBackoffMs: number;
  /** Runs of `onFinalFailure` before giving up on it (the timeout sweep is then the backstop). */
  hookAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 2000, infrastructureBackoffMs: 10_000, hookAttempts: 8 };
/** Kept for callers that only set attempts and backoff. */
export const DEFAULT_ATTEMPTS = DEFAULT_RETRY.attempts;
export const DEFAULT_BACKOFF_MS = DEFAULT_RETRY.backoffMs;

/** A queue's processor bound to its ports, with its lifecycle: what both drivers run. */
export interface JobHandler<Q extends QueueName> {
  queue: Q;
  process: Processor<Q>;
  onFinalFailure?: FinalFailureHook<Q>;
  retry: RetryPolicy;
  /** Jobs of this queue run at once by one consumer. */
  concurrency: number;
}
export type JobHandlers = { [Q in QueueName]?: JobHandler<Q> };

/** BullMQ's exponential backoff: 2^(attemptsMade-1) × delay. */
export function backoffDelay(backoffMs: number, attemptsMade: number): number {
  return Math.round(2 ** Math.max(0, attemptsMade - 1) * backoffMs);
}

/** The delay before the next attempt after `attemptsMade` failed ones, for this error. */
export function retryDelay(policy: RetryPolicy, attemptsMade: number, error: unknown): number {
  return backoffDelay(isInfrastructureError(error) ? policy.infrastructureBackoffMs : policy.backoffMs, attemptsMade);
}

const INFRASTRUCTURE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'EROFS', 'ENOSPC', 'EDQUOT', 'EIO',
  // PostgreSQL: admin/crash shutdown, cannot connect now, too many connections.
  '57P01', '57P02', '57P03', '53300',
]);
const INFRASTRUCTURE_MESSAGES = /connection terminated|terminating connection|connection (?:is )?closed|server closed the connection|timeout exceeded when trying to connect|service ?unavailable|slow ?down|socket hang up/i;

/**
 * A fault of a dependency (database, storage, SMTP, Redis), not of the job's content: worth
 * waiting for. Looks through `cause` chains and AggregateErrors (drizzle and the storage drivers wrap).
 */
export function isInfrastructureError(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (INFRASTRUCTURE_CODES.has(code) || code.startsWith('08'))) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  if (error.name === 'QueueUnavailableError' || INFRASTRUCTURE_MESSAGES.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isInfrastructureError(inner, depth + 1))) return true;
  return isInfrastructureError(error.cause, depth + 1);
}
