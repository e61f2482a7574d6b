import { asc, sql } from 'drizzle-orm';
import { currencyRates, type Database, type Executor } from '@portal/db';
import type { PatentRowRejectionDto } from '@portal/contracts';
import type { PatentUpsertRow, RateTable, RawPatentRow } from './rows.ts';
import { prepareRow, rowsOf } from './rows.ts';
import type { Day } from '@portal/annuities/core';
import { recordState } from '../ledger/states.ts';
import { syncRecordStates, writeLedger, type LedgerChange } from '../ledger/write.ts';

/** Rows per upsert statement (one array parameter per column, `unnest`). */
export const PORTFOLIO_BATCH = 1000;

/** Every currency rate, by currency, oldest first: a small table read once per import or sync. */
export async function loadRates(db: Executor): Promise<RateTable> {
  const rows = await db.select().from(currencyRates).orderBy(asc(currencyRates.currency), asc(currencyRates.validFrom));
  const map = new Map<string, Array<{ validFrom: string; eurPerUnit: number }>>();
  for (const row of rows) {
    const list = map.get(row.currency) ?? [];
    list.push({ validFrom: row.validFrom, eurPerUnit: Number(row.eurPerUnit) });
    map.set(row.currency, list);
  }
  return map;
}

/** Column, its PostgreSQL type and how to read it from a prepared row (cabinet and instruction are handled apart). */
const DATA_COLUMNS: ReadonlyArray<{ name: string; type: string; of: (row: PatentUpsertRow) => unknown }> = [
  { name: 'idbrevet', type: 'text', of: (r) => r.idbrevet },
  { name: 'client_code', type: 'text', of: (r) => r.clientCode },
  { name: 'reference_client', type: 'text', of: (r) => r.referenceClient },
  { name: 'reference_cabinet', type: 'text', of: (r) => r.referenceCabinet },
  { name: 'numero_depot', type: 'text', of: (r) => r.numeroDepot },
  { name: 'numero_publication', type: 'text', of: (r) => r.numeroPublication },
  { name: 'pays', type: 'text', of: (r) => r.pays },
  { name: 'origine', type: 'text', of: (r) => r.origine },
  { name: 'date_depot', type: 'date', of: (r) => r.dateDepot },
  { name: 'date_expiration', type: 'date', of: (r) => r.dateExpiration },
  { name: 'date_echeance', type: 'date', of: (r) => r.dateEcheance },
  { name: 'quantieme', type: 'integer', of: (r) => r.quantieme },
  { name: 'cost', type: 'numeric', of: (r) => r.cost },
  { name: 'titre_anglais', type: 'text', of: (r) => r.titreAnglais },
  { name: 'titre_francais', type: 'text', of: (r) => r.titreFrancais },
  { name: 'donneur_ordre', type: 'text', of: (r) => r.donneurOrdre },
  { name: 'donneur_ordre_an', type: 'text', of: (r) => r.donneurOrdreAn },
  { name: 'date_acquit', type: 'date', of: (r) => r.dateAcquit },
  { name: 'date_paiement_office', type: 'date', of: (r) => r.datePaiementOffice },
  { name: 'date_reponse_courrier', type: 'date', of: (r) => r.dateReponseCourrier },
  { name: 'date_paiement_client', type: 'date', of: (r) => r.datePaiementClient },
  // The row checked against the computed schedule, written with it (a re-import of a row from before this check writes it once).
  { name: 'schedule_code', type: 'text', of: (r) => r.schedule.scheduleCode },
  { name: 'schedule_quantieme', type: 'integer', of: (r) => r.schedule.scheduleQuantieme },
  { name: 'schedule_echeance', type: 'date', of: (r) => r.schedule.scheduleEcheance },
  { name: 'schedule_checked', type: 'boolean', of: (r) => r.schedule.scheduleChecked },
];
/** Every column the upsert writes and compares: the data, the cabinet and the instruction with its status. */
const WRITTEN = ['cabinet_id', ...DATA_COLUMNS.map((c) => c.name), 'instruction_id', 'instruction_status'];
const INSERT_COLUMNS = sql.raw(['idagenda', ...WRITTEN].map((c) => `"${c}"`).join(', '));
const UNNEST_ALIAS = sql.raw(['idagenda', 'cabinet_name', ...DATA_COLUMNS.map((c) => c.name), 'sets_instruction', 'instruction_id'].map((c) => `"${c}"`).join(', '));
const SELECT_DATA = sql.raw(DATA_COLUMNS.map((c) => `i."${c.name}"`).join(', '));
const UPDATE_SET = sql.raw(WRITTEN.map((c) => `"${c}" = excluded."${c}"`).join(', '));
const CURRENT_ROW = sql.raw(`(${WRITTEN.map((c) => `patent_records."${c}"`).join(', ')})`);
const NEW_ROW = sql.raw(`(${WRITTEN.map((c) => `excluded."${c}"`).join(', ')})`);

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export type AuditSource = 'import' | 'sync';

/**
 * Upserts prepared rows by `idagenda` in one statement: a row whose values are all the same as stored
 * is left alone (no write, no version bump: the same file twice changes nothing), any difference
 * rewrites the row and bumps `version` (an agent's screen holding the old one gets `stale_version`).
 * Unknown cabinets are created by name (decision 106). When the source sets the instruction and it
 * changes, the status follows (an instruction given: processed; none: unprocessed; a validated row
 * keeps validated only with the same instruction) and one audit row is written with `source`.
 * `rows` must hold each idagenda once.
 */
export async function upsertPatents(db: Database, rows: readonly PatentUpsertRow[], source: AuditSource, now: Date): Promise<UpsertCounts> {
  if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  return db.transaction(async (tx) => {
    const names = [...new Set(rows.map((r) => r.cabinetName))];
    await tx.execute(sql`insert into cabinets (name) select unnest(${sql.param(names)}::text[]) on conflict (name) do nothing`);
    const arrays = [
      sql`${sql.param(rows.map((r) => r.idagenda))}::text[]`,
      sql`${sql.param(rows.map((r) => r.cabinetName))}::text[]`,
      ...DATA_COLUMNS.map((c) => sql`${sql.param(rows.map(c.of))}::${sql.raw(c.type)}[]`),
      sql`${sql.param(rows.map((r) => r.setsInstruction))}::boolean[]`,
      sql`${sql.param(rows.map((r) => r.instructionId))}::integer[]`,
    ];
    type Written = {
      id: string;
      inserted: boolean;
      instruction_id: number | null;
      instruction_status: string;
      old_instruction_id: number | null;
      old_status: string | null;
      had_row: boolean;
      paid_on: string | null;
      old_paid_on: string | null;
      old_office_paid: string | null;
      old_acquit: string | null;
      same_year: boolean;
    };
    const result = await tx.execute(sql`
      with input as (
        select * from unnest(${sql.join(arrays, sql`, `)}) as i(${UNNEST_ALIAS})
      ),
      old as (
        select p.id, p.idagenda, p.instruction_id, p.instruction_status, p.date_paiement_office, p.date_acquit, p.quantieme
        from patent_records p join input i on i.idagenda = p.idagenda
      ),
      written as (
        insert into patent_records (${INSERT_COLUMNS}, version, updated_at)
        select i.idagenda, c.id, ${SELECT_DATA},
          case when i.sets_instruction then i.instruction_id else o.instruction_id end,
          case
            when not i.sets_instruction then coalesce(o.instruction_status, 'unprocessed')
            when o.instruction_id is not distinct from i.instruction_id then coalesce(o.instruction_status, case when i.instruction_id is null then 'unprocessed' else 'processed' end)
            when i.instruction_id is null then 'unprocessed'
            else 'processed'
          end,
          1, ${now.toISOString()}::timestamptz
        from input i
        join cabinets c on c.name = i.cabinet_name
        left join old o on o.idagenda = i.idagenda
        on conflict (idagenda) do update set ${UPDATE_SET}, version = patent_records.version + 1, updated_at = excluded.updated_at
        where ${CURRENT_ROW} is distinct from ${NEW_ROW}
        returning id, idagenda, (xmax = 0) as inserted, instruction_id, instruction_status, date_paiement_office, date_acquit, quantieme
      )
      select w.id, w.inserted, w.instruction_id, w.instruction_status, o.instruction_id as old_instruction_id, o.instruction_status as old_status, (o.id is not null) as had_row,
        coalesce(w.date_paiement_office, w.date_acquit)::text as paid_on, coalesce(o.date_paiement_office, o.date_acquit)::text as old_paid_on,
        o.date_paiement_office::text as old_office_paid, o.date_acquit::text as old_acquit, (o.quantieme is not distinct from w.quantieme) as same_year
      from written w left join old o on o.idagenda = w.idagenda`);
    const written = rowsOf<Written>(result);
    let inserted = 0;
    const events: Array<{ patentId: string; oldInstructionId: number | null; newInstructionId: number | null; oldStatus: string; newStatus: string }> = [];
    for (const row of written) {
      if (row.inserted) inserted++;
      if (row.had_row && (row.old_instruction_id !== row.instruction_id || row.old_status !== row.instruction_status)) {
        events.push({ patentId: row.id, oldInstructionId: row.old_instruction_id, newInstructionId: row.instruction_id, oldStatus: row.old_status!, newStatus: row.instruction_status });
      }
    }
    if (events.length > 0) {
      await tx.execute(sql`
        insert into patent_instruction_events (patent_id, old_instruction_id, new_instruction_id, old_status, new_status, user_id, source, created_at)
        select e.patent_id, e.old_instruction_id, e.new_instruction_id, e.old_status, e.new_status, null, ${source}, ${now.toISOString()}::timestamptz
        from unnest(${sql.param(events.map((e) => e.patentId))}::uuid[], ${sql.param(events.map((e) => e.oldInstructionId))}::integer[],
          ${sql.param(events.map((e) => e.newInstructionId))}::integer[], ${sql.param(events.map((e) => e.oldStatus))}::text[], ${sql.param(events.map((e) => e.newStatus))}::text[])
          as e(patent_id, old_instruction_id, new_instruction_id, old_status, new_status)`);
    }
    await writeLedger(tx, ledgerChanges(written, source), { at: now });
    // A record moved to another year (or new) shows that year's state: copied whether or not an event was written.
    await syncRecordStates(
      tx,
      written.map((w) => w.id),
    );
    return { inserted, updated: written.length - inserted, unchanged: rows.length - written.length };
  });
}

/**
 * What the back office's rows tell the ledger (decision 191): an instruction given or cleared, and a payment to
 * the office (`date_paiement_office`, else `date_acquit`) newly recorded. A row of the same year starts, when the
 * ledger does not know it yet, from what the record said before this write.
 */
function ledgerChanges(
  written: ReadonlyArray<{
    id: string;
    had_row: boolean;
    same_year: boolean;
    instruction_id: number | null;
    old_instruction_id: number | null;
    old_status: string | null;
    paid_on: string | null;
    old_paid_on: string | null;
    old_office_paid: string | null;
    old_acquit: string | null;
  }>,
  source: AuditSource,
): LedgerChange[] {
  const changes: LedgerChange[] = [];
  for (const row of written) {
    const before = row.had_row && row.same_year;
    const seed = before
      ? recordState({ instructionId: row.old_instruction_id, instructionStatus: row.old_status ?? 'unprocessed', datePaiementOffice: row.old_office_paid, dateAcquit: row.old_acquit })
      : undefined;
    if (before && row.old_instruction_id !== row.instruction_id) changes.push({ recordId: row.id, event: { kind: 'instruction', source, instructionId: row.instruction_id }, seed });
    if (row.paid_on !== null && (!before || row.old_paid_on === null)) changes.push({ recordId: row.id, event: { kind: 'office_payment', source, paidOn: row.paid_on }, seed });
  }
  return changes;
}

/** Counts (flagged rows among those stored) and the first refused rows of an import or a sync. */
export class PortfolioTally {
  inserted = 0;
  updated = 0;
  unchanged = 0;
  rejected = 0;
  /** Rows stored but flagged: they disagree with the computed schedule. */
  flagged = 0;
  readonly rejections: PatentRowRejectionDto[] = [];
  private readonly seen = new Set<string>();
  private pending: Array<{ rowNumber: number; row: PatentUpsertRow }> = [];

  constructor(
    private readonly keep: number,
    private readonly rates: RateTable,
    private readonly today: Day,
    private readonly instructionIds: ReadonlySet<number>,
  ) {}

  reject(rowNumber: number, code: PatentRowRejectionDto['code'], field?: string): void {
    this.rejected++;
    if (this.rejections.length < this.keep) this.rejections.push(field === undefined ? { row: rowNumber, code } : { row: rowNumber, code, field });
  }

  /** Checks and completes one row; refused rows are counted, accepted ones wait for the next batch. Returns the batch size. */
  add(rowNumber: number, raw: RawPatentRow): number {
    const outcome = prepareRow(raw, this.rates, this.today);
    if (!outcome.ok) {
      this.reject(rowNumber, outcome.code, outcome.field);
      return this.pending.length;
    }
    const { row } = outcome;
    if (row.setsInstruction && row.instructionId !== null && !this.instructionIds.has(row.instructionId)) {
      this.reject(rowNumber, 'unknown_instruction', 'id_instruction');
      return this.pending.length;
    }
    // A file naming the same idagenda twice would make its re-import rewrite the row twice: the later one is refused.
    if (this.seen.has(row.idagenda)) {
      this.reject(rowNumber, 'duplicate_idagenda', 'idagenda');
      return this.pending.length;
    }
    this.seen.add(row.idagenda);
    this.pending.push({ rowNumber, row });
    return this.pending.length;
  }

  /** Upserts what waits; returns the rows it took. */
  async flush(db: Database, source: AuditSource, now: Date): Promise<number> {
    const batch = this.pending;
    if (batch.length === 0) return 0;
    this.pending = [];
    const counts = await upsertPatents(
      db,
      batch.map((b) => b.row),
      source,
      now,
    );
    this.inserted += counts.inserted;
    this.flagged += batch.filter((b) => b.row.schedule.scheduleCode !== null).length;
    this.updated += counts.updated;
    this.unchanged += counts.unchanged;
    return batch.length;
  }
}

/** The instruction ids that exist (1 to 4 today). */
export async function loadInstructionIds(db: Executor): Promise<Set<number>> {
  const result = await db.execute(sql`select id from payment_instructions`);
  return new Set(rowsOf<{ id: number }>(result).map((r) => Number(r.id)));
}
