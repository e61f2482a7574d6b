import type { Locale } from '@portal/i18n';
import { mails, type Executor } from '@portal/db';

export interface OutgoingMail {
  recipient: string;
  template: 'reset_password' | 'first_connection' | 'contact';
  locale: Locale;
  params: Record<string, string>;
  replyTo?: string;
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
  return row!.id;
}
