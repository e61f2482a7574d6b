import { and, desc, eq, gte, inArray, lt, lte } from 'drizzle-orm';
import { costBreakdown, formatIsoDate, type Annuity, type CostBreakdown, type DatedAmount, type Day, type EcbRate, type ServiceFee } from '@portal/annuities/core';
import { agentFees, cabinetServiceFees, ecbRates, type Executor } from '@portal/db';

/*
 * What the cost of an annuity needs from the database (issue 30 §1, decision 199): the agents' fees
 * (every office, a small admin table), the service fees of the cabinets asked for, and the ECB rates of
 * the currencies asked for around the payment days. Read once per detail or export batch, never per row.
 */

export interface CostTables {
  readonly agentFeesByOffice: ReadonlyMap<string, readonly DatedAmount[]>;
  readonly serviceFeesByCabinet: ReadonlyMap<string, readonly ServiceFee[]>;
  readonly rates: ReadonlyMap<string, readonly EcbRate[]>;
}

/** Days back from the earliest payment day read in one go; an older last rate is read on its own. */
const RATE_WINDOW_DAYS = 31;

function shiftDay(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export async function loadCostTables(db: Executor, need: { cabinetIds: readonly string[]; currencies: readonly string[]; fromDay: string; toDay: string }): Promise<CostTables> {
  const agentRows = await db.select().from(agentFees);
  const agentFeesByOffice = new Map<string, DatedAmount[]>();
  const currencies = new Set(need.currencies);
  for (const r of agentRows) {
    const list = agentFeesByOffice.get(r.office) ?? [];
    list.push({ id: r.id, amountMinor: r.amountMinor, currency: r.currency, validFrom: r.validFrom, validUntil: r.validUntil });
    agentFeesByOffice.set(r.office, list);
    currencies.add(r.currency);
  }
  const serviceFeesByCabinet = new Map<string, ServiceFee[]>();
  const cabinetIds = [...new Set(need.cabinetIds)];
  if (cabinetIds.length > 0) {
    const rows = await db.select().from(cabinetServiceFees).where(inArray(cabinetServiceFees.cabinetId, cabinetIds));
    for (const r of rows) {
      const list = serviceFeesByCabinet.get(r.cabinetId) ?? [];
      list.push({ id: r.id, amountMinor: r.amountMinor, currency: r.currency, validFrom: r.validFrom, validUntil: r.validUntil, marginBp: r.marginBp });
      serviceFeesByCabinet.set(r.cabinetId, list);
      currencies.add(r.currency);
    }
  }
  currencies.delete('EUR');
  const rates = new Map<string, EcbRate[]>();
  const wanted = [...currencies];
  if (wanted.length > 0) {
    const from = shiftDay(need.fromDay, -RATE_WINDOW_DAYS);
    const rows = await db
      .select({ currency: ecbRates.currency, day: ecbRates.day, perEur: ecbRates.perEur })
      .from(ecbRates)
      .where(and(inArray(ecbRates.currency, wanted), gte(ecbRates.day, from), lte(ecbRates.day, need.toDay)));
    for (const r of rows) rates.set(r.currency, [...(rates.get(r.currency) ?? []), r]);
    // A currency without a rate in the window: its last rate before it, however old (the day is shown beside it).
    for (const currency of wanted) {
      const [last] = await db
        .select({ currency: ecbRates.currency, day: ecbRates.day, perEur: ecbRates.perEur })
        .from(ecbRates)
        .where(and(eq(ecbRates.currency, currency), lt(ecbRates.day, from)))
        .orderBy(desc(ecbRates.day))
        .limit(1);
      if (last) rates.set(currency, [last, ...(rates.get(currency) ?? [])]);
    }
  }
  return { agentFeesByOffice, serviceFeesByCabinet, rates };
}

/** The cost of `annuity` paid on `payDay` (its own planned payment day by default), for a patent of `cabinetId`. */
export function costOf(tables: CostTables, annuity: Annuity, cabinetId: string | null, payDay?: Day): CostBreakdown {
  return costBreakdown({
    annuity,
    ...(payDay === undefined ? {} : { payDay }),
    agentFees: tables.agentFeesByOffice.get(annuity.office) ?? [],
    serviceFees: cabinetId === null ? [] : (tables.serviceFeesByCabinet.get(cabinetId) ?? []),
    rates: tables.rates,
  });
}

/** Cents as a decimal number for the wire (EUR 82.02), exact for the amounts the portal handles. */
export const fromMinor = (minor: number): number => Math.round(minor) / 100;

/** The wire form of a breakdown (`patentCostsSchema` of `@portal/contracts`). */
export function costsToWire(annuity: Annuity, cost: CostBreakdown) {
  return {
    annuity: annuity.number,
    due_date: formatIsoDate(annuity.due),
    payment_date: cost.paymentDay,
    parts: cost.parts.map((p) => ({
      kind: p.kind,
      amount: fromMinor(p.amountMinor),
      currency: p.currency,
      amount_eur: p.eurMinor === null ? null : fromMinor(p.eurMinor),
      ref: p.ref,
      valid_from: p.validFrom,
      valid_until: p.validUntil,
      verified: p.verified,
    })),
    rates: cost.rates.map((r) => ({ currency: r.currency, per_eur: r.perEur, day: r.day, source: 'ECB' as const })),
    total_eur: cost.totalEurMinor === null ? null : fromMinor(cost.totalEurMinor),
    lapsed: cost.lapsed,
  };
}
