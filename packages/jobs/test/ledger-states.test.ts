import { describe, expect, it } from 'vitest';
import { LEDGER_STATES, instructedState, recordState, transition, type LedgerEvent, type LedgerState } from '../src/ledger/states.ts';

/*
 * Decision 191: every (state, event) pair of the ledger's transition function, written out as a table
 * (a cell is the next state, '=' the same state unchanged, or the refusal's reason).
 */

const receipt: LedgerEvent = { kind: 'receipt', source: 'receipt', receiptId: 'r', paidOn: '2026-03-12', amount: '100.00', currency: 'EUR' };
const EVENTS: Record<string, LedgerEvent> = {
  'screen pay': { kind: 'instruction', source: 'screen', instructionId: 1 },
  'bulk do-not-pay': { kind: 'instruction', source: 'bulk', instructionId: 2 },
  'screen third-party': { kind: 'instruction', source: 'screen', instructionId: 3 },
  'screen wait': { kind: 'instruction', source: 'screen', instructionId: 4 },
  'sync pay': { kind: 'instruction', source: 'sync', instructionId: 1 },
  'sync do-not-pay': { kind: 'instruction', source: 'sync', instructionId: 2 },
  'sync cleared': { kind: 'instruction', source: 'sync', instructionId: null },
  'edit do-not-pay': { kind: 'instruction', source: 'edit', instructionId: 2 },
  'submission pay': { kind: 'instruction', source: 'submission', instructionId: 1 },
  validation: { kind: 'validation' },
  'office payment': { kind: 'office_payment', source: 'sync', paidOn: '2026-03-12' },
  receipt,
  'staff link': { ...receipt, source: 'staff' },
  'register confirmed': { kind: 'register', state: 'confirmed' },
  'register lapsed': { kind: 'register', state: 'lapsed' },
};

// prettier-ignore
const TABLE: Record<string, Record<LedgerState, string>> = {
  //                        due            instructed     ordered        paid            confirmed       abandoned      lapsed
  'screen pay':           { due: 'instructed', instructed: '=',   ordered: 'after_order', paid: '=',             confirmed: 'after_payment', abandoned: 'instructed', lapsed: 'year_lapsed' },
  'bulk do-not-pay':      { due: 'abandoned',  instructed: 'abandoned', ordered: 'after_order', paid: 'after_payment', confirmed: 'after_payment', abandoned: '=', lapsed: 'year_lapsed' },
  'screen third-party':   { due: 'instructed', instructed: '=',   ordered: 'after_order', paid: '=',             confirmed: 'after_payment', abandoned: 'instructed', lapsed: 'year_lapsed' },
  'screen wait':          { due: '=',          instructed: 'due', ordered: 'after_order', paid: 'after_payment', confirmed: 'after_payment', abandoned: 'due', lapsed: 'year_lapsed' },
  'sync pay':             { due: 'instructed', instructed: '=',   ordered: '=',           paid: '=',             confirmed: 'after_payment', abandoned: 'instructed', lapsed: 'year_lapsed' },
  'sync do-not-pay':      { due: 'abandoned',  instructed: 'abandoned', ordered: 'abandoned', paid: 'after_payment', confirmed: 'after_payment', abandoned: '=', lapsed: 'year_lapsed' },
  'sync cleared':         { due: '=',          instructed: 'due', ordered: 'due',         paid: 'after_payment', confirmed: 'after_payment', abandoned: 'due', lapsed: 'year_lapsed' },
  'edit do-not-pay':      { due: 'abandoned',  instructed: 'abandoned', ordered: 'abandoned', paid: 'after_payment', confirmed: 'after_payment', abandoned: '=', lapsed: 'year_lapsed' },
  'submission pay':       { due: 'instructed', instructed: '=',   ordered: 'after_order', paid: '=',             confirmed: 'after_payment', abandoned: 'instructed', lapsed: 'year_lapsed' },
  validation:             { due: '=',          instructed: 'ordered', ordered: '=',       paid: 'after_payment', confirmed: 'after_payment', abandoned: '=', lapsed: 'year_lapsed' },
  'office payment':       { due: 'paid',       instructed: 'paid', ordered: 'paid',       paid: '=',             confirmed: '=',             abandoned: 'paid', lapsed: 'year_lapsed' },
  receipt:                { due: 'paid',       instructed: 'paid', ordered: 'paid',       paid: '=',             confirmed: '=',             abandoned: 'paid', lapsed: 'year_lapsed' },
  'staff link':           { due: 'paid',       instructed: 'paid', ordered: 'paid',       paid: '=',             confirmed: '=',             abandoned: 'paid', lapsed: 'year_lapsed' },
  'register confirmed':   { due: 'confirmed',  instructed: 'confirmed', ordered: 'confirmed', paid: 'confirmed', confirmed: '=',         abandoned: 'confirmed', lapsed: 'confirmed' },
  'register lapsed':      { due: 'lapsed',     instructed: 'lapsed', ordered: 'lapsed',   paid: 'lapsed',        confirmed: 'lapsed',        abandoned: 'lapsed', lapsed: '=' },
};

const REASONS = new Set(['after_payment', 'after_order', 'year_lapsed']);

describe('ledger transitions (decision 191)', () => {
  it('the table covers every state and every kind of event', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(EVENTS).sort());
    for (const row of Object.values(TABLE)) expect(Object.keys(row).sort()).toEqual([...LEDGER_STATES].sort());
    expect(new Set(Object.values(EVENTS).map((e) => e.kind))).toEqual(new Set(['instruction', 'validation', 'office_payment', 'receipt', 'register']));
  });

  for (const [name, event] of Object.entries(EVENTS)) {
    for (const from of LEDGER_STATES) {
      const expected = TABLE[name]![from];
      it(`${from} + ${name} → ${expected}`, () => {
        const result = transition(from, event);
        if (expected === '=') expect(result).toEqual({ ok: true, state: from, changed: false });
        else if (REASONS.has(expected)) expect(result).toEqual({ ok: false, reason: expected });
        else expect(result).toEqual({ ok: true, state: expected, changed: true });
      });
    }
  }

  it('only the register ever yields confirmed or lapsed', () => {
    for (const [name, event] of Object.entries(EVENTS)) {
      if (event.kind === 'register') continue;
      for (const from of LEDGER_STATES) {
        const result = transition(from, event);
        if (result.ok && result.changed) expect(['confirmed', 'lapsed'], `${from} + ${name}`).not.toContain(result.state);
      }
    }
  });

  it('reads an instruction and a record from before the ledger', () => {
    expect([1, 2, 3, 4, null].map(instructedState)).toEqual(['instructed', 'abandoned', 'instructed', 'due', 'due']);
    const record = { instructionId: 1, instructionStatus: 'validated', datePaiementOffice: null, dateAcquit: null };
    expect(recordState(record)).toBe('ordered');
    expect(recordState({ ...record, instructionStatus: 'processed' })).toBe('instructed');
    expect(recordState({ ...record, instructionId: 2 })).toBe('abandoned');
    expect(recordState({ ...record, datePaiementOffice: '2026-01-02' })).toBe('paid');
    expect(recordState({ ...record, instructionId: null, instructionStatus: 'unprocessed' })).toBe('due');
  });
});
