import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { annuityPatents, type Executor } from '@portal/db';
import { LIST_FIELDS, packPatents, PATENT_FIELDS, type PackedPatents } from './packed-rows.ts';
import type { PatentRecord } from './protocol.ts';

const PATENT_COLUMNS = PATENT_FIELDS.map((field) => {
  const column = getTableColumns(annuityPatents)[field];
  const type = column.getSQLType();
  const list = type.endsWith('[]');
  if (list !== LIST_FIELDS.has(field)) throw new Error(`annuity_patents.${column.name}: LIST_FIELDS disagrees with the table (${type})`);
  return { field, name: column.name, list, type };
});

const INSERT_COLUMNS = sql.raw(['file_id', ...PATENT_COLUMNS.map((c) => `"${c.name}"`)].join(', '));
const SELECT_COLUMNS = sql.raw(PATENT_COLUMNS.map((c) => (c.list ? `string_to_array(u."${c.name}", chr(31))` : `u."${c.name}"`)).join(', '));
const UNNEST_ALIAS = sql.raw(PATENT_COLUMNS.map((c) => `"${c.name}"`).join(', '));
const ON_CONFLICT_SET = sql.raw(PATENT_COLUMNS.filter((c) => c.field !== 'rowIndex').map((c) => `"${c.name}" = excluded."${c.name}"`).join(', '));
const ARRAY_TYPES = PATENT_COLUMNS.map(({ list, type }) => sql.raw(`::${list ? 'text' : type}[]`));

/**
 * Upsert on (file, row): a row stored twice (two executions of one job) stays one row. One array
 * parameter per column and `unnest`: one short statement whatever the batch (multi-row VALUES sent
 * 31,000 parameters a batch; docs/benchmarks.md, "findings insert", for the same choice in LEDES).
 * Each parameter is the column's array literal, already written (`packPatents`, in the engine thread
 * for a check): neither the driver nor PGlite's thread builds it from a JavaScript array.
 */
export async function storePackedPatents(db: Executor, fileId: string, packed: PackedPatents): Promise<void> {
  if (packed.count === 0) return;
  await db.execute(packedInsert(fileId, packed.columns));
}

function packedInsert(fileId: string, columns: readonly string[]): SQL {
  const arrays = columns.map((literal, i) => sql`${literal}${ARRAY_TYPES[i]!}`);
  return sql`
    insert into annuity_patents (${INSERT_COLUMNS})
    select ${fileId}::uuid, ${SELECT_COLUMNS}
    from unnest(${sql.join(arrays, sql`, `)}) as u(${UNNEST_ALIAS})
    on conflict (file_id, row_index) do update set ${ON_CONFLICT_SET}`;
}

/**
 * `storePackedPatents`'s statement as text, its parameters numbered: $1 the file, then one array literal per field of
 * PATENT_FIELDS. What the engine thread sends on a port of the embedded database's thread (decision 232).
 */
export const PACKED_INSERT_SQL = new PgDialect().sqlToQuery(packedInsert('00000000-0000-0000-0000-000000000000', PATENT_COLUMNS.map(() => '{}'))).sql;

/** `storePackedPatents` of rows as objects (one statement). */
export function storePatents(db: Executor, fileId: string, rows: PatentRecord[]): Promise<void> {
  return storePackedPatents(db, fileId, packPatents(rows));
}
