import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { annuityPatents, type Database } from '@portal/db';
import { rowsOf, type AnnuityFileRow } from '@portal/jobs';
import { KeptReads } from '../../domain/kept-reads.ts';

/*
 * A file's sorted orders, computed once per version of the file (decision 190).
 *
 * The patents-by-file modal sorts a file on 12 columns both ways (the colour sort reads the colour index). Decision
 * 178 kept one index per column, `(file_id, column, row_index, colour)`: ~58 % of a big file's inserts' CPU on the
 * embedded database (decision 181). Instead, the first sorted request of a (file, version, column) asks the database
 * for the order of the file's row indexes by that column, ascending, nulls last, ties in file order (an ordered
 * `json_agg`: the database's own comparison and collation, the `ORDER BY` a page would run), with each row's colour
 * packed in the two low bits (`row_index * 4 + colour`). A page slices that order (filtered by colour or by a search's
 * matches when asked) and reads its rows by the file's `(file_id, row_index)` key: any depth costs the same.
 *
 * Descending (decision 178): the rows with a value, column then row_index descending, then the rows without one in
 * file order: the ascending order's first `withValue` entries reversed, then the rest as they are.
 *
 * The key holds the file's edit version and its last update, as the search's matches do (decision 188): an edit
 * bumps both, so an order is never used for rows that changed; the next sorted request computes it again. Requests
 * asking the same order at once share one statement; a failed read is not kept.
 */

export type Colour = 'ok' | 'nok' | 'orange' | 'no_date';
export const COLOUR_CODES: Record<Colour, number> = { ok: 0, nok: 1, orange: 2, no_date: 3 };

export interface SortOrder {
  /** `row_index * 4 + colour code`, by the column ascending, nulls last, ties by row_index. */
  keys: Int32Array;
  /** How many rows have a value (they come first). */
  withValue: number;
}

type FileVersion = Pick<AnnuityFileRow, 'id' | 'editVersion' | 'updatedAt'>;

/** Bytes of orders kept per database handle (a 100,000-row file's order is 400 kB: its twelve, 4.8 MB): about 80 such orders. */
const BUDGET_BYTES = 32 * 2 ** 20;

const kept = new KeptReads<SortOrder>({ maxBytes: BUDGET_BYTES, bytesOf: (order) => order.keys.byteLength });
let reads = 0;

/** How many orders were read from the database in this process (the tests' and benches' gauge). */
export const orderReads = () => reads;

export function sortOrder(db: Database, file: FileVersion, column: AnyPgColumn): Promise<SortOrder> {
  const key = JSON.stringify([file.id, file.editVersion, file.updatedAt.getTime(), column.name]);
  return kept.get(db, key, () => readOrder(db, file.id, column));
}

async function readOrder(db: Database, fileId: string, column: AnyPgColumn): Promise<SortOrder> {
  reads++;
  const [row] = rowsOf<{ with_value: number | string; keys: number[] | null }>(
    await db.execute(sql`select count(${column}) as with_value,
        json_agg(${annuityPatents.rowIndex} * 4 + case ${annuityPatents.colour} when 'ok' then 0 when 'nok' then 1 when 'orange' then 2 else 3 end
          order by ${column}, ${annuityPatents.rowIndex}) as keys
      from ${annuityPatents} where ${eq(annuityPatents.fileId, fileId)}`),
  );
  const keys = Int32Array.from(row?.keys ?? []);
  return { keys, withValue: Number(row?.with_value ?? 0) };
}

/**
 * The row indexes of one page of an order: `limit` rows from `offset` of those `keep` keeps (a colour, a search's
 * matches), ascending or descending (decision 178's order).
 */
export function pageOfOrder(order: SortOrder, direction: 'asc' | 'desc', offset: number, limit: number, keep?: (rowIndex: number, colour: number) => boolean): number[] {
  const { keys, withValue } = order;
  const out: number[] = [];
  let skipped = 0;
  if (!keep) {
    for (let i = offset; i < keys.length && out.length < limit; i++) out.push(keys[direction === 'asc' || i >= withValue ? i : withValue - 1 - i]! >> 2);
    return out;
  }
  for (let i = 0; i < keys.length && out.length < limit; i++) {
    const key = keys[direction === 'asc' || i >= withValue ? i : withValue - 1 - i]!;
    if (!keep(key >> 2, key & 3)) continue;
    if (skipped < offset) skipped++;
    else out.push(key >> 2);
  }
  return out;
}
