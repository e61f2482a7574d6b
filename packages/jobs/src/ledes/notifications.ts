import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import { rowsOf } from '../patents/rows.ts';

/**
 * The LEDES mails a user opts in to from their account (issue 31 §3, decision 195): one of their files refused,
 * one delivered to step 2. Each is written in the transaction of its own transition (the move to Done, the
 * recorded delivery), which happens once per run: a retried job, a second execution after a lost lock, finds the
 * transition made and writes nothing. The queue gets the mail's id after the commit (or the mail sweep does).
 */
export type LedesNotice = 'refused' | 'delivered';

export interface NoticeLinks {
  /** The portal's public address (links in the mail); without it no notice is written (a worker not configured). */
  publicUrl?: string;
}

/** Where a user turns the mails on and off (the web's route). */
export const NOTIFICATIONS_PATH = '/account/notifications';

const OPTED_IN = { refused: sql.raw('notify_ledes_refused'), delivered: sql.raw('notify_ledes_delivered') } as const;

/**
 * Writes, inside `tx`, the notice of `runId` for whoever uploaded it (its owner, and the admin who submitted it for
 * them) and opted in; answers the mails' ids.
 */
export async function recordLedesNotice(tx: Executor, runId: string, notice: LedesNotice, links: NoticeLinks): Promise<string[]> {
  if (!links.publicUrl) return [];
  const base = links.publicUrl.replace(/\/+$/, '');
  const template = notice === 'refused' ? 'ledes_refused' : 'ledes_delivered';
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into mails (recipient, template, locale, params)
      select u.email, ${template}::text, u.langue, jsonb_build_object(
          'name', u.company_agent,
          'filename', r.original_name,
          'errors', r.error_line_count::text,
          'link', ${`${base}/result-ledes?runs=`}::text || r.id::text,
          'settings', ${`${base}${NOTIFICATIONS_PATH}`}::text)
      from ledes_runs r join users u on u.id = r.owner_id or u.id = r.submitted_by
      where r.id = ${runId} and u.${OPTED_IN[notice]}
      returning id`),
  );
  return rows.map((r) => r.id);
}
