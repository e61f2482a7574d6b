import type { QueueName } from '@portal/contracts';
import { bindJob, type JobDefinition, type JobHandlers, type RetryPolicy } from '@portal/queue';
import { annuitiesJob, annuityRunKind } from './definitions/annuities.ts';
import { ledesJob, ledesRunKind } from './definitions/ledes.ts';
import { mailJob } from './definitions/mail.ts';
import { patentExportJob } from './definitions/patent-export.ts';
import { patentImportJob, patentImportRunKind } from './definitions/patent-import.ts';
import { patentRemindersJob } from './definitions/patent-reminders.ts';
import { ledesDigestJob } from './definitions/ledes-digest.ts';
import { receiptRunKind, receiptsJob } from './definitions/receipts.ts';
import { registerSyncJob, registerSyncRunKind } from './definitions/register-sync.ts';
import { renewalCallsJob } from './definitions/renewal-calls.ts';
import type { RunKind } from './run-kind.ts';
import type { CheckAnnuitiesDeps } from './processors/check-annuities.ts';
import type { CheckLedesDeps } from './processors/check-ledes.ts';
import type { SendMailDeps } from './processors/send-mail.ts';
import type { ExportPatentsDeps } from './processors/export-patents.ts';
import type { ImportPatentsDeps } from './processors/import-patents.ts';
import type { PatentRemindersDeps } from './processors/patent-reminders.ts';
import type { LedesDigestDeps } from './processors/ledes-digest.ts';
import type { ReadReceiptsDeps } from './processors/read-receipts.ts';
import type { RegisterSyncDeps } from './registers/sync.ts';
import type { RenewalCallsDeps } from './processors/renewal-calls.ts';

/**
 * Every active queue, named once: its definition. The inline driver, the BullMQ workers, the
 * producer's retry options and the timeout sweep all derive from this list; adding a queue means
 * adding its definition here (and a worker entrypoint): nothing may enqueue to a queue nobody
 * consumes (docs/decisions.md).
 */
const DEFINITIONS = [mailJob, ledesJob, annuitiesJob, patentImportJob, patentExportJob, patentRemindersJob, receiptsJob, ledesDigestJob, registerSyncJob, renewalCallsJob] as const;

type Definition = (typeof DEFINITIONS)[number];
export type RegisteredQueue = Definition['queue'];
type DefinitionOf<Q extends RegisteredQueue> = Extract<Definition, { queue: Q }>;

export const JOB_REGISTRY = Object.fromEntries(DEFINITIONS.map((definition) => [definition.queue, definition])) as { readonly [Q in RegisteredQueue]: DefinitionOf<Q> };
export const REGISTERED_QUEUES: RegisteredQueue[] = DEFINITIONS.map<RegisteredQueue>((definition) => definition.queue);

/**
 * Every kind of background run (decision 159): the sweep, the metrics and the fault contract loop
 * over this list. A new kind is its `defineRunKind` definition, added here with its queue above.
 */
export const RUN_KINDS: readonly RunKind[] = [ledesRunKind, annuityRunKind, patentImportRunKind, receiptRunKind, registerSyncRunKind] as unknown as readonly RunKind[];

/** `kind` label → run table, for the `portal_runs` gauge of `@portal/ops`. */
export const RUN_TABLES: Readonly<Record<string, string>> = Object.fromEntries(RUN_KINDS.map((kind) => [kind.kind, kind.tableName]));

export type JobPorts = SendMailDeps & CheckLedesDeps & CheckAnnuitiesDeps & ImportPatentsDeps & ExportPatentsDeps & PatentRemindersDeps & ReadReceiptsDeps & LedesDigestDeps & RegisterSyncDeps & RenewalCallsDeps;

export function isRegisteredQueue(queue: QueueName): queue is RegisteredQueue {
  return queue in JOB_REGISTRY;
}

/** Every registered queue's handler over the ports (the embedded mode's inline driver). */
export function bindJobs(ports: JobPorts, concurrency: Partial<Record<QueueName, number>> = {}): JobHandlers {
  return Object.fromEntries(
    DEFINITIONS.map((definition) => [definition.queue, bindJob(definition as JobDefinition<QueueName, JobPorts>, ports, { concurrency: concurrency[definition.queue] })]),
  );
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
  return Object.fromEntries(DEFINITIONS.map((definition) => [definition.queue, definition.retry])) as Record<RegisteredQueue, RetryPolicy>;
}
