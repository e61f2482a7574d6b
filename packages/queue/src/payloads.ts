import { JOB_PAYLOADS, type JobPayload, type QueueName } from '@portal/contracts';
import { InvalidJobPayloadError } from './errors.ts';

/** Parses `payload` with the queue's zod schema; unknown queues and extra fields are refused. */
export function parsePayload<Q extends QueueName>(queue: Q, payload: unknown): JobPayload<Q> {
  const schema = JOB_PAYLOADS[queue];
  if (!schema) throw new InvalidJobPayloadError(String(queue), [{ path: [], message: 'unknown queue' }]);
  const result = schema.safeParse(payload);
  if (!result.success) throw new InvalidJobPayloadError(queue, result.error.issues);
  return result.data as JobPayload<Q>;
}
