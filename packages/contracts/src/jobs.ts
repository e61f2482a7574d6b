import { z } from 'zod';

/**
 * Queue names and job payloads. Payloads carry ids only (BullMQ stores them in clear text in Redis);
 * the database row is the truth. Validated at enqueue and again at processing.
 */
export const JOB_PAYLOADS = {
  mail: z.strictObject({ mailId: z.string().uuid() }),
  ledes: z.strictObject({ runId: z.string().uuid() }),
  annuities: z.strictObject({ fileId: z.string().uuid() }),
  /** One portfolio import (`patent_imports`). */
  'patent-import': z.strictObject({ importId: z.string().uuid() }),
  /** An export run: an admin's trigger (a fresh uuid) or the schedule ('scheduled'). */
  'patent-export': z.strictObject({ trigger: z.union([z.string().uuid(), z.literal('scheduled')]) }),
  /** The reminders of a day (YYYY-MM-DD), or of the day the job runs ('today', the schedule's). */
  'patent-reminders': z.strictObject({ day: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.literal('today')]) }),
  /** The admins' LEDES digest of a day (YYYY-MM-DD), or of the day before the job runs ('yesterday', the schedule's). */
  'ledes-digest': z.strictObject({ day: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.literal('yesterday')]) }),
  /** One receipt upload (`receipt_uploads`): a PDF or a zip of PDFs made into receipts. */
  receipts: z.strictObject({ uploadId: z.string().uuid() }),
  /** One register sync run (`register_sync_runs`), or the schedule's tick ('scheduled': start the day's run or resume the current one). */
  'register-sync': z.strictObject({ runId: z.union([z.string().uuid(), z.literal('scheduled')]) }),
  /** The renewal calls of a day (YYYY-MM-DD), or of the day the job runs ('today', the schedule's). */
  'renewal-calls': z.strictObject({ day: z.union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.literal('today')]) }),
} as const;
export type QueueName = keyof typeof JOB_PAYLOADS;
export const QUEUE_NAMES = Object.keys(JOB_PAYLOADS) as QueueName[];
export type JobPayload<Q extends QueueName> = z.infer<(typeof JOB_PAYLOADS)[Q]>;

/** Deterministic job ids make a duplicate enqueue a no-op (no ':' and never purely numeric, per BullMQ). */
export function jobIdFor<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): string {
  const id = Object.values(payload)[0] as string;
  return `${queue}-${id}`;
}

