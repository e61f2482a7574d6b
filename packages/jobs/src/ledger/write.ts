import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import { rowsOf } from '../patents/rows.ts';
import { recordState, sourceOf, transition, type LedgerEvent, type LedgerState, type Transition } from './states.ts';

/*
 * The ledger's one writer (decision 191). Every caller passes its own transaction: the ledger changes
 * with the instruction, the validation, the sync or the receipt that causes it, or not at all.
 *
 * Concurrency: the records are locked first (id order), then each year's row is created if missing (`on conflict
 * do nothing`, which waits for a concurrent creator) and read FOR UPDATE in key order before the transition is
 * computed. A second
 * writer on the same year (an instruction and a receipt at the same moment) waits for the first to
 * commit and computes its transition from the committed state, so neither the state nor the trail
 * loses a change; key order keeps two writers of several years from deadlocking.
 */

/** The patent of a record on the ledger: the back office's `idbrevet`, else the record itself. */
export const PATENT_KEY_SQL = sql.raw(`coalesce(nullif(idbrevet, ''), 'record:' || id::text)`);
export const patentKeyOf = (record: { id: string; idbrevet: string | null }) => (record.idbrevet ? record.idbrevet : `record:${record.id}`);

export interface LedgerChange {
  /** The annuity record the event is about: its patent and its year (`quantieme`) name the ledger row. */
  recordId: string;
  event: LedgerEvent;
  userId?: string | null;
  /** The year when it is not the record's own (a receipt printing the year it pays). */
  annuityYear?: number | null;
  /**
   * The year's state before this change when the ledger has no row for it yet. Default: what the record
   * says now (`recordState`); a caller that already rewrote the record passes what it said before.
   */
  seed?: LedgerState;
}

export interface LedgerOutcome {
  recordId: string;
  patentKey: string;
  annuityYear: number;
  /** The transition; null when the record has no annuity year (no ledger row). */
  transition: Transition | null;
}

export interface LedgerWriteOptions {
  at: Date;
  /** Test seam: called with the years locked, before anything is computed (the concurrency test waits here). */
  afterLock?: () => Promise<void>;
}

interface RecordRow {
  id: string;
  patent_key: string;
  quantieme: number | null;
  instruction_id: number | null;
  instruction_status: string;
  date_paiement_office: string | null;
  date_acquit: string | null;
}

interface YearRow {
  patent_key: string;
  annuity_year: number;
  state: LedgerState;
  record_id: string | null;
}

const yearId = (key: string, year: number) => `${key}\u0000${year}`;
const yearOfChange = (change: LedgerChange, record: RecordRow | undefined) => change.annuityYear ?? record?.quantieme ?? null;

/** Applies `changes` in order, in `tx`; returns each one's outcome. Changes naming the same year apply one after the other. */
export async function writeLedger(tx: Executor, changes: readonly LedgerChange[], options: LedgerWriteOptions): Promise<LedgerOutcome[]> {
  if (changes.length === 0) return [];
  const ids = [...new Set(changes.map((c) => c.recordId))];
  // The records first, then the years: every writer takes its locks in this order (the instruction services hold
  // their records already), so a receipt and an instruction on one year wait for each other instead of deadlocking.
  // The other records of the same patent and year are locked too (their ledger_state is rewritten below).
  const records = new Map(
    rowsOf<RecordRow>(
      await tx.execute(sql`
        select id, ${PATENT_KEY_SQL} as patent_key, quantieme, instruction_id, instruction_status, date_paiement_office::text, date_acquit::text
        from patent_records
        where id = any(${sql.param(ids)}::uuid[])
           or (idbrevet, quantieme) in (select nullif(q.idbrevet, ''), q.quantieme from patent_records q where q.id = any(${sql.param(ids)}::uuid[]))
        order by id
        for update`),
    ).map((r) => [r.id, r]),
  );

  // Each year's row, created in the state the record gave it when the ledger did not know it yet.
  const seeds = new Map<string, { key: string; year: number; recordId: string; state: LedgerState }>();
  for (const change of changes) {
    const record = records.get(change.recordId);
    const year = yearOfChange(change, record);
    if (!record || year === null) continue;
    const id = yearId(record.patent_key, year);
    if (!seeds.has(id)) {
      // Another year than the record's own: the record says nothing of it.
      const state =
        change.seed ??
        (year === record.quantieme
          ? recordState({ instructionId: record.instruction_id, instructionStatus: record.instruction_status, datePaiementOffice: record.date_paiement_office, dateAcquit: record.date_acquit })
          : 'due');
      seeds.set(id, { key: record.patent_key, year, recordId: record.id, state });
    }
  }
  const years = [...seeds.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.year - b.year));
  if (years.length === 0) return changes.map((c) => ({ recordId: c.recordId, patentKey: '', annuityYear: -1, transition: null }));
  const at = options.at.toISOString();
  const keys = sql.param(years.map((y) => y.key));
  const numbers = sql.param(years.map((y) => y.year));
  await tx.execute(sql`
    insert into patent_ledger (patent_key, annuity_year, record_id, state, state_at)
    select k, y, r, s, ${at}::timestamptz
    from unnest(${keys}::text[], ${numbers}::integer[], ${sql.param(years.map((y) => y.recordId))}::uuid[], ${sql.param(years.map((y) => y.state))}::text[]) as v(k, y, r, s)
    order by k, y
    on conflict (patent_key, annuity_year) do nothing`);
  const locked = rowsOf<YearRow>(
    await tx.execute(sql`
      select l.patent_key, l.annuity_year, l.state, l.record_id::text
      from patent_ledger l join unnest(${keys}::text[], ${numbers}::integer[]) as v(k, y) on l.patent_key = v.k and l.annuity_year = v.y
      order by l.patent_key, l.annuity_year
      for update of l`),
  );
  await options.afterLock?.();

  const current = new Map(locked.map((r) => [yearId(r.patent_key, r.annuity_year), { ...r }]));
  const outcomes: LedgerOutcome[] = [];
  const events: Array<{ key: string; year: number; old: LedgerState; next: LedgerState; source: string; userId: string | null; receiptId: string | null }> = [];
  const updates = new Map<string, { key: string; year: number; state: LedgerState; source: string; recordId: string; paidOn: string | null; amount: string | null; currency: string | null; receiptId: string | null; touched: boolean }>();
  for (const change of changes) {
    const record = records.get(change.recordId);
    const year = yearOfChange(change, record);
    if (!record || year === null) {
      outcomes.push({ recordId: change.recordId, patentKey: record?.patent_key ?? '', annuityYear: -1, transition: null });
      continue;
    }
    const id = yearId(record.patent_key, year);
    const row = current.get(id)!;
    const result = transition(row.state, change.event);
    outcomes.push({ recordId: change.recordId, patentKey: record.patent_key, annuityYear: year, transition: result });
    if (!result.ok) continue;
    const event = change.event;
    const pending = updates.get(id) ?? { key: record.patent_key, year, state: row.state, source: sourceOf(event), recordId: record.id, paidOn: null, amount: null, currency: null, receiptId: null, touched: false };
    if (result.changed) {
      events.push({ key: record.patent_key, year, old: row.state, next: result.state, source: sourceOf(event), userId: change.userId ?? null, receiptId: event.kind === 'receipt' ? event.receiptId : null });
      pending.state = result.state;
      pending.source = sourceOf(event);
      pending.touched = true;
      row.state = result.state;
    }
    // A payment completes the row even when the state stays (a receipt for a year the back office already marked paid).
    if ((event.kind === 'receipt' || event.kind === 'office_payment') && (result.state === 'paid' || result.state === 'confirmed')) {
      pending.paidOn = event.paidOn;
      if (event.kind === 'receipt') {
        pending.receiptId = event.receiptId;
        pending.amount = event.amount;
        pending.currency = event.currency;
      }
      pending.touched = true;
    }
    updates.set(id, pending);
  }

  const written = [...updates.values()].filter((u) => u.touched);
  if (written.length > 0) {
    const p = <T>(values: T[]) => sql.param(values);
    await tx.execute(sql`
      update patent_ledger l set
        state = v.state,
        source = case when v.state = l.state then l.source else v.source end,
        state_at = case when v.state = l.state then l.state_at else ${at}::timestamptz end,
        record_id = coalesce(l.record_id, v.record_id),
        paid_on = coalesce(v.paid_on, l.paid_on),
        amount = coalesce(v.amount, l.amount),
        currency = coalesce(v.currency, l.currency),
        receipt_id = coalesce(v.receipt_id, l.receipt_id)
      from unnest(${p(written.map((w) => w.key))}::text[], ${p(written.map((w) => w.year))}::integer[], ${p(written.map((w) => w.state))}::text[],
        ${p(written.map((w) => w.source))}::text[], ${p(written.map((w) => w.recordId))}::uuid[], ${p(written.map((w) => w.paidOn))}::date[],
        ${p(written.map((w) => w.amount))}::numeric[], ${p(written.map((w) => w.currency))}::text[], ${p(written.map((w) => w.receiptId))}::uuid[])
        as v(patent_key, annuity_year, state, source, record_id, paid_on, amount, currency, receipt_id)
      where l.patent_key = v.patent_key and l.annuity_year = v.annuity_year`);
  }
  if (events.length > 0) {
    const p = <T>(values: T[]) => sql.param(values);
    await tx.execute(sql`
      insert into patent_ledger_events (patent_key, annuity_year, old_state, new_state, source, user_id, receipt_id, created_at)
      select * , ${at}::timestamptz from unnest(${p(events.map((e) => e.key))}::text[], ${p(events.map((e) => e.year))}::integer[], ${p(events.map((e) => e.old))}::text[],
        ${p(events.map((e) => e.next))}::text[], ${p(events.map((e) => e.source))}::text[], ${p(events.map((e) => e.userId))}::uuid[], ${p(events.map((e) => e.receiptId))}::uuid[])`);
  }
  await syncRecordStates(tx, ids);
  return outcomes;
}

/**
 * Copies each record's year state from the ledger onto `patent_records.ledger_state` (the agents' list reads it
 * without a join), for `recordIds` and the other records of the same patent and year. Only rows whose value
 * differs are written.
 */
export async function syncRecordStates(tx: Executor, recordIds: readonly string[]): Promise<void> {
  if (recordIds.length === 0) return;
  await tx.execute(sql`
    with target as (
      select p.id, l.state
      from patent_records p
      left join patent_ledger l on l.patent_key = coalesce(nullif(p.idbrevet, ''), 'record:' || p.id::text) and l.annuity_year = p.quantieme
      where p.id = any(${sql.param([...recordIds])}::uuid[])
         or (p.idbrevet, p.quantieme) in (select nullif(q.idbrevet, ''), q.quantieme from patent_records q where q.id = any(${sql.param([...recordIds])}::uuid[]))
    )
    update patent_records p set ledger_state = t.state
    from target t where p.id = t.id and p.ledger_state is distinct from t.state`);
}
