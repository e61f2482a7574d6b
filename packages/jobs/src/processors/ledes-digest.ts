import { sql } from 'drizzle-orm';
import { isUniqueViolation, ledesDigests, mails, type Database } from '@portal/db';
import { serverT, type Locale } from '@portal/i18n';
import { ruleOf, type RuleCode } from '@portal/ledes';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { NOTIFICATIONS_PATH } from '../ledes/notifications.ts';
import { rowsOf } from '../patents/rows.ts';
import { enqueueCommittedMails, formatMailDay } from '../mails.ts';

export interface LedesDigestDeps {
  db: Database;
  logger: Logger;
  clock?: { now(): Date };
  /** The portal's public address (the digest's links); without it no digest is written. */
  publicUrl?: string;
  /** Hands a committed mail to the mail queue at once; without it (or when it fails) the mail sweep does. */
  enqueueMail?: (mailId: string) => Promise<void>;
}

/** The most frequent error findings of the day's refused files a digest lists. */
export const DIGEST_TOP_FINDINGS = 5;

export interface LedesDayFigures {
  runs: number;
  accepted: number;
  refused: number;
  failed: number;
  top: Array<{ code: string; count: number }>;
}

export interface LedesDigestResult {
  day: string;
  admins: number;
  mails: number;
  figures: LedesDayFigures;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The LEDES runs uploaded on `day` (UTC): how many, their outcome, and the error findings most frequent among them. */
export async function ledesDayFigures(db: Database, day: string): Promise<LedesDayFigures> {
  const from = `${day}T00:00:00Z`;
  const to = `${nextDay(day)}T00:00:00Z`;
  const [counts] = rowsOf<{ runs: number; accepted: number; refused: number; failed: number }>(
    await db.execute(sql`
      select count(*)::int as runs,
        count(*) filter (where state = 'Done' and accepted)::int as accepted,
        count(*) filter (where state = 'Done' and not accepted)::int as refused,
        count(*) filter (where state = 'Error')::int as failed
      from ledes_runs where created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`),
  );
  const top = rowsOf<{ code: string; count: number }>(
    await db.execute(sql`
      select f.code, count(*)::int as count
      from ledes_findings f join ledes_runs r on r.id = f.run_id
      where r.created_at >= ${from}::timestamptz and r.created_at < ${to}::timestamptz
        and r.state = 'Done' and not r.accepted and f.severity = 'error'
      group by f.code order by count(*) desc, f.code limit ${DIGEST_TOP_FINDINGS}`),
  );
  return { runs: counts?.runs ?? 0, accepted: counts?.accepted ?? 0, refused: counts?.refused ?? 0, failed: counts?.failed ?? 0, top };
}

/**
 * The admins' daily digest of `day` (issue 31 §3, decision 195): to each admin who opted in, one mail with the day's
 * runs, accepted, refused and failed, and the most frequent error findings of the refused files, in their language.
 * Nothing on a day without runs. The mail and its `ledes_digests` row are written in one transaction; the row's key
 * (admin, day) makes a second run of the day (a retry, the embedded timer's next hour, two workers at once) send
 * nothing again: a concurrent one fails on the key and rolls its mail back.
 */
export async function runLedesDigest(deps: LedesDigestDeps, day: string): Promise<LedesDigestResult> {
  const figures = await ledesDayFigures(deps.db, day);
  if (figures.runs === 0 || !deps.publicUrl) return { day, admins: 0, mails: 0, figures };
  const base = deps.publicUrl.replace(/\/+$/, '');
  const admins = rowsOf<{ id: string; email: string; langue: Locale; company_agent: string }>(
    await deps.db.execute(sql`
      select u.id, u.email, u.langue, u.company_agent
      from users u
      where u.notify_ledes_digest
        and exists (select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.slug = 'admin')
        and not exists (select 1 from ledes_digests d where d.user_id = u.id and d.day = ${day}::date)
      order by u.id`),
  );
  let sent = 0;
  for (const admin of admins) {
    const t = serverT(admin.langue);
    const findings =
      figures.top.length === 0
        ? t('ledes_digest.no_findings', { ns: 'emails' })
        : figures.top
            .map((f) => {
              const rule = ruleOf(f.code as RuleCode);
              return `- ${t('ledes_digest.finding_line', { ns: 'emails', code: f.code, label: admin.langue === 'fr' ? rule.fr : rule.en, count: f.count })}`;
            })
            .join('\n');
    let mailId: string | undefined;
    try {
      mailId = await deps.db.transaction(async (tx) => {
        const [mail] = await tx
          .insert(mails)
          .values({
            recipient: admin.email,
            template: 'ledes_digest',
            locale: admin.langue,
            params: {
              name: admin.company_agent,
              day: formatMailDay(day, admin.langue),
              runs: String(figures.runs),
              accepted: String(figures.accepted),
              refused: String(figures.refused),
              failed: String(figures.failed),
              findings,
              link: `${base}/ledes/history/admin`,
              settings: `${base}${NOTIFICATIONS_PATH}`,
            },
          })
          .returning({ id: mails.id });
        await tx.insert(ledesDigests).values({ userId: admin.id, day, mailId: mail!.id });
        return mail!.id;
      });
    } catch (error) {
      // Another run of the day wrote this admin's digest first (the key): its mail is the one sent. Anything else fails the job (retried).
      if (!isUniqueViolation(error)) throw error;
      deps.logger.info({ userId: admin.id, day }, 'ledes digest already written for this admin and day');
      continue;
    }
    sent++;
    await enqueueCommittedMails(deps, [mailId], 'digest');
  }
  return { day, admins: admins.length, mails: sent, figures };
}

/** The `ledes-digest` job: the day given, or the day before the job's own ('yesterday', the schedule's; UTC). */
export function createLedesDigestProcessor(deps: LedesDigestDeps): Processor<'ledes-digest'> {
  return async ({ day }) => {
    const today = (deps.clock?.now() ?? new Date()).toISOString().slice(0, 10);
    const resolved = day === 'yesterday' ? new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10) : day;
    const result = await runLedesDigest(deps, resolved);
    deps.logger.info({ event: 'ledes_digest_done', day: result.day, admins: result.admins, mails: result.mails, runs: result.figures.runs }, 'ledes digest run done');
  };
}
