import { enqueueCommitted, PATENT_EXPORT_EVERY_MS, PATENT_REMINDERS_EVERY_MS } from '@portal/jobs';
import type { AppContext } from '../context.ts';

/**
 * The embedded mode's schedules of the patent back-office loop (production: the BullMQ job schedulers
 * the patent-export and patent-reminders workers upsert at start). Every hour, the export of validated
 * instructions and the day's reminders are enqueued; a reminder run that finds everything sent sends
 * nothing, so running it hourly sends each reminder once, the first hour of its day (decision 110).
 */
export function schedulePatentJobs(ctx: AppContext): () => void {
  if (ctx.queue.driver !== 'inline') return () => {};
  // enqueueCommitted logs a failed enqueue itself and never rejects; the catch only satisfies the linter.
  const exportRun = () => {
    enqueueCommitted(ctx, 'patent-export', [{ trigger: 'scheduled' }]).catch(() => {});
  };
  const reminderRun = () => {
    enqueueCommitted(ctx, 'patent-reminders', [{ day: ctx.clock.now().toISOString().slice(0, 10) }]).catch(() => {});
  };
  const timers = [setInterval(exportRun, PATENT_EXPORT_EVERY_MS), setInterval(reminderRun, PATENT_REMINDERS_EVERY_MS)];
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
