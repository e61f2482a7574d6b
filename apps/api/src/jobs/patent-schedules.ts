import { enqueueCommitted, LEDES_DIGEST_EVERY_MS, PATENT_EXPORT_EVERY_MS, PATENT_REMINDERS_EVERY_MS, REGISTER_SYNC_EVERY_MS, RENEWAL_CALLS_EVERY_MS } from '@portal/jobs';
import type { AppContext } from '../context.ts';

/**
 * The embedded mode's schedules of the patent back-office loop and of the LEDES digest (production: the BullMQ job
 * schedulers the patent-export, patent-reminders and ledes-digest workers upsert at start). Every hour, the export of validated
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
  // The admins' LEDES digest of the day before (issue 31 §3): sent once per admin and day, the first hour it finds runs.
  // 'yesterday' as the production schedule says it: the processor resolves it by its clock (the same one).
  const digestRun = () => {
    enqueueCommitted(ctx, 'ledes-digest', [{ day: 'yesterday' }]).catch(() => {});
  };
  // The register sync (issue 29 §3): the tick opens the day's run once and takes a paused or interrupted one again.
  const registerRun = () => {
    enqueueCommitted(ctx, 'register-sync', [{ runId: 'scheduled' }]).catch(() => {});
  };
  // The renewal calls of the day (issue 30 §3): a step already sent has its row, so the hourly run sends each step once.
  const callsRun = () => {
    enqueueCommitted(ctx, 'renewal-calls', [{ day: 'today' }]).catch(() => {});
  };
  const timers = [
    setInterval(exportRun, PATENT_EXPORT_EVERY_MS),
    setInterval(reminderRun, PATENT_REMINDERS_EVERY_MS),
    setInterval(digestRun, LEDES_DIGEST_EVERY_MS),
    setInterval(registerRun, REGISTER_SYNC_EVERY_MS),
    setInterval(callsRun, RENEWAL_CALLS_EVERY_MS),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
