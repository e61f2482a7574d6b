import type { QueueName } from '@portal/contracts';
import { bindJob, type JobHandlers, type RetryPolicy } from '@portal/queue';
import { annuitiesJob } from './definitions/annuities.ts';
import { ledesJob } from './definitions/ledes.ts';
import { mailJob } from './definitions/mail.ts';
import type { CheckAnnuitiesDeps } from './processors/check-annuities.ts';
import type { CheckLedesDeps } from './processors/check-ledes.ts';
import type { SendMailDeps } from './processors/send-mail.ts';

/**
 * Every active queue, one definition each. The inline driver, the BullMQ workers, the producer's
 * retry options and the timeout sweep all read this; adding a queue means adding its definition
 * here (and a worker entrypoint): nothing may enqueue to a queue nobody consumes (docs/decisions.md).
 */
export const JOB_REGISTRY = { mail: mailJob, ledes: ledesJob, annuities: annuitiesJob } as const;
export type RegisteredQueue = keyof typeof JOB_REGISTRY;
export const REGISTERED_QUEUES = Object.keys(JOB_REGISTRY) as RegisteredQueue[];

export type JobPorts = SendMailDeps & CheckLedesDeps & CheckAnnuitiesDeps;

export function isRegisteredQueue(queue: QueueName): queue is RegisteredQueue {
  return queue in JOB_REGISTRY;
}

/** Every registered queue's handler over the ports (the embedded mode's inline driver). */
export function bindJobs(ports: JobPorts, concurrency: Partial<Record<QueueName, number>> = {}): JobHandlers {
  return {
    mail: bindJob(mailJob, ports, { concurrency: concurrency.mail }),
    ledes: bindJob(ledesJob, ports, { concurrency: concurrency.ledes }),
    annuities: bindJob(annuitiesJob, ports, { concurrency: concurrency.annuities }),
  };
}

/**
 * The boot check of the embedded mode: every registered queue has its handler in this process.
 * (The production mode's consumers are the worker entrypoints, one per registered queue, checked by
 * the workers' registry test; its producer refuses queues outside the registry.)
 */
export function consumedQueues(handlers: JobHandlers): JobHandlers {
  const missing = REGISTERED_QUEUES.filter((queue) => handlers[queue]?.queue !== queue);
  if (missing.length > 0) throw new Error(`no consumer for queue(s) ${missing.join(', ')} in the embedded mode`);
  return handlers;
}

/** The producer's job options come from the same policies the consumers apply. */
export function retryPolicies(): Record<RegisteredQueue, RetryPolicy> {
  return { mail: mailJob.retry, ledes: ledesJob.retry, annuities: annuitiesJob.retry };
}
