import { formatIsoDate, parseIsoDate, type Day } from './calendar.ts';
import { pickEcbRate, toEuroMinor, type EcbRate } from './ecb.ts';
import { feeOn, surchargeOn, type Annuity } from './schedule.ts';

/*
 * The cost of an annuity as visible parts (issue 30 §1): the official fee from the dated table, the
 * grace surcharge, the agent's fee of the office, the cabinet's service fee and, if the cabinet adds
 * one, its margin as a line of its own; every part in its currency and in euros at the ECB reference
 * rate of the payment day (or the last published before it), with that rate's day. Pure: the caller
 * passes the admin tables and the rates it read.
 */

export type CostPartKind = 'official_fee' | 'surcharge' | 'agent_fee' | 'service_fee' | 'margin';

/** A dated amount from an admin-managed table (the agent's fee of an office, a cabinet's service fee). */
export interface DatedAmount {
  readonly id: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly validFrom: string;
  /** Last day in force; null while open. */
  readonly validUntil: string | null;
}

/** A cabinet's service fee, and the margin it adds, in basis points (100 = 1 %) of the parts before it, if any. */
export interface ServiceFee extends DatedAmount {
  readonly marginBp: number | null;
}

export interface CostPart {
  readonly kind: CostPartKind;
  readonly amountMinor: number;
  readonly currency: string;
  /** In euro cents at `rate`; null when no rate is known for the currency on that day. */
  readonly eurMinor: number | null;
  /** Where the amount comes from: a fee table id (`SE-2023-03-18`), an admin row's id, or the margin's basis points. */
  readonly ref: string;
  readonly validFrom: string | null;
  readonly validUntil: string | null;
  /** official_fee: read in an official text in force on that day; surcharge: of such a fee; other parts: true. */
  readonly verified: boolean;
}

export interface CostRate {
  readonly currency: string;
  readonly perEur: string;
  /** The ECB's day of the rate used (the payment day or the last published before it). */
  readonly day: string;
}

export interface CostBreakdown {
  readonly paymentDay: string;
  readonly parts: readonly CostPart[];
  /** The rates used, one per currency other than EUR. */
  readonly rates: readonly CostRate[];
  /** Sum of every part in euros; null when a part has no rate (a total is never shown partial). */
  readonly totalEurMinor: number | null;
  /** The payment falls after the last day of grace: nothing can be paid, no part is computed. */
  readonly lapsed: boolean;
}

export interface CostInput {
  readonly annuity: Annuity;
  /** The planned payment day (defaults to the annuity's `paymentDay`). */
  readonly payDay?: Day;
  /** Every agent's fee of the annuity's office (any validity); the one in force on the payment day is used. */
  readonly agentFees?: readonly DatedAmount[];
  /** Every service fee of the patent's cabinet (any validity). */
  readonly serviceFees?: readonly ServiceFee[];
  /** ECB rates by currency (any order). */
  readonly rates: ReadonlyMap<string, readonly EcbRate[]>;
}

/** The row in force on `day` (from its start to its end, both included); the latest start wins an overlap. */
export function inForce<T extends { readonly validFrom: string; readonly validUntil: string | null }>(rows: readonly T[], day: string): T | null {
  let best: T | null = null;
  for (const r of rows) {
    if (r.validFrom > day || (r.validUntil !== null && r.validUntil < day)) continue;
    if (best === null || r.validFrom > best.validFrom) best = r;
  }
  return best;
}

/** Basis points of an amount in cents, rounded half up. */
function ofBp(minor: number, bp: number): number {
  return Math.floor((minor * bp + 5000) / 10000);
}

export function costBreakdown(input: CostInput): CostBreakdown {
  const { annuity } = input;
  const payDay = input.payDay ?? annuity.paymentDay;
  const day = formatIsoDate(payDay);
  const usedRates = new Map<string, CostRate | null>();
  const rateOf = (currency: string): CostRate | null => {
    if (currency === 'EUR') return null;
    if (!usedRates.has(currency)) {
      const r = pickEcbRate(input.rates.get(currency) ?? [], day);
      usedRates.set(currency, r === null ? null : { currency, perEur: r.perEur, day: r.day });
    }
    return usedRates.get(currency) ?? null;
  };
  const eurOf = (minor: number, currency: string): number | null => {
    if (currency === 'EUR') return minor;
    const r = rateOf(currency);
    return r === null ? null : toEuroMinor(minor, r.perEur);
  };

  const surcharge = surchargeOn(annuity, payDay);
  if (surcharge === null) return { paymentDay: day, parts: [], rates: [], totalEurMinor: null, lapsed: true };

  const parts: CostPart[] = [];
  const fee = feeOn(annuity, payDay);
  if (annuity.number > 0 && fee.feeMinor !== null) {
    const validFrom = formatIsoDate(fee.table.validFrom);
    const validUntil = fee.table.validUntil === null ? null : formatIsoDate(fee.table.validUntil);
    parts.push({ kind: 'official_fee', amountMinor: fee.feeMinor, currency: fee.currency, eurMinor: eurOf(fee.feeMinor, fee.currency), ref: fee.table.id, validFrom, validUntil, verified: fee.verified });
    if (surcharge > 0) {
      const currency = annuity.surcharge.type === 'flat' || annuity.surcharge.type === 'per_late_month' ? annuity.surcharge.currency : fee.currency;
      parts.push({ kind: 'surcharge', amountMinor: surcharge, currency, eurMinor: eurOf(surcharge, currency), ref: annuity.surcharge.type, validFrom: null, validUntil: null, verified: fee.verified });
    }
  }
  const agent = inForce(input.agentFees ?? [], day);
  if (agent !== null) {
    parts.push({ kind: 'agent_fee', amountMinor: agent.amountMinor, currency: agent.currency, eurMinor: eurOf(agent.amountMinor, agent.currency), ref: agent.id, validFrom: agent.validFrom, validUntil: agent.validUntil, verified: true });
  }
  const service = inForce(input.serviceFees ?? [], day);
  if (service !== null) {
    // The margin is of the parts before it (official fee, surcharge, agent's fee), in euros: a visible line, never folded in.
    const base = parts.reduce<number | null>((sum, p) => (sum === null || p.eurMinor === null ? null : sum + p.eurMinor), 0);
    if (service.amountMinor > 0) {
      parts.push({ kind: 'service_fee', amountMinor: service.amountMinor, currency: service.currency, eurMinor: eurOf(service.amountMinor, service.currency), ref: service.id, validFrom: service.validFrom, validUntil: service.validUntil, verified: true });
    }
    if (service.marginBp !== null && service.marginBp > 0 && base !== null) {
      const margin = ofBp(base, service.marginBp);
      parts.push({ kind: 'margin', amountMinor: margin, currency: 'EUR', eurMinor: margin, ref: `${service.id}:${service.marginBp}bp`, validFrom: service.validFrom, validUntil: service.validUntil, verified: true });
    }
  }
  const total = parts.reduce<number | null>((sum, p) => (sum === null || p.eurMinor === null ? null : sum + p.eurMinor), 0);
  const rates = [...usedRates.values()].filter((r): r is CostRate => r !== null).sort((a, b) => a.currency.localeCompare(b.currency));
  return { paymentDay: day, parts, rates, totalEurMinor: parts.length === 0 ? null : total, lapsed: false };
}

/** An ISO day string checked (the admin tables' dates come as text from the database). */
export function isIsoDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && parseIsoDate(text) !== null;
}
