import { sql } from 'drizzle-orm';
import type { Executor } from '@portal/db';
import { rowsOf } from '../patents/rows.ts';

/*
 * An annuity file's rows linked to the portfolio (issue 29, decisions 198 and 214): a row is the portfolio patent of the
 * same office whose publication number (else application number) is the same once normalised. The link is the ledger's
 * patent key, kept on the row (`annuity_patents.patent_key`) when the check ends, so the patents-by-file list reads
 * the ledger with one lookup per page and never matches numbers per request.
 */

/**
 * A number as the link compares it: upper case, letters and digits only, a trailing kind code (`B1`, `A`) dropped,
 * and the office's code in front when the number names no country (`1000000` at the FR office is `FR1000000`; an EP
 * validation's `EP 1 000 000 B1` stays `EP1000000`). Null for an empty number. The same text on both sides.
 */
export function numberKeySql(column: string, office: string) {
  const bare = `regexp_replace(upper(regexp_replace(coalesce(${column}, ''), '[^A-Za-z0-9]', '', 'g')), '([0-9])[A-Z][0-9]?$', '\\1')`;
  return sql.raw(`(case when ${bare} = '' then null when ${bare} ~ '^[A-Z]' then ${bare} else ${office} || ${bare} end)`);
}

const ROW_OFFICE = `coalesce(ap.office, upper(ap.pays))`;

/**
 * Links the rows of `fileId` not linked yet: by publication number, then by application number for the rows left.
 * Several portfolio patents with one number (a data error): the first patent key. One statement per number kind, each a
 * hash join of the file's rows and the portfolio records of the file's offices. Returns how many of the file's rows are linked.
 */
export async function linkFileToPortfolio(db: Executor, fileId: string): Promise<number> {
  // Each side's key is computed once (materialized), and the two sides meet in a hash join: statistics taken before
  // the file's rows were written (PGlite analyses after bulk writes, decision 175) made the planner pick a nested
  // loop, a regular expression per row pair, which held the embedded database for minutes on a 20,000-row file.
  await db.execute(sql`set local enable_nestloop = off`);
  for (const [fileColumn, recordColumn] of [
    ['ap.num_publication', 'numero_publication'],
    ['ap.num_depot', 'numero_depot'],
  ] as const) {
    const result = await db.execute(sql`
      with f as materialized (
        select ap.id, ${sql.raw(ROW_OFFICE)} as pays, ${numberKeySql(fileColumn, ROW_OFFICE)} as number_key
        from annuity_patents ap
        where ap.file_id = ${fileId}::uuid and ap.patent_key is null
      ), m as materialized (
        select distinct on (pays, number_key) pays, number_key, patent_key
        from (
          select pays, ${numberKeySql(recordColumn, 'pays')} as number_key, coalesce(nullif(idbrevet, ''), 'record:' || id::text) as patent_key
          from patent_records
          where pays in (select distinct pays from f)
        ) r
        where number_key is not null
        order by pays, number_key, patent_key
      )
      update annuity_patents ap set patent_key = m.patent_key
      from f join m on m.pays = f.pays and m.number_key = f.number_key
      where ap.id = f.id
      returning ap.id`);
    rowsOf(result);
  }
  await db.execute(sql`set local enable_nestloop = on`);
  // Every linked row of the file (a retried check keeps the links of the rows it replaced): the partial index's count.
  const [row] = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*) as n from annuity_patents where file_id = ${fileId}::uuid and patent_key is not null`));
  return Number(row?.n ?? 0);
}
