import { addDays, annuityFromDue, feeOn, formatIsoDate, officeOfCountry, parseIsoDate, surchargeOn, type Day } from '@portal/annuities/core';
import type { RENEWAL_CALL_STEPS } from '@portal/db';

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

/** One visible part of an item's cost. `official_fee` and `surcharge` come from the engine; other parts are added through `CostPartSource`. */
export interface CostPart {
  part: string;
  amountMinor: number;
  currency: string;
}

/** The seam for the other parts of a cost (agent's fee, service fee, exchange rate: issue 30 §1): given an item, its extra parts. */
export type CostPartSource = (item: CallItemInput, payDay: string) => CostPart[];

export interface CallItemInput {
  recordId: string;
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
  /** Sum of the parts in `currency`; null when no fee is known. */
  totalMinor: number | null;
}

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
 * The item's cost on `today`: the official fee in force on the planned payment day (the due date, or today
 * once the due date has passed) and, in grace, the surcharge the engine computes for a payment today.
 */
export function priceItem(item: CallItemInput, today: string, extra?: CostPartSource): PricedItem {
  const office = officeOfCountry(item.pays);
  const inGrace = today > item.dueDate;
  const payDay = inGrace ? today : item.dueDate;
  if (office === null) return { currency: null, payDay, inGrace, lostAfter: null, parts: extra?.(item, payDay) ?? [], totalMinor: null };
  const annuity = annuityFromDue(office, day(item.dueDate), item.quantieme ?? 0);
  const fee = annuity.number > 0 ? feeOn(annuity, day(payDay)) : null;
  const parts: CostPart[] = [];
  if (fee && fee.feeMinor !== null) parts.push({ part: 'official_fee', amountMinor: fee.feeMinor, currency: fee.currency });
  const surcharge = inGrace && annuity.number > 0 ? surchargeOn(annuity, day(payDay)) : 0;
  if (surcharge !== null && surcharge > 0) parts.push({ part: 'surcharge', amountMinor: surcharge, currency: annuity.currency });
  parts.push(...(extra?.(item, payDay) ?? []));
  const own = parts.filter((p) => p.currency === annuity.currency);
  return {
    currency: annuity.currency,
    payDay,
    inGrace,
    lostAfter: formatIsoDate(annuity.graceEndLatest),
    parts,
    totalMinor: fee && fee.feeMinor !== null ? own.reduce((sum, p) => sum + p.amountMinor, 0) : null,
  };
}

/** The amount of one named part of an item (0 when absent). */
export const partOf = (item: PricedItem, part: string) => item.parts.filter((p) => p.part === part).reduce((sum, p) => sum + p.amountMinor, 0);

/** Totals per currency of the items' totals, currencies in alphabetical order. */
export function totalsPerCurrency(items: readonly PricedItem[]): { currency: string; totalMinor: number }[] {
  const totals = new Map<string, number>();
  for (const item of items) if (item.currency !== null && item.totalMinor !== null) totals.set(item.currency, (totals.get(item.currency) ?? 0) + item.totalMinor);
  return [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, totalMinor]) => ({ currency, totalMinor }));
}

/**
 * The step a call is at on `today`, from its open items: last call once one of them is past its due date
 * (in grace, surcharge shown), reminder from `reminderDays` before the earliest "instruct before", else
 * first call. Windows, not exact days: a day the schedule missed is caught up the next day.
 */
export function stepOn(today: string, items: readonly { dueDate: string; instructBefore: string }[], settings: CallSettings): CallStep | null {
  if (items.length === 0) return null;
  if (items.some((i) => today > i.dueDate)) return 'last_call';
  const earliest = items.reduce((min, i) => (i.instructBefore < min ? i.instructBefore : min), items[0]!.instructBefore);
  if (today >= reminderDay(earliest, settings.reminderDays)) return 'reminder';
  return 'first_call';
}

const ORDER: Readonly<Record<CallStep, number>> = { first_call: 0, reminder: 1, last_call: 2 };

/**
 * The step to send on `today`, if any: the current one, unless it or a later one was already sent (a call never
 * goes back). A call opened late starts with its first call rather than a reminder of a call never sent; a call
 * already in grace goes straight to its last call.
 */
export function stepToSend(current: CallStep | null, sent: readonly CallStep[]): CallStep | null {
  if (current === null) return null;
  if (sent.some((s) => ORDER[s] >= ORDER[current])) return null;
  if (current === 'reminder' && sent.length === 0) return 'first_call';
  return current;
}

/** The next step after the ones sent, and the day it falls due (for the staff screen). */
export function nextStep(today: string, items: readonly { dueDate: string; instructBefore: string }[], settings: CallSettings, sent: readonly CallStep[]): { step: CallStep; on: string } | null {
  if (items.length === 0) return null;
  const last = sent.reduce((max, s) => Math.max(max, ORDER[s]), -1);
  const earliestDue = items.reduce((min, i) => (i.dueDate < min ? i.dueDate : min), items[0]!.dueDate);
  const earliestBefore = items.reduce((min, i) => (i.instructBefore < min ? i.instructBefore : min), items[0]!.instructBefore);
  const candidates: { step: CallStep; on: string }[] = [
    { step: 'first_call', on: today },
    { step: 'reminder', on: reminderDay(earliestBefore, settings.reminderDays) },
    { step: 'last_call', on: formatIsoDate(addDays(day(earliestDue), 1)) },
  ];
  const next = candidates.find((c) => ORDER[c.step] > last);
  if (!next) return null;
  return { step: next.step, on: next.on < today ? today : next.on };
}
