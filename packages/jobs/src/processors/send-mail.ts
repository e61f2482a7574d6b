import { setTimeout as sleep } from 'node:timers/promises';
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
    // The mail is out: from here a failure must not make a retry send it again. The database may be down for a while
    // (an outage of the fault suite: SMTP accepted, the write refused); the write is retried here until it is stored,
    // and only a shutdown (the job handed back) gives up on it.
    await untilStored(() => deps.db.update(mails).set({ sentAt: now(), lastError: null }).where(eq(mails.id, mailId)), job.signal, (error, attempt) =>
      deps.logger.warn({ err: error, mailId, attempt }, 'mail sent but not yet recorded as sent; retrying'),
    );
    deps.logger.info({ event: 'mail_sent', mailId, template: mail.template, attachments: files.length, attempt: job.attempt }, 'mail sent');
  };
}

/** First and longest waits between two tries of the write that records a sent mail. */
const SENT_WRITE_RETRY = { firstMs: 100, maxMs: 5_000 } as const;

/** Runs `write` until it succeeds, waiting longer between tries (up to SENT_WRITE_RETRY.maxMs); throws only once `signal` aborts. */
async function untilStored(write: () => Promise<unknown>, signal: AbortSignal, onRetry: (error: unknown, attempt: number) => void): Promise<void> {
  for (let attempt = 1, wait: number = SENT_WRITE_RETRY.firstMs; ; attempt++, wait = Math.min(wait * 2, SENT_WRITE_RETRY.maxMs)) {
    try {
      await write();
      return;
    } catch (error) {
      if (signal.aborted) throw error;
      onRetry(error, attempt);
      // An abort ends the wait at once; the next try then fails and throws.
      await sleep(wait, undefined, { signal }).catch(() => undefined);
    }
  }
}
