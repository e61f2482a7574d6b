import { formatIsoDate, type Day } from './calendar.ts';
import { formatMinor } from './fees.ts';
import type { SurchargeRule } from './offices.ts';
import type { Schedule } from './schedule.ts';

const iso = (d: Day | null | undefined): string | null => (d === null || d === undefined ? null : formatIsoDate(d));

function surchargeJson(rule: SurchargeRule): Record<string, unknown> {
  switch (rule.type) {
    case 'percent':
      return { type: 'percent', percent: rule.percent };
    case 'flat':
      return { type: 'flat', currency: rule.currency, bands: rule.bands.map((b) => ({ from_year: b.fromYear, amount: formatMinor(b.amountMinor) })) };
    case 'stepped_percent':
      return { type: 'stepped_percent', steps: rule.steps.map((s) => ({ until_months_after_due: s.untilMonths, percent: s.percent })) };
    case 'per_late_month':
      return { type: 'per_late_month', currency: rule.currency, amount: formatMinor(rule.amountMinor), max: formatMinor(rule.maxMinor) };
  }
}

/** The wire shape of a schedule: dates as YYYY-MM-DD, money as decimal strings, null where none. */
export function scheduleToJson(s: Schedule, url: string | null = null): Record<string, unknown> {
  return {
    office: s.office,
    origin: s.origin,
    filing_date: iso(s.filing),
    expiry_date: iso(s.expiry),
    annuities: s.annuities.map((a) => ({
      number: a.number,
      due_date: iso(a.due),
      payable_from: iso(a.payableFrom),
      no_surcharge_end: iso(a.noSurchargeEnd),
      no_surcharge_end_latest: iso(a.noSurchargeEndLatest),
      grace_end: iso(a.graceEnd),
      lost_after: iso(a.graceEndLatest),
      extension_unverified: a.extensionUnverified,
      closing_days_provisional: a.closingDaysProvisional,
      fee: a.feeMinor === null ? null : formatMinor(a.feeMinor),
      currency: a.currency,
      fee_table: a.feeTable,
      fee_verified: a.feeVerified,
      payment_date: iso(a.paymentDay),
      surcharge: surchargeJson(a.surcharge),
    })),
    quant_precedent: s.previous?.number ?? null,
    date_precedente_annuite: iso(s.previous?.due),
    next_number: s.next?.number ?? null,
    date_prochaine_annuite: iso(s.next?.due),
    instruction_limit: iso(s.instructionLimit),
    limite_date_prochaine_annuite: iso(s.nextLimit),
    lost_after: iso(s.nextLostAfter),
    in_grace_with_surcharge: s.inGraceWithSurcharge,
    dechu: s.lapsed,
    expired: s.expired,
    colour: s.colour,
    flags: [...s.flags],
    url,
  };
}
