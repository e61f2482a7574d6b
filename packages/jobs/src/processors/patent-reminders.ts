import { sql } from 'drizzle-orm';
import { PATENT_LIMIT_DAYS } from '@portal/contracts';
import { mails, patentReminders, PATENT_REMINDER_STEPS, type Database } from '@portal/db';
import { serverT, type Locale } from '@portal/i18n';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { rowsOf } from '../patents/rows.ts';
import { enqueueCommittedMails, formatMailDay } from '../mails.ts';

export interface PatentRemindersDeps {
  db: Database;
  logger: Logger;
  clock?: { now(): Date };
  /**
   * Hands a committed mail to the mail queue at once. Optional: without it (or when it fails) the
   * sweep enqueues the mail row within about three minutes.
   */
  enqueueMail?: (mailId: string) => Promise<void>;
}

export type ReminderStep = (typeof PATENT_REMINDER_STEPS)[number];

/**
 * Decision 109: the step of a patent from the days left until its limit date (due date − 7 days):
 * 30 to 15 → first call, 14 to 8 → reminder, 7 to 0 → last call; past the limit, none (the row is
 * locked). Windows, not exact days: a day the scheduler missed is caught up the next day, and each
 * step is sent at most once per (agent, patent, due date).
 */
export function reminderStep(daysLeft: number): ReminderStep | null {
  if (daysLeft < 0 || daysLeft > 30) return null;
  if (daysLeft > 14) return 'first_call';
  if (daysLeft > 7) return 'reminder';
  return 'last_call';
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

type Candidate = { id: string; date_echeance: string; reference_client: string | null; numero_depot: string | null; pays: string; cost: string | null };

interface Agent {
  id: string;
  email: string;
  langue: Locale;
  companyAgent: string;
  codes: string[];
}


function formatEuros(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(amount);
}

/** The patents of an agent due for a reminder on `day` and not yet reminded at their step. */
async function candidatesOf(db: Database, agent: Agent, day: string): Promise<Candidate[]> {
  const result = await db.execute(sql`
    select p.id, p.date_echeance::text as date_echeance, p.reference_client, p.numero_depot, p.pays, p.cost::text as cost
    from patent_records p
    where (p.cabinet_id in (select cabinet_id from user_cabinets where user_id = ${agent.id}) or p.client_code = any(${sql.param(agent.codes)}::text[]))
      and p.has_instruction = false
      and p.instruction_status = 'unprocessed'
      and p.date_echeance between ${addDays(day, PATENT_LIMIT_DAYS)}::date and ${addDays(day, PATENT_LIMIT_DAYS + 30)}::date
    order by p.date_echeance, p.id`);
  return rowsOf<Candidate>(result);
}

export interface ReminderRunResult {
  day: string;
  agents: number;
  mails: number;
  reminders: number;
}

/**
 * The reminders of `day`: for each agent (role user_agent_annuites; its cabinets or client codes),
 * its patents without instruction and not locked whose limit date is at most 30 days away, grouped
 * by step into one mail per step, in the agent's language, with the fees and their total. The
 * `patent_reminders` rows and the mail row are written in one transaction, under a lock per agent:
 * a second run (the same day, or at the same time) finds them and sends nothing again; an
 * instruction given removes the patent from the next steps (`has_instruction`). The mail worker
 * sends the mail rows (the sweep enqueues them).
 */
export async function runPatentReminders(deps: PatentRemindersDeps, day: string): Promise<ReminderRunResult> {
  const agentsResult = await deps.db.execute(sql`
    select u.id, u.email, u.langue, u.company_agent, u.code
    from users u
    join user_roles ur on ur.user_id = u.id
    join roles r on r.id = ur.role_id
    where r.slug = 'user_agent_annuites'
    order by u.id`);
  const agents: Agent[] = rowsOf<{ id: string; email: string; langue: Locale; company_agent: string; code: string[] | string }>(agentsResult).map((r) => ({
    id: r.id,
    email: r.email,
    langue: r.langue,
    companyAgent: r.company_agent,
    codes: Array.isArray(r.code) ? r.code : parsePgArray(r.code),
  }));
  let mailCount = 0;
  let reminderCount = 0;
  for (const agent of agents) {
    const candidates = await candidatesOf(deps.db, agent, day);
    if (candidates.length === 0) continue;
    const sent = await deps.db.transaction(async (tx) => {
      // One agent's reminders at a time, whoever runs them: two runs never both see "not sent".
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`patent-reminders:${agent.id}`}))`);
      const already = await tx.execute(sql`
        select patent_id, step, date_echeance::text as date_echeance from patent_reminders
        where user_id = ${agent.id} and patent_id = any(${sql.param(candidates.map((c) => c.id))}::uuid[])`);
      const done = new Set(rowsOf<{ patent_id: string; step: ReminderStep; date_echeance: string }>(already).map((r) => `${r.patent_id}|${r.step}|${r.date_echeance}`));
      const byStep = new Map<ReminderStep, Candidate[]>();
      for (const candidate of candidates) {
        const limit = addDays(candidate.date_echeance, -PATENT_LIMIT_DAYS);
        const step = reminderStep(daysBetween(day, limit));
        if (step === null || done.has(`${candidate.id}|${step}|${candidate.date_echeance}`)) continue;
        const list = byStep.get(step) ?? [];
        list.push(candidate);
        byStep.set(step, list);
      }
      let mailsWritten = 0;
      let remindersWritten = 0;
      const mailIds: string[] = [];
      const t = serverT(agent.langue);
      for (const step of PATENT_REMINDER_STEPS) {
        const list = byStep.get(step);
        if (!list) continue;
        let total = 0;
        const lines = list.map((c) => {
          const fee = c.cost === null ? null : Number(c.cost);
          if (fee !== null) total += fee;
          return t('patent_reminder.line', {
            ns: 'emails',
            reference: c.reference_client ?? '—',
            application: c.numero_depot ?? '—',
            country: c.pays,
            due: formatMailDay(c.date_echeance, agent.langue),
            limit: formatMailDay(addDays(c.date_echeance, -PATENT_LIMIT_DAYS), agent.langue),
            fee: fee === null ? t('patent_reminder.no_fee', { ns: 'emails' }) : formatEuros(fee, agent.langue),
          });
        });
        const [mail] = await tx
          .insert(mails)
          .values({
            recipient: agent.email,
            template: 'patent_reminder',
            locale: agent.langue,
            params: {
              name: agent.companyAgent,
              step: t(`patent_reminder.steps.${step}`, { ns: 'emails' }),
              count: String(list.length),
              rows: lines.join('\n'),
              total: formatEuros(total, agent.langue),
            },
          })
          .returning({ id: mails.id });
        await tx
          .insert(patentReminders)
          .values(list.map((c) => ({ userId: agent.id, patentId: c.id, step, dateEcheance: c.date_echeance, mailId: mail!.id })))
          .onConflictDoNothing();
        mailsWritten++;
        remindersWritten += list.length;
        mailIds.push(mail!.id);
      }
      return { mailsWritten, remindersWritten, mailIds };
    });
    await enqueueCommittedMails(deps, sent.mailIds, 'reminder');
    mailCount += sent.mailsWritten;
    reminderCount += sent.remindersWritten;
  }
  return { day, agents: agents.length, mails: mailCount, reminders: reminderCount };
}

/** `{a,b}` as PGlite may give a text[] through a raw query. */
function parsePgArray(value: string | null | undefined): string[] {
  if (!value || value === '{}') return [];
  return value
    .slice(1, -1)
    .split(',')
    .map((v) => v.replace(/^"(.*)"$/, '$1'));
}

/** The `patent-reminders` job: the day given, or the job's own day (the schedule's 'today', UTC). */
export function createPatentRemindersProcessor(deps: PatentRemindersDeps): Processor<'patent-reminders'> {
  return async ({ day }) => {
    const resolved = day === 'today' ? (deps.clock?.now() ?? new Date()).toISOString().slice(0, 10) : day;
    const begun = performance.now();
    const result = await runPatentReminders(deps, resolved);
    deps.logger.info({ event: 'patent_reminders_done', ...result, ms: Math.round(performance.now() - begun) }, 'patent reminders run done');
  };
}
