import { and, eq, sql } from 'drizzle-orm';
import { annuityPatents, type Database } from '@portal/db';
import { rowsOf, type AnnuityFileRow } from '@portal/jobs';
import { KeptReads } from '../../domain/kept-reads.ts';
import { likePattern } from '../../domain/search.ts';

/*
 * The rows of a file a search matches, read once per version of the file (decision 188).
 *
 * A substring search of a file's patents has no index on the embedded database (decision 176): each
 * request read every row of the file twice, for its count and for its page (~120 ms of CPU each on
 * PGlite for 100,000 rows), and the modal's "All" asks one window after another with the same search.
 * The matches of (file, version, search, colour) are read here in one statement: their number, and
 * their row indexes when they are few. A page then reads those rows by the file's (file_id, row_index)
 * key, or, when they are many, walks the file's order (or the colour index) with the search as a filter
 * (dense matches stop it early). A page sorted by another column asks for every match (`every`): more than
 * LISTED_MATCHES come as a bitmap by row index that filters the column's order (sort-orders.ts, decision
 * 190). Requests asking the same matches at once share one statement.
 *
 * The key holds the file's edit version and its last update (an edit bumps both, a check's end the
 * second), so an entry is never read for rows that changed; old versions age out of the LRU.
 */

/** Up to this many matches a page reads them by their row indexes; past it, by its sort index and the search's filter. */
export const LISTED_MATCHES = 2_000;
/** Entries kept per database handle (each at most LISTED_MATCHES integers, or a bitmap of one bit a byte per row of the file). */
const ENTRIES = 256;

export interface SearchMatches {
  total: number;
  /** The matching rows' indexes, ascending, when there are at most LISTED_MATCHES of them. */
  rows: number[] | null;
  /**
   * Asked `every` (a page sorted by a column, decision 190) and more than LISTED_MATCHES: every match as a bitmap by
   * row index (1: a match; 100 kB for 100,000 rows), which filters the column's order.
   */
  bitmap?: Uint8Array;
}

type Colour = 'ok' | 'nok' | 'orange' | 'no_date';
type FileVersion = Pick<AnnuityFileRow, 'id' | 'editVersion' | 'updatedAt'>;

const kept = new KeptReads<SearchMatches>({ maxEntries: ENTRIES });
let reads = 0;

/** How many times the matches were read from the database in this process (the tests' and benches' gauge). */
export const matchReads = () => reads;

export function searchMatches(db: Database, file: FileVersion, search: string, colour: Colour | undefined, every = false): Promise<SearchMatches> {
  const key = JSON.stringify([file.id, file.editVersion, file.updatedAt.getTime(), search, colour ?? null, every]);
  return kept.get(db, key, () => readMatches(db, file.id, search, colour, every));
}

async function readMatches(db: Database, fileId: string, search: string, colour: Colour | undefined, every: boolean): Promise<SearchMatches> {
  reads++;
  const where = and(
    eq(annuityPatents.fileId, fileId),
    colour ? eq(annuityPatents.colour, colour) : undefined,
    searchTextHolds(search),
  );
  const [row] = rowsOf<{ total: number | string; rows: number[] | null }>(
    await db.execute(sql`select count(*) as total,
        case when ${every} or count(*) <= ${LISTED_MATCHES} then json_agg(${annuityPatents.rowIndex} order by ${annuityPatents.rowIndex}) end as rows
      from ${annuityPatents} where ${where}`),
  );
  const total = Number(row?.total ?? 0);
  const rows = total === 0 ? [] : (row?.rows ?? null);
  if (!every || rows === null || rows.length <= LISTED_MATCHES) return { total, rows };
  const bitmap = new Uint8Array(rows[rows.length - 1]! + 1);
  for (const r of rows) bitmap[r] = 1;
  return { total, rows: null, bitmap };
}

/** The patents whose search text holds `search` (a file's search, the bulk comment's filter, the research across files). */
export const searchTextHolds = (search: string) => sql`${annuityPatents.searchText} like ${likePattern(search)}`;

/** The condition of a page's rows for known matches: their row indexes, or the search itself when they are many. */
export function matchesCondition(search: string, matches: SearchMatches) {
  return matches.rows === null
    ? searchTextHolds(search)
    : sql`${annuityPatents.rowIndex} = any(${`{${matches.rows.join(',')}}`}::int[])`;
}

