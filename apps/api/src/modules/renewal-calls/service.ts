import { eq, sql } from 'drizzle-orm';
import { paginationMeta, type RenewalCallDto, type RenewalCallLineDto, type RenewalCallsQuery } from '@portal/contracts';
import { formatMinor } from '@portal/annuities/core';
import { renewalCalls, type Executor } from '@portal/db';
import { CALL_TOTAL_CURRENCY, callCostTables, callLines, callSettingsOf, nextStep, openItemsOf, rowsOf, sendCallStep, sentStepsOf, type CallStep } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';

const ORDER: Record<CallStep, number> = { first_call: 0, reminder: 1, last_call: 2 };

interface CallRow {
  id: string;
  cabinet: string;
  cabinet_id: string;
  client_code: string;
  opened_on: string;
  closed_on: string | null;
  held: boolean;
  items: number;
}

const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

type CallItems = Awaited<ReturnType<typeof openItemsOf>>;

/** A call's answer; a list passes its open items and the cost tables it read once for the page's calls. */
async function toDto(db: Executor, row: CallRow, day: string, page?: { items: CallItems; tables: Awaited<ReturnType<typeof callCostTables>> }): Promise<RenewalCallDto> {
  const items = page?.items ?? (row.closed_on === null ? await openItemsOf(db, row.id) : []);
  const sent = await sentStepsOf(db, row.id);
  const settings = await callSettingsOf(db, row.cabinet_id);
  const dates = items.map((i) => ({ dueDate: i.due_date, instructBefore: i.instruct_before }));
  const next = row.closed_on === null ? nextStep(day, dates, settings, sent) : null;
  const { totals } = await callLines(db, items, day, page?.tables);
  const instructBefore = items.reduce<string | null>((min, i) => (min === null || i.instruct_before < min ? i.instruct_before : min), null);
  const last = sent.reduce<CallStep | null>((max, s) => (max === null || ORDER[s.step] > ORDER[max] ? s.step : max), null);
  return {
    _id: row.id,
    cabinet: row.cabinet,
    client_code: row.client_code,
    opened_on: row.opened_on,
    closed_on: row.closed_on,
    held: row.held,
    step: last,
    next_step: next?.step ?? null,
    next_step_on: next?.on ?? null,
    instruct_before: instructBefore,
    instruct_before_passed: instructBefore !== null && day > instructBefore,
    open_items: items.length,
    items: Number(row.items),
    totals: totals.map((t) => ({ currency: t.currency, amount: formatMinor(t.totalMinor) })),
  };
}

const CALL_COLUMNS = sql`c.id, k.name as cabinet, c.cabinet_id, c.client_code, c.opened_on::text as opened_on, c.closed_on::text as closed_on, c.held,
  (select count(*)::int from renewal_call_items i where i.call_id = c.id) as items`;

/** The calls, open ones first by their client code, paged (staff's desk). */
export async function listCalls(ctx: AppContext, query: RenewalCallsQuery) {
  const db = ctx.db;
  const where = sql.join(
    [
      query.state === 'open' ? sql`c.closed_on is null` : query.state === 'closed' ? sql`c.closed_on is not null` : sql`true`,
      query.client_code ? sql`c.client_code = ${query.client_code}` : sql`true`,
    ],
    sql` and `,
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from renewal_calls c where ${where}`)) as [{ total: number }];
  const rows = rowsOf<CallRow>(
    await db.execute(sql`
      select ${CALL_COLUMNS} from renewal_calls c join cabinets k on k.id = c.cabinet_id
      where ${where}
      order by (c.closed_on is null) desc, c.client_code, c.opened_on desc, c.id
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`),
  );
  const day = today(ctx);
  const items: CallItems[] = [];
  for (const row of rows) items.push(row.closed_on === null ? await openItemsOf(db, row.id) : []);
  // The page's calls priced with one read of the cost tables (it was one read per call).
  const tables = await callCostTables(db, items.flat(), day);
  const calls = [];
  for (const [i, row] of rows.entries()) calls.push(await toDto(db, row, day, { items: items[i]!, tables }));
  return { calls, meta: paginationMeta(query.page, query.limit, Number(total)) };
}

async function callRow(db: Executor, id: string): Promise<CallRow> {
  const [row] = rowsOf<CallRow>(await db.execute(sql`select ${CALL_COLUMNS} from renewal_calls c join cabinets k on k.id = c.cabinet_id where c.id = ${id}`));
  if (!row) throw new AppError('not_found');
  return row;
}

export async function readCall(ctx: AppContext, id: string): Promise<RenewalCallDto> {
  return toDto(ctx.db, await callRow(ctx.db, id), today(ctx));
}

/** The preview: the open lines priced today (each part visible), and the steps sent. */
export async function previewCall(ctx: AppContext, id: string) {
  const row = await callRow(ctx.db, id);
  const day = today(ctx);
  const items = row.closed_on === null ? await openItemsOf(ctx.db, id) : [];
  const { lines } = await callLines(ctx.db, items, day);
  const steps = rowsOf<{ step: CallStep; sent_on: string; items: number; mails: number; user_id: string | null }>(
    await ctx.db.execute(sql`select step, sent_on::text as sent_on, items, mails, user_id from renewal_call_steps where call_id = ${id} order by created_at, step`),
  );
  return {
    call: await toDto(ctx.db, row, day),
    lines: lines.map(
      (l, index): RenewalCallLineDto => ({
        patent_id: items[index]!.record_id,
        reference_client: l.reference,
        pays: l.pays,
        numero_depot: l.numeroDepot,
        quantieme: l.quantieme,
        due_date: l.dueDate,
        instruct_before: l.instructBefore,
        in_grace: l.priced.inGrace,
        // The currency of `total` (every part summed in euros), or the office's when no total is known.
        currency: l.priced.totalMinor === null ? l.priced.currency : CALL_TOTAL_CURRENCY,
        parts: l.priced.parts.map((p) => ({ part: p.part, currency: p.currency, amount: formatMinor(p.amountMinor), amount_eur: p.eurMinor === null ? null : formatMinor(p.eurMinor) })),
        total: l.priced.totalMinor === null ? null : formatMinor(l.priced.totalMinor),
      }),
    ),
    steps: steps.map((s) => ({ step: s.step, sent_on: s.sent_on, items: Number(s.items), mails: Number(s.mails), by_staff: s.user_id !== null })),
  };
}

/** Staff's "send now": the call's next step today, once (the step's unique row); 409 when none is left. */
export async function sendNow(ctx: AppContext, id: string, userId: string) {
  await callRow(ctx.db, id);
  const outcome = await sendCallStep(
    {
      db: ctx.db,
      logger: ctx.logger,
      storage: ctx.storage,
      clock: ctx.clock,
      enqueueMail: async (mailId) => {
        await ctx.queue.enqueue('mail', { mailId });
      },
    },
    id,
    today(ctx),
    { now: true, userId },
  );
  if (outcome.step === null) throw new AppError('renewal_call_nothing_to_send');
  return { step: outcome.step, mails: outcome.mails, call: await readCall(ctx, id) };
}

export async function holdCall(ctx: AppContext, id: string, held: boolean): Promise<RenewalCallDto> {
  const updated = await ctx.db.update(renewalCalls).set({ held }).where(eq(renewalCalls.id, id)).returning({ id: renewalCalls.id });
  if (updated.length === 0) throw new AppError('not_found');
  return readCall(ctx, id);
}

/** How long "run now" waits for the job before answering `queued` (the job goes on; the list shows what it did). */
export const RUN_NOW_WAIT_MS = 20_000;

/**
 * The day's run now (admins, e2e): the same `renewal-calls` job as the schedule's, enqueued with the day as its
 * payload (its job id: a second press while it is pending is the same job). A step already sent is never sent again:
 * the run writes each call's step row (call + step, its key) with its mails, and a step row already there sends nothing.
 */
export async function runNow(ctx: AppContext) {
  const day = today(ctx);
  await ctx.queue.enqueue('renewal-calls', { day });
  const outcome = await ctx.queue.waitUntilFinished('renewal-calls', { day }, RUN_NOW_WAIT_MS);
  return { day, outcome: outcome === 'timeout' ? ('queued' as const) : outcome };
}
