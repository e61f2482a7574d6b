import { and, asc, desc, eq, lte } from 'drizzle-orm';
import { annuityFromDue, computeSchedule, formatIsoDate, officeOfCountry, parseIsoDate, type Annuity } from '@portal/annuities/core';
import type { PatentCostsDto, PatentEventDto, PatentLedgerYearDto, PatentRecordDto, PatentScheduleReason, PatentScheduleResponse } from '@portal/contracts';
import { costOf, costsToWire, loadCostTables, patentKeyOf } from '@portal/jobs';
import { currencyRates, patentInstructionEvents, patentLedger, receipts, users, type Executor } from '@portal/db';
import type { AppContext } from '../../context.ts';
import type { AuthState } from '../../domain/auth.ts';
import { originOf } from './origin.ts';
import { readPatent, today } from './service.ts';

/* The detail modal: a patent's audit trail and its annuity schedule from packages/annuities. */

/** GET /brevet_eptane/{id}/events: newest first, with the user's name; same read rule as the detail (404 outside it). */
export async function listEvents(ctx: AppContext, actor: AuthState, id: string): Promise<PatentEventDto[]> {
  await readPatent(ctx, actor, id);
  const rows = await ctx.db
    .select({ event: patentInstructionEvents, userName: users.companyAgent })
    .from(patentInstructionEvents)
    .leftJoin(users, eq(users.id, patentInstructionEvents.userId))
    .where(eq(patentInstructionEvents.patentId, id))
    .orderBy(desc(patentInstructionEvents.createdAt), desc(patentInstructionEvents.id));
  return rows.map(({ event, userName }) => ({
    _id: event.id,
    user: event.userId && userName !== null ? { _id: event.userId, name: userName } : null,
    old_instruction: event.oldInstructionId,
    new_instruction: event.newInstructionId,
    old_status: event.oldStatus,
    new_status: event.newStatus,
    source: event.source,
    created: event.createdAt.toISOString(),
  }));
}

interface ScheduleInput {
  pays: string | null;
  origine: string | null;
  dateDepot: string | null;
  quantieme: number | null;
}

type Computed = { ok: true; office: string; annuities: readonly Annuity[]; next: Annuity | null; expiry: string } | { ok: false; reason: PatentScheduleReason };

/** The schedule of a patent as of `day`, or why the engine cannot compute it. */
export function scheduleOf(input: ScheduleInput, day: string): Computed {
  const office = officeOfCountry(input.pays);
  if (office === null) return { ok: false, reason: 'unknown_office' };
  const origin = originOf(office, input.origine);
  if (origin === null) return { ok: false, reason: 'unknown_origin' };
  if (input.dateDepot === null) return { ok: false, reason: 'missing_filing_date' };
  const filing = parseIsoDate(input.dateDepot);
  const now = parseIsoDate(day);
  if (filing === null || now === null) return { ok: false, reason: 'invalid_date' };
  const lastPaid = input.quantieme !== null && input.quantieme >= 1 ? input.quantieme - 1 : null;
  const result = computeSchedule({ office, origin, filing, lastPaid }, now);
  if (!result.ok) return { ok: false, reason: result.reason as PatentScheduleReason };
  const s = result.value;
  return { ok: true, office: s.office, annuities: s.annuities, next: s.next, expiry: formatIsoDate(s.expiry) };
}

/** Euros per unit of `currency` on `day` (the latest dated rate not after it); EUR is 1; null without a rate. */
export async function rateOn(db: Executor, currency: string, day: string): Promise<{ rate: number; date: string | null } | null> {
  if (currency === 'EUR') return { rate: 1, date: null };
  const [row] = await db
    .select()
    .from(currencyRates)
    .where(and(eq(currencyRates.currency, currency), lte(currencyRates.validFrom, day)))
    .orderBy(desc(currencyRates.validFrom))
    .limit(1);
  return row ? { rate: Number(row.eurPerUnit), date: row.validFrom } : null;
}

const toEuros = (minor: number, rate: number) => Math.round(minor * rate) / 100;

/** GET /brevet_eptane/{id}/schedule: every annuity with its fee in the office's currency and in euros. */
export async function patentSchedule(ctx: AppContext, actor: AuthState, id: string): Promise<Omit<PatentScheduleResponse, 'success'>> {
  const patent = await readPatent(ctx, actor, id);
  const day = today(ctx);
  const computed = scheduleOf({ pays: patent.Pays, origine: patent.Origine, dateDepot: patent.Depot, quantieme: patent.Quantieme }, day);
  if (!computed.ok) return { reason: computed.reason, office: null, expiry_date: null, next_number: null, annuities: [], total_remaining_eur: null };
  const rates = new Map<string, Awaited<ReturnType<typeof rateOn>>>();
  const annuities: PatentScheduleResponse['annuities'] = [];
  for (const a of computed.annuities) {
    if (!rates.has(a.currency)) rates.set(a.currency, await rateOn(ctx.db, a.currency, day));
    const rate = rates.get(a.currency)!;
    annuities.push({
      number: a.number,
      due_date: formatIsoDate(a.due),
      no_surcharge_end: formatIsoDate(a.noSurchargeEnd),
      grace_end: formatIsoDate(a.graceEnd),
      no_surcharge_end_latest: formatIsoDate(a.noSurchargeEndLatest),
      lost_after: formatIsoDate(a.graceEndLatest),
      extension_unverified: a.extensionUnverified,
      closing_days_provisional: a.closingDaysProvisional,
      fee: a.feeMinor === null ? null : a.feeMinor / 100,
      currency: a.currency,
      fee_eur: a.feeMinor === null || rate === null ? null : toEuros(a.feeMinor, rate.rate),
      rate_date: rate?.date ?? null,
      payment_date: formatIsoDate(a.paymentDay),
      fee_table: a.feeTable,
      fee_verified: a.feeVerified,
    });
  }
  const remaining = computed.next === null ? [] : annuities.filter((a) => a.number >= computed.next!.number);
  const total = remaining.some((a) => a.fee_eur === null) ? null : Math.round(remaining.reduce((sum, a) => sum + a.fee_eur! * 100, 0)) / 100;
  return { reason: null, office: computed.office, expiry_date: computed.expiry, next_number: computed.next?.number ?? null, annuities, total_remaining_eur: total };
}

/** What the engine proposes for a new record: the next annuity's due date, number and fee in euros (each null when it cannot). */
export async function proposeAnnuity(db: Executor, input: ScheduleInput, day: string): Promise<{ dateEcheance: string | null; quantieme: number | null; cost: number | null }> {
  const computed = scheduleOf(input, day);
  if (!computed.ok || computed.next === null) return { dateEcheance: null, quantieme: null, cost: null };
  const next = computed.next;
  const rate = next.feeMinor === null ? null : await rateOn(db, next.currency, day);
  return { dateEcheance: formatIsoDate(next.due), quantieme: next.number, cost: next.feeMinor === null || rate === null ? null : toEuros(next.feeMinor, rate.rate) };
}

/** The years of a patent's payment ledger (decision 191), oldest first, each with its receipt when one proves it. */
export async function patentLedgerYears(db: Executor, patent: Pick<PatentRecordDto, '_id' | 'idbrevet'>): Promise<PatentLedgerYearDto[]> {
  const rows = await db
    .select({ year: patentLedger, fileName: receipts.fileName })
    .from(patentLedger)
    .leftJoin(receipts, eq(receipts.id, patentLedger.receiptId))
    .where(eq(patentLedger.patentKey, patentKeyOf({ id: patent._id, idbrevet: patent.idbrevet })))
    .orderBy(asc(patentLedger.annuityYear));
  return rows.map(({ year, fileName }) => ({
    year: year.annuityYear,
    state: year.state,
    source: year.source,
    state_at: year.stateAt.toISOString(),
    paid_on: year.paidOn,
    amount: year.amount === null ? null : Number(year.amount),
    currency: year.currency,
    receipt: year.receiptId !== null && fileName !== null ? { _id: year.receiptId, file_name: fileName } : null,
  }));
}

/**
 * The next annuity's cost part by part (issue 30 §1, decision 199): the engine's next annuity, or, when
 * the engine cannot schedule the patent, the record's own due date and number; null when neither gives one.
 * Priced on the annuity's planned payment day, with the tables and the ECB rate in force that day.
 */
export async function patentCosts(ctx: AppContext, patent: PatentRecordDto): Promise<PatentCostsDto | null> {
  const day = today(ctx);
  const computed = scheduleOf({ pays: patent.Pays, origine: patent.Origine, dateDepot: patent.Depot, quantieme: patent.Quantieme }, day);
  let next: Annuity | null = computed.ok ? computed.next : null;
  if (!computed.ok) {
    const office = officeOfCountry(patent.Pays);
    const due = patent.DateEcheance === null ? null : parseIsoDate(patent.DateEcheance);
    const now = parseIsoDate(day);
    if (office !== null && due !== null && now !== null && patent.Quantieme !== null && patent.Quantieme > 0) {
      const stored = annuityFromDue(office, due, patent.Quantieme);
      // Priced as the engine does: on its due date, or today once that is past.
      next = now > stored.due ? { ...stored, paymentDay: now } : stored;
    }
  }
  if (next === null) return null;
  const payDay = formatIsoDate(next.paymentDay);
  const tables = await loadCostTables(ctx.db, { cabinetIds: [patent.cabinet._id], currencies: [next.currency], fromDay: payDay, toDay: payDay });
  return costsToWire(next, costOf(tables, next, patent.cabinet._id));
}
