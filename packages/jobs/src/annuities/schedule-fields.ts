import { formatIsoDate, formatMinor, type Day, type Schedule } from '@portal/annuities/core';

const iso = (d: Day | null | undefined) => (d === null || d === undefined ? null : formatIsoDate(d));

/**
 * The fields of a checked file's row (`annuity_patents`) that follow from its schedule: what the check
 * writes for a row and what an edit of the previous annuity recomputes. Without a schedule, the
 * row's "no date" values.
 */
export function scheduleFields(s: Schedule | null) {
  const next = s?.next ?? null;
  return {
    quantPrecedent: s?.previous?.number ?? null,
    datePrecedenteAnnuite: iso(s?.previous?.due),
    nextNumber: next?.number ?? null,
    dateProchaineAnnuite: iso(next?.due),
    instructionLimit: iso(s?.instructionLimit),
    limiteDateProchaineAnnuite: iso(s?.nextLimit),
    fee: next === null || next.feeMinor === null ? null : formatMinor(next.feeMinor),
    currency: next?.currency ?? null,
    dechu: s?.lapsed ?? false,
    missedNumber: s?.missed?.number ?? null,
    missedLostAfter: iso(s?.missed?.graceEndLatest),
    expired: s?.expired ?? false,
    inGraceWithSurcharge: s?.inGraceWithSurcharge ?? false,
    colour: s?.colour ?? 'no_date',
  };
}
