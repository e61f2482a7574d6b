import { getTableColumns, sql } from 'drizzle-orm';
import { annuityPatents, type Executor } from '@portal/db';
import type { PatentRecord } from './protocol.ts';

/** Every stored field of a row, checked complete by the compiler: the insert's column list. */
const PATENT_FIELDS = Object.keys({
  rowIndex: 1, sheet: 1, rowNumber: 1, numPublication: 1, numDepot: 1, reference: 1, nom: 1, pays: 1, payeur: 1, url: 1,
  publie: 1, office: 1, origin: 1, dechu: 1, missedNumber: 1, missedLostAfter: 1, expired: 1, inGraceWithSurcharge: 1, dateDepot: 1, moisDateDepot: 1,
  datePrecedenteAnnuite: 1, quantPrecedent: 1, dateProchaineAnnuite: 1, nextNumber: 1, instructionLimit: 1,
  limiteDateProchaineAnnuite: 1, fee: 1, currency: 1, colour: 1, reasons: 1, flags: 1, commentaire: 1, searchText: 1,
} satisfies Record<keyof PatentRecord, 1>) as Array<keyof PatentRecord>;

/** Separator of a text[] field's items inside its one text of the unnest array (codes never hold it). */
const ITEM_SEPARATOR = '\u001f';

const PATENT_COLUMNS = PATENT_FIELDS.map((field) => {
  const column = getTableColumns(annuityPatents)[field];
  const type = column.getSQLType();
  return { field, name: column.name, list: type.endsWith('[]'), type };
});

const INSERT_COLUMNS = sql.raw(['file_id', ...PATENT_COLUMNS.map((c) => `"${c.name}"`)].join(', '));
const SELECT_COLUMNS = sql.raw(PATENT_COLUMNS.map((c) => (c.list ? `string_to_array(u."${c.name}", chr(31))` : `u."${c.name}"`)).join(', '));
const UNNEST_ALIAS = sql.raw(PATENT_COLUMNS.map((c) => `"${c.name}"`).join(', '));
const ON_CONFLICT_SET = sql.raw(PATENT_COLUMNS.filter((c) => c.field !== 'rowIndex').map((c) => `"${c.name}" = excluded."${c.name}"`).join(', '));

/**
 * Upsert on (file, row): a row stored twice (two executions of one job) stays one row. One array
 * parameter per column and `unnest`: one short statement whatever the batch (multi-row VALUES sent
 * 31,000 parameters a batch; docs/benchmarks.md, "findings insert", for the same choice in LEDES).
 */
export async function storePatents(db: Executor, fileId: string, rows: PatentRecord[]): Promise<void> {
  if (rows.length === 0) return;
  const arrays = PATENT_COLUMNS.map(({ field, list, type }) => {
    const values = rows.map((r) => (list ? (r[field] as string[]).join(ITEM_SEPARATOR) : r[field]));
    return sql`${sql.param(values)}::${sql.raw(list ? 'text' : type)}[]`;
  });
  await db.execute(sql`
    insert into annuity_patents (${INSERT_COLUMNS})
    select ${fileId}::uuid, ${SELECT_COLUMNS}
    from unnest(${sql.join(arrays, sql`, `)}) as u(${UNNEST_ALIAS})
    on conflict (file_id, row_index) do update set ${ON_CONFLICT_SET}`);
}
