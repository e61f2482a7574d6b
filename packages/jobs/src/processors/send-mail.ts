import { eq } from 'drizzle-orm';
import type { Database } from '@portal/db';
import { mails } from '@portal/db';
import type { Logger } from '@portal/logger';
import { renderMail, type MailTransport } from '@portal/mail';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';

export interface SendMailDeps {
  db: Database;
  transport: MailTransport;
  logger: Logger;
  clock?: { now(): Date };
}

/**
 * Renders a recorded mail in its recipient's language and sends it. `sent_at` makes a redelivered
 * job a no-op, so a crash after sending and before acknowledging does not send the mail twice.
 */
export function createSendMailProcessor(deps: SendMailDeps): Processor<'mail'> {
  const now = () => deps.clock?.now() ?? new Date();
  return async ({ mailId }, job) => {
    const [mail] = await deps.db.select().from(mails).where(eq(mails.id, mailId));
    if (!mail) throw new UnrecoverableJobError(`mail ${mailId} does not exist`);
    if (mail.sentAt) return;
    const rendered = renderMail(mail.template, mail.locale, mail.params);
    try {
      await deps.transport.send({ to: mail.recipient, subject: rendered.subject, text: rendered.text, html: rendered.html, replyTo: mail.replyTo ?? undefined });
    } catch (error) {
      await deps.db.update(mails).set({ lastError: String((error as Error).message).slice(0, 500) }).where(eq(mails.id, mailId));
      throw error;
    }
    await deps.db.update(mails).set({ sentAt: now(), lastError: null }).where(eq(mails.id, mailId));
    deps.logger.info({ event: 'mail_sent', mailId, template: mail.template, attempt: job.attempt }, 'mail sent');
  };
}
