import { asc, eq } from 'drizzle-orm';
import type { Database } from '@portal/db';
import { mailAttachments, mails } from '@portal/db';
import type { Logger } from '@portal/logger';
import { renderMail, type MailAttachment, type MailTransport } from '@portal/mail';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import { StorageNotFoundError, type Storage } from '@portal/storage';

export interface SendMailDeps {
  db: Database;
  transport: MailTransport;
  logger: Logger;
  /** Where the files of `mail_attachments` are read from. */
  storage: Pick<Storage, 'get'>;
  clock?: { now(): Date };
}

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * Renders a recorded mail in its recipient's language and sends it, with the files of its
 * `mail_attachments` rows read from storage. `sent_at` makes a redelivered job a no-op, so a crash
 * after sending and before acknowledging does not send the mail twice.
 */
export function createSendMailProcessor(deps: SendMailDeps): Processor<'mail'> {
  const now = () => deps.clock?.now() ?? new Date();
  return async ({ mailId }, job) => {
    const [mail] = await deps.db.select().from(mails).where(eq(mails.id, mailId));
    if (!mail) throw new UnrecoverableJobError(`mail ${mailId} does not exist`);
    if (mail.sentAt) return;
    const rendered = renderMail(mail.template, mail.locale, mail.params);
    const files = await deps.db.select().from(mailAttachments).where(eq(mailAttachments.mailId, mailId)).orderBy(asc(mailAttachments.position));
    try {
      const attachments: MailAttachment[] = [];
      for (const file of files) {
        try {
          attachments.push({ filename: file.filename, contentType: file.contentType, content: await readAll(await deps.storage.get(file.storageKey)) });
        } catch (error) {
          // A file gone from storage will not come back: retrying cannot send this mail.
          if (error instanceof StorageNotFoundError) throw new UnrecoverableJobError(`attachment ${file.position} of mail ${mailId} is missing from storage`);
          throw error;
        }
      }
      await deps.transport.send({ to: mail.recipient, subject: rendered.subject, text: rendered.text, html: rendered.html, replyTo: mail.replyTo ?? undefined, attachments });
    } catch (error) {
      await deps.db.update(mails).set({ lastError: String((error as Error).message).slice(0, 500) }).where(eq(mails.id, mailId));
      throw error;
    }
    await deps.db.update(mails).set({ sentAt: now(), lastError: null }).where(eq(mails.id, mailId));
    deps.logger.info({ event: 'mail_sent', mailId, template: mail.template, attachments: files.length, attempt: job.attempt }, 'mail sent');
  };
}
