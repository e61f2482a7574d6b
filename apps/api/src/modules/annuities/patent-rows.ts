import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { annuityRange, isOffice, isOrigin } from '@portal/annuities/core';
import type { AnnuityPatentDto } from '@portal/contracts';
import { annuityPatents, type Database } from '@portal/db';
import { rowsOf } from '@portal/jobs';

/*
 * The rows of a patents-by-file page as one JSON text built by the database, in the wire shape (issue 28, decision 210).
 *
 * A page's rows read as rows cost the API's process ~0.05 ms of CPU per row on the embedded database (PGlite's
 * JavaScript parsing ~38 fields per row, then Drizzle's mapping, then the DTO): 250 rows of an "All" window were
 * ~16 ms, the bulk of the request. Built by the database as one `json_agg` of the DTO's fields (`::text`: one field
 * for the driver to hand over, on both drivers), the API parses one JSON text with V8's own parser; only the
 * annuity range (the edit modal's bounds, computed by the engine's terms) is added in JavaScript, in its place.
 */

/** Each field of the wire DTO but the computed range, and the column it is. A field added to the contract fails to compile here. */
const DTO_COLUMNS = {
  _id: annuityPatents.id,
  file_id: annuityPatents.fileId,
  row: annuityPatents.rowIndex,
  sheet: annuityPatents.sheet,
  row_number: annuityPatents.rowNumber,
  num_publication: annuityPatents.numPublication,
  num_depot: annuityPatents.numDepot,
  reference: annuityPatents.reference,
  nom: annuityPatents.nom,
  pays: annuityPatents.pays,
  payeur: annuityPatents.payeur,
  url: annuityPatents.url,
  publié: annuityPatents.publie,
  dechu: annuityPatents.dechu,
  missed_number: annuityPatents.missedNumber,
  missed_lost_after: annuityPatents.missedLostAfter,
  expired: annuityPatents.expired,
  in_grace_with_surcharge: annuityPatents.inGraceWithSurcharge,
  office: annuityPatents.office,
  origin: annuityPatents.origin,
  date_depot: annuityPatents.dateDepot,
  mois_date_depot: annuityPatents.moisDateDepot,
  date_precedente_annuite: annuityPatents.datePrecedenteAnnuite,
  quant_precedent: annuityPatents.quantPrecedent,
  date_prochaine_annuite: annuityPatents.dateProchaineAnnuite,
  next_number: annuityPatents.nextNumber,
  instruction_limit: annuityPatents.instructionLimit,
  limite_date_prochaine_annuite: annuityPatents.limiteDateProchaineAnnuite,
  quant_range: null,
  commentaire: annuityPatents.commentaire,
  colour: annuityPatents.colour,
  reasons: annuityPatents.reasons,
  flags: annuityPatents.flags,
  fee: annuityPatents.fee,
  currency: annuityPatents.currency,
  edited: annuityPatents.edited,
  // Read from the payment ledger afterwards (ledger-colours.ts, decision 214), by the row's portfolio key below.
  ledger: null,
} satisfies Record<keyof AnnuityPatentDto, AnyPgColumn | null>;

/**
 * The select list `p.id as "_id", …` in the contract's order, the range a null placeholder (so it keeps its place in
 * the answer). Rendered once. `json_agg` of such a row costs PGlite ~15 % less than a `json_build_object` of the pairs.
 */
const DTO_SELECT = [
  ...Object.entries(DTO_COLUMNS).map(([key, column]) => `${column === null ? 'null::int' : `p."${column.name}"`} as "${key}"`),
  // The portfolio patent the row is (decision 214), for the ledger's read; taken off the DTO before it is answered.
  `p."${annuityPatents.patentKey.name}" as "_key"`,
].join(', ');

/**
 * The statement: the rows of `rowIndexes` of the file, by the unique `(file_id, row_index)` key, as one JSON array
 * text in the order given (`with ordinality`). Null when no row matched.
 */
export function patentsByKeysQuery(fileId: string, rowIndexes: readonly number[]): SQL {
  return sql`select json_agg(d order by d.n)::text as page from (
      select ${sql.raw(DTO_SELECT)}, k.n
      from unnest(${`{${rowIndexes.join(',')}}`}::int[]) with ordinality as k(row_index, n)
      join ${annuityPatents} p on p.file_id = ${fileId} and p.row_index = k.row_index
    ) d`;
}

/** A page's DTOs and, beside each, the portfolio patent its row was linked to (null: none), for the ledger's read. */
export interface PatentPage {
  patents: AnnuityPatentDto[];
  keys: Array<string | null>;
}

/** The DTOs of `rowIndexes` of the file in that order (a row index the file does not have is left out), with their keys. */
export async function patentPageByKeys(db: Pick<Database, 'execute'>, fileId: string, rowIndexes: readonly number[]): Promise<PatentPage> {
  if (rowIndexes.length === 0) return { patents: [], keys: [] };
  const [row] = rowsOf<{ page: string | null }>(await db.execute(patentsByKeysQuery(fileId, rowIndexes)));
  const patents = JSON.parse(row?.page ?? '[]') as Array<AnnuityPatentDto & { _key?: string | null; n?: number }>;
  const keys = new Array<string | null>(patents.length);
  patents.forEach((p, i) => {
    // The ordinality the rows were aggregated by, then the key (each last when deleted: V8 deletes a last property
    // without a slower object shape).
    delete p.n;
    keys[i] = p._key ?? null;
    delete p._key;
    p.quant_range = annuityRange(p.office !== null && isOffice(p.office) ? p.office : null, p.origin !== null && isOrigin(p.origin) ? p.origin : null);
  });
  return { patents, keys };
}

/** The DTOs of `rowIndexes` of the file in that order, the ledger not read. */
export async function patentsByKeys(db: Pick<Database, 'execute'>, fileId: string, rowIndexes: readonly number[]): Promise<AnnuityPatentDto[]> {
  return (await patentPageByKeys(db, fileId, rowIndexes)).patents;
}
