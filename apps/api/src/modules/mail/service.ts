import type { Locale } from '@portal/i18n';
import { MAIL_TEMPLATE_VALUES, mailAttachments, mails, type Executor } from '@portal/db';

/** A stored file sent with a mail (its row is written with the mail's). */
export interface OutgoingAttachment {
  storageKey: string;
  filename: string;
  contentType: string;
  size: number;
}

export interface OutgoingMail {
  recipient: string;
  template: (typeof MAIL_TEMPLATE_VALUES)[number];
  locale: Locale;
  params: Record<string, string>;
  replyTo?: string;
  attachments?: OutgoingAttachment[];
}

/**
 * Writes the mail row inside the caller's transaction; the caller enqueues the returned id only after
 * commit (`enqueueCommitted`), so a rolled-back action never sends mail and a lost enqueue is caught by
 * the sweep.
 */
export async function recordMail(tx: Executor, mail: OutgoingMail): Promise<string> {
  const [row] = await tx
    .insert(mails)
    .values({ recipient: mail.recipient, template: mail.template, locale: mail.locale, params: mail.params, replyTo: mail.replyTo })
    .returning({ id: mails.id });
  if (mail.attachments && mail.attachments.length > 0) {
    await tx.insert(mailAttachments).values(mail.attachments.map((file, position) => ({ mailId: row!.id, position, ...file })));
  }
  return row!.id;
}
