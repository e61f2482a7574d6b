import { z } from 'zod';

const count = z.number().int().min(0);

/**
 * `GET /api/admin/queues` in the embedded mode: no bull-board there (no Redis), the inline driver's
 * jobs per queue instead. The production mode answers bull-board's page at the same path.
 */
export const queueDashboardResponse = z.strictObject({
  success: z.literal(true),
  /** Whether bull-board answers here; false in the embedded mode. */
  available: z.literal(false),
  driver: z.enum(['inline', 'bullmq']),
  message: z.string(),
  queues: z.array(
    z.strictObject({
      queue: z.string(),
      waiting: count,
      active: count,
      delayed: count,
      failed: count,
      completed: count,
    }),
  ),
});
export type QueueDashboardResponse = z.infer<typeof queueDashboardResponse>;
