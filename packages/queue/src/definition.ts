import { JOB_PAYLOADS, type JobPayload, type QueueName } from '@portal/contracts';
import { UnrecoverableJobError } from './errors.ts';
import { backoffDelay, type FinalFailure, type FinalFailureHook, type JobHandler, type Processor, type RetryPolicy } from './types.ts';

/**
 * One queue, declared once: its payload, its processor and final-failure hook built over its ports,
 * its retry policy, concurrency and silence limit. The inline driver (embedded mode), the BullMQ
 * workers and the API's timeout sweep all read the same definition (model: Documenso's job
 * definitions), so adding a queue means adding one of these to the registry.
 */
export interface JobDefinition<Q extends QueueName, Ports> {
  readonly queue: Q;
  /** `JOB_PAYLOADS[queue]`, validated at enqueue and again before each run. */
  readonly payload: (typeof JOB_PAYLOADS)[Q];
  /**
   * Silence after which nobody is working on the job any more: the timeout sweep moves its row to
   * Error ("interrupted"). Long-running processors beat a heartbeat well within it.
   */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Default jobs at once per consumer; the deployment may override it (WORKER_CONCURRENCY_*). */
  readonly concurrency: number;
  processor(ports: Ports): Processor<Q>;
  /** The job failed for good: record it (e.g. the run → Error) and tell the user. Awaited, retried on throw. */
  onFinalFailure?(ports: Ports): FinalFailureHook<Q>;
}

export function defineJob<Q extends QueueName, Ports>(definition: Omit<JobDefinition<Q, Ports>, 'payload'>): JobDefinition<Q, Ports> {
  return { ...definition, payload: JOB_PAYLOADS[definition.queue] };
}

/** Binds a definition to its ports: the handler a driver runs. */
export function bindJob<Q extends QueueName, Ports>(definition: JobDefinition<Q, Ports>, ports: Ports, overrides: { concurrency?: number } = {}): JobHandler<Q> {
  return {
    queue: definition.queue,
    process: definition.processor(ports),
    ...(definition.onFinalFailure && { onFinalFailure: definition.onFinalFailure(ports) }),
    retry: definition.retry,
    concurrency: overrides.concurrency ?? definition.concurrency,
  };
}

/** Longest wait between two runs of a failing final-failure hook. */
const HOOK_MAX_DELAY_MS = 30_000;

/**
 * Whether this failed run is the job's last: attempts spent, or an error a retry cannot fix.
 * `attemptsMade` counts the run that just failed.
 */
export function isFinalFailure(error: Error, attemptsMade: number, attempts: number): boolean {
  return error instanceof UnrecoverableJobError || error.name === 'UnrecoverableError' || attemptsMade >= attempts;
}

/**
 * Runs the handler's final-failure hook, awaited, and again with backoff when it throws (the
 * database may be the very thing that failed the job). Never throws: after `hookAttempts` it
 * reports and gives up, and the timeout sweep moves the row to Error once the silence limit passes.
 */
export async function runFinalFailure<Q extends QueueName>(
  handler: JobHandler<Q>,
  payload: JobPayload<Q>,
  failure: FinalFailure,
  report: (message: string, error: unknown) => void = (message, error) => console.error(`[queue:${handler.queue}] ${message}`, error),
): Promise<boolean> {
  if (!handler.onFinalFailure) return true;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await handler.onFinalFailure(payload, failure);
      return true;
    } catch (error) {
      if (attempt >= handler.retry.hookAttempts) {
        report(`final-failure hook gave up after ${attempt} attempts; the timeout sweep will close the job`, error);
        return false;
      }
      report(`final-failure hook threw (attempt ${attempt}); retrying`, error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(HOOK_MAX_DELAY_MS, backoffDelay(handler.retry.backoffMs, attempt))));
    }
  }
}
