export type {
  JobContext,
  JobCounts,
  JobOutcome,
  Processor,
  ProcessorMap,
  QueuePort,
  FailureInfo,
  FinalFailure,
  FinalFailureHook,
  JobHandler,
  JobHandlers,
  RetryPolicy,
} from './types.ts';
export { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS, DEFAULT_RETRY, backoffDelay, retryDelay, isInfrastructureError } from './types.ts';
export { defineJob, bindJob, isFinalFailure, runFinalFailure, type JobDefinition } from './definition.ts';
export { UnrecoverableJobError, InvalidJobPayloadError, QueueUnavailableError, ShutdownTimeoutError } from './errors.ts';
export { parsePayload } from './payloads.ts';
export { createInlineQueue, type InlineQueue, type InlineQueueOptions } from './inline.ts';
// BullMQ and the Redis check: `@portal/queue/redis` (not loaded by the embedded portal).
export { closeGracefully } from './shutdown.ts';
