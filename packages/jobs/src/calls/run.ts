import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { mailAttachments, mails, renewalCallSteps, type Database, type Executor } from '@portal/db';
import { serverT, type Locale } from '@portal/i18n';
import type { Logger } from '@portal/logger';
import type { Storage } from '@portal/storage';
import { enqueueCommittedMails, formatMailDay } from '../mails.ts';
import { rowsOf } from '../patents/rows.ts';
import { loadCostTables, type CostTables } from '../costs/load.ts';
import { DEFAULT_CALL_SETTINGS, instructBefore, nextStep, priceItem, stepToSend, totalsPerCurrency, windowEnd, type CallSettings, type CallStep, type SentStep } from './costs.ts';
import { amountsOf, callPdf, callXlsx, formatAmount, type CallDocument, type CallLine } from './documents.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

export interface RenewalCallsDeps {
  db: Database;
  logger: Logger;
  /** Where the calls' PDF and xlsx are stored for the mails that carry them. */
  storage: Pick<Storage, 'put'>;
  clock?: { now(): Date };
  enqueueMail?: (mailId: string) => Promise<void>;
}

export const PDF_TYPE = 'application/pdf';

interface CabinetSettings extends CallSettings {
  cabinetId: string;
}

async function cabinetsWithSettings(db: Executor): Promise<CabinetSettings[]> {
  const result = await db.execute(sql`
    select c.id as cabinet_id, s.window_days, s.margin_days, s.reminder_days
    from cabinets c left join renewal_call_settings s on s.cabinet_id = c.id
    order by c.id`);
  return rowsOf<{ cabinet_id: string; window_days: number | null; margin_days: number | null; reminder_days: number | null }>(result).map((r) => ({
    cabinetId: r.cabinet_id,
    windowDays: r.window_days ?? DEFAULT_CALL_SETTINGS.windowDays,
    marginDays: r.margin_days ?? DEFAULT_CALL_SETTINGS.marginDays,
    reminderDays: r.reminder_days ?? DEFAULT_CALL_SETTINGS.reminderDays,
  }));
}

/** A cabinet's settings (defaults when it has no row). */
export async function callSettingsOf(db: Executor, cabinetId: string): Promise<CallSettings> {
  const result = await db.execute(sql`select window_days, margin_days, reminder_days from renewal_call_settings where cabinet_id = ${cabinetId}`);
  const [row] = rowsOf<{ window_days: number; margin_days: number; reminder_days: number }>(result);
  return row ? { windowDays: row.window_days, marginDays: row.margin_days, reminderDays: row.reminder_days } : DEFAULT_CALL_SETTINGS;
}

/**
 * Gathers into calls the annuities of each cabinet falling due from `day` to the end of its window, without
 * instruction, not paid nor lapsed, and in no call yet: one open call per cabinet and client code.
 */
export async function gatherCalls(db: Database, day: string): Promise<number> {
  let added = 0;
  for (const cabinet of await cabinetsWithSettings(db)) {
    const until = windowEnd(day, cabinet.windowDays);
    added += await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`renewal-calls:gather:${cabinet.cabinetId}`}))`);
      const candidates = rowsOf<{ id: string; client_code: string; due: string }>(
        await tx.execute(sql`
          select p.id, p.client_code, p.date_echeance::text as due
          from patent_records p
          where p.cabinet_id = ${cabinet.cabinetId}
            and p.has_instruction = false
            and p.instruction_status = 'unprocessed'
            and coalesce(p.ledger_state, 'due') = 'due'
            and p.date_echeance between ${day}::date and ${until}::date
            and not exists (select 1 from renewal_call_items i where i.record_id = p.id)
          order by p.client_code, p.date_echeance, p.id`),
      );
      if (candidates.length === 0) return 0;
      const codes = [...new Set(candidates.map((c) => c.client_code))];
      for (const code of codes) {
        await tx.execute(sql`
          insert into renewal_calls (cabinet_id, client_code, opened_on) values (${cabinet.cabinetId}, ${code}, ${day}::date)
          on conflict (cabinet_id, client_code) where closed_on is null do nothing`);
      }
      const calls = new Map(
        rowsOf<{ id: string; client_code: string }>(
          await tx.execute(sql`select id, client_code from renewal_calls where cabinet_id = ${cabinet.cabinetId} and closed_on is null and client_code = any(${sql.param(codes)}::text[])`),
        ).map((r) => [r.client_code, r.id]),
      );
      let count = 0;
      for (const c of candidates) {
        const result = await tx.execute(sql`
          insert into renewal_call_items (record_id, call_id, due_date, instruct_before)
          values (${c.id}, ${calls.get(c.client_code)!}, ${c.due}::date, ${instructBefore(c.due, cabinet.marginDays)}::date)
          on conflict (record_id) do nothing returning record_id`);
        count += rowsOf(result).length;
      }
      return count;
    });
  }
  return added;
}

/**
 * Closes, item by item, what no longer needs a call: the payment recorded (ledger paid or confirmed, the back
 * office's payment date) → paid; the right lapsed (ledger lapsed, or past the engine's last day) → lapsed; an
 * instruction given in the portal (or by the back office) → instructed. A call whose items are all closed is closed.
 */
export async function closeCallItems(db: Database, day: string): Promise<{ items: number; calls: number }> {
  return db.transaction(async (tx) => {
    const open = rowsOf<{ record_id: string; pays: string; quantieme: number | null; due_date: string; ledger_state: string | null; paid: boolean; instructed: boolean }>(
      await tx.execute(sql`
        select i.record_id, p.pays, p.quantieme, i.due_date::text as due_date, p.ledger_state,
          (p.ledger_state in ('paid', 'confirmed') or p.date_paiement_office is not null or p.date_acquit is not null) as paid,
          (p.instruction_id is not null or p.has_instruction or p.ledger_state in ('instructed', 'ordered', 'abandoned')) as instructed
        from renewal_call_items i join patent_records p on p.id = i.record_id
        where i.closed_reason is null
        order by i.record_id
        for update of i`),
    );
    let items = 0;
    for (const item of open) {
      const lostAfter = priceItem({ recordId: item.record_id, cabinetId: null, pays: item.pays, quantieme: item.quantieme, dueDate: item.due_date }, day).lostAfter;
      const reason = item.paid ? 'paid' : item.ledger_state === 'lapsed' || (lostAfter !== null && day > lostAfter) ? 'lapsed' : item.instructed ? 'instructed' : null;
      if (reason === null) continue;
      await tx.execute(sql`update renewal_call_items set closed_reason = ${reason}, closed_on = ${day}::date where record_id = ${item.record_id}`);
      items++;
    }
    const closed = await tx.execute(sql`
      update renewal_calls c set closed_on = ${day}::date
      where c.closed_on is null and not exists (select 1 from renewal_call_items i where i.call_id = c.id and i.closed_reason is null)
        and exists (select 1 from renewal_call_items i where i.call_id = c.id)
      returning c.id`);
    return { items, calls: rowsOf(closed).length };
  });
}

interface CallRow {
  id: string;
  cabinet_id: string;
  client_code: string;
  held: boolean;
}

interface ItemRow {
  record_id: string;
  cabinet_id: string;
  reference_client: string | null;
  pays: string;
  numero_depot: string | null;
  quantieme: number | null;
  due_date: string;
  instruct_before: string;
}

/** The open items of a call with what its documents show. */
export async function openItemsOf(db: Executor, callId: string): Promise<ItemRow[]> {
  return rowsOf<ItemRow>(
    await db.execute(sql`
      select i.record_id, p.cabinet_id, p.reference_client, p.pays, p.numero_depot, p.quantieme, i.due_date::text as due_date, i.instruct_before::text as instruct_before
      from renewal_call_items i join patent_records p on p.id = i.record_id
      where i.call_id = ${callId} and i.closed_reason is null
      order by i.due_date, p.reference_client, i.record_id`),
  );
}

export async function sentStepsOf(db: Executor, callId: string): Promise<SentStep[]> {
  return rowsOf<{ step: CallStep; sent_on: string }>(await db.execute(sql`select step, sent_on::text as sent_on from renewal_call_steps where call_id = ${callId}`)).map((r) => ({ step: r.step, sentOn: r.sent_on }));
}

/** The admin tables and ECB rates pricing `items` paid on `day` (or their due day, when later): one read for any number of calls. */
export async function callCostTables(db: Executor, items: readonly ItemRow[], day: string): Promise<CostTables | undefined> {
  if (items.length === 0) return undefined;
  const payDays = items.map((i) => (day > i.due_date ? day : i.due_date)).sort();
  return loadCostTables(db, { cabinetIds: [...new Set(items.map((i) => i.cabinet_id))], currencies: ['GBP', 'SEK'], fromDay: payDays[0]!, toDay: payDays.at(-1)! });
}

/**
 * The lines and totals of a call on `day` (the staff preview and the documents): each item priced by `costBreakdown`
 * with the admin tables and ECB rates read once for the call (decision 199), so a line is the sum of the parts the
 * patent's detail shows.
 */
export async function callLines(
  db: Executor,
  items: readonly ItemRow[],
  day: string,
  tables?: CostTables,
): Promise<{ lines: CallLine[]; totals: { currency: string; totalMinor: number }[] }> {
  tables ??= await callCostTables(db, items, day);
  const lines = items.map((i) => ({
    reference: i.reference_client,
    pays: i.pays,
    numeroDepot: i.numero_depot,
    quantieme: i.quantieme,
    dueDate: i.due_date,
    instructBefore: i.instruct_before,
    priced: priceItem({ recordId: i.record_id, cabinetId: i.cabinet_id, pays: i.pays, quantieme: i.quantieme, dueDate: i.due_date }, day, tables),
  }));
  return { lines, totals: totalsPerCurrency(lines.map((l) => l.priced)) };
}

interface Agent {
  email: string;
  langue: Locale;
}

async function agentsOf(db: Executor, call: CallRow): Promise<Agent[]> {
  return rowsOf<Agent>(
    await db.execute(sql`
      select distinct u.email, u.langue
      from users u
      join user_roles ur on ur.user_id = u.id
      join roles r on r.id = ur.role_id
      where r.slug = 'user_agent_annuites'
        and (${call.client_code} = any(u.code) or u.id in (select user_id from user_cabinets where cabinet_id = ${call.cabinet_id}))
      order by u.email`),
  );
}

export interface SendOutcome {
  step: CallStep | null;
  mails: number;
}

/**
 * Sends a call's step due on `day` (or, with `now`, its next step whatever the day: staff's "send now"):
 * under a lock per call, the `renewal_call_steps` row (the unique key per call and step) is inserted first;
 * when it exists already nothing is sent. Its mails (one per agent of the client, in the agent's language,
 * with the call as PDF and xlsx) and their attachments are written in the same transaction, then handed to
 * the mail queue after commit: a run killed before the commit sent nothing and the next run sends the step;
 * after it, the step is sent and the next run finds its row.
 */
export async function sendCallStep(deps: RenewalCallsDeps, callId: string, day: string, options: { now?: boolean; userId?: string | null } = {}): Promise<SendOutcome> {
  const outcome = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`renewal-calls:${callId}`}))`);
    const [call] = rowsOf<CallRow>(await tx.execute(sql`select id, cabinet_id, client_code, held from renewal_calls where id = ${callId} and closed_on is null`));
    if (!call || (call.held && !options.now)) return { step: null, mails: 0, mailIds: [] as string[] };
    const items = await openItemsOf(tx, callId);
    const settings = await callSettingsOf(tx, call.cabinet_id);
    const sent = await sentStepsOf(tx, callId);
    const dates = items.map((i) => ({ dueDate: i.due_date, instructBefore: i.instruct_before }));
    const step = options.now ? (nextStep(day, dates, settings, sent, { now: true })?.step ?? null) : stepToSend(day, dates, settings, sent);
    if (step === null) return { step: null, mails: 0, mailIds: [] as string[] };
    const agents = await agentsOf(tx, call);
    const inserted = await tx
      .insert(renewalCallSteps)
      .values({ callId, step, sentOn: day, items: items.length, mails: agents.length, userId: options.userId ?? null })
      .onConflictDoNothing()
      .returning({ step: renewalCallSteps.step });
    if (inserted.length === 0) return { step: null, mails: 0, mailIds: [] as string[] };
    const { lines, totals } = await callLines(tx, items, day);
    const files = new Map<Locale, { storageKey: string; filename: string; contentType: string; size: number }[]>();
    const mailIds: string[] = [];
    for (const agent of agents) {
      let attached = files.get(agent.langue);
      if (!attached) {
        attached = await storeDocuments(deps, { clientCode: call.client_code, step, day, locale: agent.langue, lines, totals });
        files.set(agent.langue, attached);
      }
      const t = serverT(agent.langue);
      const earliest = items.reduce((min, i) => (i.instruct_before < min ? i.instruct_before : min), items[0]!.instruct_before);
      const [mail] = await tx
        .insert(mails)
        .values({
          recipient: agent.email,
          template: 'renewal_call',
          locale: agent.langue,
          params: {
            step: t(`renewal_call.steps.${step}`, { ns: 'emails' }),
            client: call.client_code,
            count: String(items.length),
            before: formatMailDay(earliest, agent.langue),
            rows: lines
              .map((l) => {
                const a = amountsOf(l, agent.langue);
                return t('renewal_call.line', {
                  ns: 'emails',
                  reference: l.reference ?? '—',
                  country: l.pays,
                  application: l.numeroDepot ?? '—',
                  year: l.quantieme === null ? '—' : String(l.quantieme),
                  due: formatMailDay(l.dueDate, agent.langue),
                  before: formatMailDay(l.instructBefore, agent.langue),
                  fee: a.fee,
                  surcharge: a.surcharge,
                  total: a.total,
                });
              })
              .join('\n'),
            totals: totals.length === 0 ? t('renewal_call.no_fee', { ns: 'emails' }) : totals.map((x) => formatAmount(x.totalMinor, x.currency, agent.langue)).join('\n'),
          },
        })
        .returning({ id: mails.id });
      await tx.insert(mailAttachments).values(attached.map((file, position) => ({ mailId: mail!.id, position, ...file })));
      mailIds.push(mail!.id);
    }
    return { step, mails: mailIds.length, mailIds };
  });
  await enqueueCommittedMails(deps, outcome.mailIds, 'renewal call');
  if (outcome.step) deps.logger.info({ event: 'renewal_call_step', callId, step: outcome.step, mails: outcome.mails }, 'renewal call step sent');
  return { step: outcome.step, mails: outcome.mails };
}

async function storeDocuments(deps: RenewalCallsDeps, doc: CallDocument) {
  const base = `renewal-calls/${doc.day}/${randomUUID()}`;
  const name = `${doc.clientCode.replace(/[^A-Za-z0-9_-]/g, '_')}-${doc.step}-${doc.day}`;
  const pdf = await callPdf(doc);
  const xlsx = await callXlsx(doc);
  await deps.storage.put(`${base}.pdf`, pdf, { contentType: PDF_TYPE });
  await deps.storage.put(`${base}.xlsx`, xlsx, { contentType: XLSX_CONTENT_TYPE });
  return [
    { storageKey: `${base}.pdf`, filename: `${name}.pdf`, contentType: PDF_TYPE, size: pdf.length },
    { storageKey: `${base}.xlsx`, filename: `${name}.xlsx`, contentType: XLSX_CONTENT_TYPE, size: xlsx.length },
  ];
}

export interface RenewalCallsResult {
  day: string;
  gathered: number;
  closedItems: number;
  closedCalls: number;
  steps: number;
  mails: number;
}

/** The day's run: gather, close, then send each open and not held call's due step. */
export async function runRenewalCalls(deps: RenewalCallsDeps, day: string): Promise<RenewalCallsResult> {
  const gathered = await gatherCalls(deps.db, day);
  const closed = await closeCallItems(deps.db, day);
  const open = rowsOf<{ id: string }>(await deps.db.execute(sql`select id from renewal_calls where closed_on is null and held = false order by client_code, id`));
  let steps = 0;
  let mailCount = 0;
  for (const call of open) {
    const sent = await sendCallStep(deps, call.id, day);
    if (sent.step) steps++;
    mailCount += sent.mails;
  }
  return { day, gathered, closedItems: closed.items, closedCalls: closed.calls, steps, mails: mailCount };
}
