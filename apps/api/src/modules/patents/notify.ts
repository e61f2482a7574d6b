import { enqueueCommitted } from '@portal/jobs';
import { paymentInstructions, type Executor, type patentRecords } from '@portal/db';
import type { AppContext } from '../../context.ts';
import type { AuthState } from '../../domain/auth.ts';
import { recordMail } from '../mail/index.ts';

/* Mails of the patent workflow, written inside the transaction of the change that causes them. */

const DASH = '—';

/** What a confirmation line shows of a patent (a row of `patent_records`). */
type ConfirmedPatent = Pick<typeof patentRecords.$inferSelect, 'referenceClient' | 'numeroDepot' | 'pays' | 'dateEcheance'>;

/** An instruction's title in `locale`, without its tooltip; the third ends with next year. */
async function instructionTitles(tx: Executor, locale: 'en' | 'fr', now: Date): Promise<Map<number, string>> {
  const rows = await tx.select().from(paymentInstructions);
  const year = now.getUTCFullYear() + 1;
  return new Map(rows.map((r) => [r.id, `${locale === 'fr' ? r.titleFr : r.titleEn}${r.appendsNextYear ? ` ${year}` : ''}`]));
}

/**
 * One confirmation mail to the caller (in its language) listing the instructions it just gave: client
 * reference, application number, country, due date, instruction. Returns the mail's id, to enqueue
 * after commit.
 */
export async function recordInstructionConfirmation(
  tx: Executor,
  actor: Pick<AuthState, 'email' | 'langue'>,
  given: ReadonlyArray<{ patent: ConfirmedPatent; instructionId: number }>,
  now: Date,
): Promise<string | null> {
  if (given.length === 0) return null;
  const titles = await instructionTitles(tx, actor.langue, now);
  const lines = given.map(({ patent, instructionId }) =>
    [patent.referenceClient ?? DASH, patent.numeroDepot ?? DASH, patent.pays, patent.dateEcheance ?? DASH, titles.get(instructionId) ?? String(instructionId)].join(' | '),
  );
  return recordMail(tx, {
    recipient: actor.email,
    template: 'patent_instructions_confirmation',
    locale: actor.langue,
    params: { count: String(given.length), instructions: lines.map((line) => `- ${line}`).join('\n') },
  });
}

/** Enqueues mails written by a committed transaction (a failed enqueue is retried by the sweep). */
export async function sendCommitted(ctx: AppContext, mailIds: ReadonlyArray<string | null>): Promise<void> {
  const ids = mailIds.filter((id): id is string => id !== null);
  if (ids.length > 0) await enqueueCommitted(ctx, 'mail', ids.map((mailId) => ({ mailId })));
}
