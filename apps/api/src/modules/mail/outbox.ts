import { and, isNull, lt } from 'drizzle-orm';
import type { Locale } from '@portal/i18n';
import { mails, type Executor } from '@portal/db';
import type { AppContext } from '../../context.ts';

export interface OutgoingMail {
  recipient: string;
  template: 'reset_password' | 'first_connection' | 'contact';
  locale: Locale;
  params: Record<string, string>;
  replyTo?: string;
}

/**
 * Writes the mail row inside the caller's transaction; the caller enqueues the returned ids only after
 * commit, so a rolled-back action never sends mail and a crash before enqueue is caught by the sweep.
 */
export async function recordMail(tx: Executor, mail: OutgoingMail): Promise<string> {
  const [row] = await tx
    .insert(mails)
    .values({ recipient: mail.recipient, template: mail.template, locale: mail.locale, params: mail.params, replyTo: mail.replyTo })
    .returning({ id: mails.id });
  return row!.id;
}

export async function enqueueMails(ctx: AppContext, mailIds: string[]): Promise<void> {
  for (const mailId of mailIds) await ctx.queue.enqueue('mail', { mailId });
}

/** Re-enqueues mail rows still unsent after a grace period (lost enqueue, Redis flushed). */
export async function sweepUnsentMails(ctx: AppContext, olderThanMs = 5 * 60_000): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - olderThanMs);
  const rows = await ctx.db
    .select({ id: mails.id })
    .from(mails)
    .where(and(isNull(mails.sentAt), lt(mails.createdAt, cutoff)))
    .limit(500);
  await enqueueMails(ctx, rows.map((r) => r.id));
  return rows.length;
}
