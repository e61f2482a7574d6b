import type { QueueName } from '@portal/contracts';
import { bindJob, type JobHandlers, type RetryPolicy } from '@portal/queue';
import { annuitiesJob } from './definitions/annuities.ts';
import { ledesJob } from './definitions/ledes.ts';
import { mailJob } from './definitions/mail.ts';
import { patentExportJob } from './definitions/patent-export.ts';
import { patentImportJob } from './definitions/patent-import.ts';
import { patentRemindersJob } from './definitions/patent-reminders.ts';
import { receiptsJob } from './definitions/receipts.ts';
import type { CheckAnnuitiesDeps } from './processors/check-annuities.ts';
import type { CheckLedesDeps } from './processors/check-ledes.ts';
import type { SendMailDeps } from './processors/send-mail.ts';
import type { ExportPatentsDeps } from './processors/export-patents.ts';
import type { ImportPatentsDeps } from './processors/import-patents.ts';
import type { PatentRemindersDeps } from './processors/patent-reminders.ts';
import type { ReadReceiptsDeps } from './processors/read-receipts.ts';

/**
 * Every active queue, one definition each. The inline driver, the BullMQ workers, the producer's
 * retry options and the timeout sweep all read this; adding a queue means adding its definition
 * here (and a worker entrypoint): nothing may enqueue to a queue nobody consumes (docs/decisions.md).
 */
export const JOB_REGISTRY = {
  mail: mailJob,
  ledes: ledesJob,
  annuities: annuitiesJob,
  'patent-import': patentImportJob,
  'patent-export': patentExportJob,
  'patent-reminders': patentRemindersJob,
  receipts: receiptsJob,
} as const;
export type RegisteredQueue = keyof typeof JOB_REGISTRY;
export const REGISTERED_QUEUES = Object.keys(JOB_REGISTRY) as RegisteredQueue[];

export type JobPorts = SendMailDeps & CheckLedesDeps & CheckAnnuitiesDeps & ImportPatentsDeps & ExportPatentsDeps & PatentRemindersDeps & ReadReceiptsDeps;

export function isRegisteredQueue(queue: QueueName): queue is RegisteredQueue {
  return queue in JOB_REGISTRY;
}

/** Every registered queue's handler over the ports (the embedded mode's inline driver). */
export function bindJobs(ports: JobPorts, concurrency: Partial<Record<QueueName, number>> = {}): JobHandlers {
  return {
    mail: bindJob(mailJob, ports, { concurrency: concurrency.mail }),
    ledes: bindJob(ledesJob, ports, { concurrency: concurrency.ledes }),
    annuities: bindJob(annuitiesJob, ports, { concurrency: concurrency.annuities }),
    'patent-import': bindJob(patentImportJob, ports, { concurrency: concurrency['patent-import'] }),
    'patent-export': bindJob(patentExportJob, ports, { concurrency: concurrency['patent-export'] }),
    'patent-reminders': bindJob(patentRemindersJob, ports, { concurrency: concurrency['patent-reminders'] }),
    receipts: bindJob(receiptsJob, ports, { concurrency: concurrency.receipts }),
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
  return {
    mail: mailJob.retry,
    ledes: ledesJob.retry,
    annuities: annuitiesJob.retry,
    'patent-import': patentImportJob.retry,
    'patent-export': patentExportJob.retry,
    'patent-reminders': patentRemindersJob.retry,
    receipts: receiptsJob.retry,
  };
}
