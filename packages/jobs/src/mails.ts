import type { Locale } from '@portal/i18n';
import type { Logger } from '@portal/logger';

/** A day (YYYY-MM-DD) as a mail's reader writes it: 27/11/2026 in French, as it is in English. */
export function formatMailDay(day: string, locale: Locale): string {
  return locale === 'fr' ? `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` : day;
}

/**
 * Hands committed mail rows to the mail queue, after the commit that wrote them (a rolled-back job never sends); a
 * failed enqueue is only logged: the mail sweep enqueues unsent rows within minutes.
 */
export async function enqueueCommittedMails(deps: { logger: Logger; enqueueMail?: (mailId: string) => Promise<void> }, mailIds: readonly string[], what: string): Promise<void> {
  for (const mailId of mailIds) {
    await deps.enqueueMail?.(mailId).catch((error: unknown) => deps.logger.warn({ err: error, mailId }, `${what} mail enqueue failed; the sweep will retry`));
  }
}
