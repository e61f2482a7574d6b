import { addDays, annuityFromDue, formatIsoDate, officeOfCountry, parseIsoDate, type CostPartKind, type Day } from '@portal/annuities/core';
import type { RENEWAL_CALL_STEPS } from '@portal/db';
import { costOf, type CostTables } from '../costs/load.ts';

/*
 * Renewal calls (issue 30 §3, decision 202): the dates and amounts of a call's items, pure. Every date is the
 * annuity engine's calendar; the web only shows what the server computed.
 */

export type CallStep = (typeof RENEWAL_CALL_STEPS)[number];

export interface CallSettings {
  windowDays: number;
  marginDays: number;
  reminderDays: number;
}

export const DEFAULT_CALL_SETTINGS: CallSettings = { windowDays: 90, marginDays: 30, reminderDays: 14 };

/** One visible part of an item's cost, as the patent's detail shows it (`costBreakdown`, decision 199). */
export interface CostPart {
  part: CostPartKind;
  amountMinor: number;
  currency: string;
  /** In euro cents at the ECB rate of the payment day; null without a rate. */
  eurMinor: number | null;
}

export interface CallItemInput {
  recordId: string;
  /** The patent's cabinet, whose service fee and margin apply. */
  cabinetId: string | null;
  pays: string;
  quantieme: number | null;
  dueDate: string;
}

export interface PricedItem {
  /** Engine currency (EUR, GBP, SEK); null when the office is not one the engine knows. */
  currency: string | null;
  /** The day the fee is priced on: the due date, or the day itself once in grace. */
  payDay: string;
  inGrace: boolean;
  /** Last day the right may be kept (engine's `lost after`); null when unknown. */
  lostAfter: string | null;
  parts: CostPart[];
  /** Sum of every part in euro cents (the detail's total); null when no fee is known or a part has no rate. */
  totalMinor: number | null;
}

/** The currency of every item's total: the parts are summed in euros at the ECB rate (decision 199). */
export const CALL_TOTAL_CURRENCY = 'EUR';


const day = (text: string): Day => {
  const d = parseIsoDate(text);
  if (d === null) throw new Error(`not a day: ${text}`);
  return d;
};

/** "Instruct before": the due date minus the cabinet's margin. */
export function instructBefore(dueDate: string, marginDays: number): string {
  return formatIsoDate(addDays(day(dueDate), -marginDays));
}

/** The last day of a call's window opened on `today`. */
export function windowEnd(today: string, windowDays: number): string {
  return formatIsoDate(addDays(day(today), windowDays));
}

/** The day the reminder is due: `reminderDays` before "instruct before". */
export function reminderDay(instructBeforeDay: string, reminderDays: number): string {
  return formatIsoDate(addDays(day(instructBeforeDay), -reminderDays));
}

/**
 * The item's cost on `today`, through the one pricing path of the portal (`costBreakdown`, as the patent's detail and the
 * forecast): the official fee in force on the planned payment day (the due date, or today once the due date has passed),
 * in grace the engine's surcharge for a payment today, then the agent's fee, the cabinet's service fee and its margin
 * from the admin tables (none without `tables`, read once per run or preview by `loadCostTables`), each in euros at the ECB rate of that day.
 */
export function priceItem(item: CallItemInput, today: string, tables: CostTables = NO_TABLES): PricedItem {
  const office = officeOfCountry(item.pays);
  const inGrace = today > item.dueDate;
  const payDay = inGrace ? today : item.dueDate;
  if (office === null) return { currency: null, payDay, inGrace, lostAfter: null, parts: [], totalMinor: null };
  const annuity = annuityFromDue(office, day(item.dueDate), item.quantieme ?? 0);
  const lostAfter = formatIsoDate(annuity.graceEndLatest);
  if (annuity.number <= 0) return { currency: annuity.currency, payDay, inGrace, lostAfter, parts: [], totalMinor: null };
  const cost = costOf(tables, annuity, item.cabinetId, day(payDay));
  const parts = cost.parts.map((p) => ({ part: p.kind, amountMinor: p.amountMinor, currency: p.currency, eurMinor: p.eurMinor }));
  const priced = parts.some((p) => p.part === 'official_fee');
  return { currency: annuity.currency, payDay, inGrace, lostAfter, parts, totalMinor: priced ? cost.totalEurMinor : null };
}

/** No admin row and no rate: the engine's parts alone (euro offices get their euros, others none). */
const NO_TABLES: CostTables = { agentFeesByOffice: new Map(), serviceFeesByCabinet: new Map(), rates: new Map() };

/** The amount of one named part of an item (0 when absent). */
export const partOf = (item: PricedItem, part: string) => item.parts.filter((p) => p.part === part).reduce((sum, p) => sum + p.amountMinor, 0);

/** The total of the items' totals (in euros), as a list per currency (one, or none when no item has a total). */
export function totalsPerCurrency(items: readonly PricedItem[]): { currency: string; totalMinor: number }[] {
  const priced = items.filter((i) => i.totalMinor !== null);
  if (priced.length === 0) return [];
  return [{ currency: CALL_TOTAL_CURRENCY, totalMinor: priced.reduce((sum, i) => sum + i.totalMinor!, 0) }];
}

/**
 * The step a call is at on `today`, from its open items: last call once one of them is past its due date
 * (in grace, surcharge shown), reminder from `reminderDays` before the earliest "instruct before", else
 * first call. Windows, not exact days: a day the schedule missed is caught up the next day.
 */
export function stepOn(today: string, items: readonly { dueDate: string; instructBefore: string }[], settings: CallSettings): CallStep | null {
  if (items.length === 0) return null;
  if (items.some((i) => today > i.dueDate)) return 'last_call';
  if (today >= reminderDay(earliestInstructBefore(items), settings.reminderDays)) return 'reminder';
  return 'first_call';
}

const ORDER: Readonly<Record<CallStep, number>> = { first_call: 0, reminder: 1, last_call: 2 };

/** A step already sent, and the day it went. */
export interface SentStep {
  step: CallStep;
  sentOn: string;
}

/**
 * Whether the first call went out on or after the reminder's day (a call opened late, inside its reminder window):
 * it then stands for the reminder, which would otherwise follow it the next day saying the same thing.
 */
function firstCallCoversReminder(sent: readonly SentStep[], reminderOn: string): boolean {
  return sent.some((s) => s.step === 'first_call' && s.sentOn >= reminderOn);
}

const earliestInstructBefore = (items: readonly { instructBefore: string }[]) => items.reduce((min, i) => (i.instructBefore < min ? i.instructBefore : min), items[0]!.instructBefore);

/**
 * The step the schedule sends on `today`, if any: the current one, unless it or a later one was already sent (a call
 * never goes back). A call opened late starts with its first call rather than a reminder of a call never sent, and
 * that first call stands for the reminder; a call already in grace goes straight to its last call.
 */
export function stepToSend(today: string, items: readonly { dueDate: string; instructBefore: string }[], settings: CallSettings, sent: readonly SentStep[]): CallStep | null {
  const current = stepOn(today, items, settings);
  if (current === null) return null;
  if (sent.some((s) => ORDER[s.step] >= ORDER[current])) return null;
  if (current === 'reminder' && sent.length === 0) return 'first_call';
  if (current === 'reminder' && firstCallCoversReminder(sent, reminderDay(earliestInstructBefore(items), settings.reminderDays))) return null;
  return current;
}

/**
 * The next step after the ones sent, and the day it falls due (the staff screen); with `now`, the step "send now"
 * sends: the reminder a late first call stands for is skipped by the schedule, not by staff who ask for it.
 */
export function nextStep(
  today: string,
  items: readonly { dueDate: string; instructBefore: string }[],
  settings: CallSettings,
  sent: readonly SentStep[],
  { now = false }: { now?: boolean } = {},
): { step: CallStep; on: string } | null {
  if (items.length === 0) return null;
  const last = sent.reduce((max, s) => Math.max(max, ORDER[s.step]), -1);
  const earliestDue = items.reduce((min, i) => (i.dueDate < min ? i.dueDate : min), items[0]!.dueDate);
  const reminderOn = reminderDay(earliestInstructBefore(items), settings.reminderDays);
  const candidates: { step: CallStep; on: string }[] = [
    { step: 'first_call', on: today },
    ...(now || !firstCallCoversReminder(sent, reminderOn) ? [{ step: 'reminder' as const, on: reminderOn }] : []),
    { step: 'last_call', on: formatIsoDate(addDays(day(earliestDue), 1)) },
  ];
  const next = candidates.find((c) => ORDER[c.step] > last);
  if (!next) return null;
  return { step: next.step, on: next.on < today ? today : next.on };
}
