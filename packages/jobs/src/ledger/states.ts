import { LEDGER_STATES, type LEDGER_SOURCES } from '@portal/db';

/*
 * The payment ledger's transitions (decision 191): pure, no I/O. A year's state moves only through
 * `transition`, which says which source may move which state to which; the writer (`write.ts`) applies
 * it under the year's row lock.
 */

export type LedgerState = (typeof LEDGER_STATES)[number];
export type LedgerSource = (typeof LEDGER_SOURCES)[number];
export { LEDGER_STATES };

/** Sources that carry an agent's (or the back office's) instruction. */
export const INSTRUCTION_SOURCES = ['screen', 'bulk', 'sync', 'import', 'submission', 'edit'] as const satisfies readonly LedgerSource[];
export type InstructionLedgerSource = (typeof INSTRUCTION_SOURCES)[number];

/** The payment instruction "Do not pay" (migration 0007: ids 1 to 4 are part of the contract with the back office). */
export const DO_NOT_PAY = 2;
/** "Wait": no decision yet. */
export const WAIT = 4;

/** What happened to a year. */
export type LedgerEvent =
  /** An instruction given or cleared (null) by an agent's screen, the bulk update, the back office's sync or import, a submission or an edit. */
  | { kind: 'instruction'; source: InstructionLedgerSource; instructionId: number | null }
  /** Staff validated the instruction: it goes to the back office to be ordered. */
  | { kind: 'validation' }
  /** The back office records the payment to the office (its sync or import: `date_paiement_office`, `date_acquit`). */
  | { kind: 'office_payment'; source: 'sync' | 'import'; paidOn: string }
  /** A receipt proves the payment: linked by the matcher (`receipt`) or by staff (`staff`). */
  | { kind: 'receipt'; source: 'receipt' | 'staff'; receiptId: string; paidOn: string | null; amount: string | null; currency: string | null }
  /** The office's register says the fee is recorded (confirmed) or the right lapsed. */
  | { kind: 'register'; state: 'confirmed' | 'lapsed' };

export type Transition =
  /** `changed` false: the state stays (the event may still complete the row, e.g. a second receipt). */
  | { ok: true; state: LedgerState; changed: boolean }
  /** The event may not move this state: the year is left as it is, and the caller decides whether that is an error. */
  | { ok: false; reason: 'after_payment' | 'after_order' | 'year_lapsed' };

/** The state an instruction asks for: pay (1) or a third party pays (3) → instructed; do not pay (2) → abandoned; wait (4) or none → due. */
export function instructedState(instructionId: number | null): LedgerState {
  if (instructionId === null || instructionId === WAIT) return 'due';
  return instructionId === DO_NOT_PAY ? 'abandoned' : 'instructed';
}

const PAID_OR_AFTER: ReadonlySet<LedgerState> = new Set(['paid', 'confirmed']);

const same = (state: LedgerState): Transition => ({ ok: true, state, changed: false });
const to = (from: LedgerState, state: LedgerState): Transition => ({ ok: true, state, changed: from !== state });

/**
 * Which source may move which state to which:
 * - an instruction moves due / instructed / abandoned between themselves; once ordered (validated) only the
 *   back office's sync or import (it is the one that orders) or an admin's edit may change it; never after a
 *   payment or a lapse;
 * - validation: instructed → ordered; a "do not pay" (abandoned) or "wait" (due) stays as it is;
 * - a receipt (or staff linking one) marks `paid` whatever the instruction; a confirmed year stays confirmed;
 *   a year the register says lapsed is not revived by a receipt (a discrepancy for staff, issue 29 §3);
 * - the back office's payment to the office marks `paid` the same way;
 * - `confirmed` and `lapsed` come only from the register, which may set them from any state.
 */
export function transition(from: LedgerState, event: LedgerEvent): Transition {
  switch (event.kind) {
    case 'instruction': {
      const target = instructedState(event.instructionId);
      if (PAID_OR_AFTER.has(from)) return from === 'paid' && target === 'instructed' ? same(from) : { ok: false, reason: 'after_payment' };
      if (from === 'lapsed') return { ok: false, reason: 'year_lapsed' };
      // Once ordered, only the back office (it orders) or an admin's edit (which sends it back to validation) changes it.
      if (from === 'ordered' && event.source !== 'sync' && event.source !== 'import' && event.source !== 'edit') return { ok: false, reason: 'after_order' };
      if (from === 'ordered' && target === 'instructed') return same(from);
      return to(from, target);
    }
    case 'validation':
      if (from === 'instructed') return to(from, 'ordered');
      if (from === 'ordered' || from === 'abandoned' || from === 'due') return same(from);
      if (from === 'lapsed') return { ok: false, reason: 'year_lapsed' };
      return { ok: false, reason: 'after_payment' };
    case 'office_payment':
    case 'receipt':
      if (from === 'confirmed' || from === 'paid') return same(from);
      if (from === 'lapsed') return { ok: false, reason: 'year_lapsed' };
      return to(from, 'paid');
    case 'register':
      return to(from, event.state);
  }
}

/** The source recorded for an event. */
export function sourceOf(event: LedgerEvent): LedgerSource {
  switch (event.kind) {
    case 'instruction':
    case 'office_payment':
    case 'receipt':
      return event.source;
    case 'validation':
      return 'validation';
    case 'register':
      return 'register';
  }
}

/** What a portfolio record says of its own year before the ledger knew it (a record from before migration 0023). */
export function recordState(record: { instructionId: number | null; instructionStatus: string; datePaiementOffice: string | null; dateAcquit: string | null }): LedgerState {
  if (record.datePaiementOffice !== null || record.dateAcquit !== null) return 'paid';
  const state = instructedState(record.instructionId);
  return state === 'instructed' && record.instructionStatus === 'validated' ? 'ordered' : state;
}
