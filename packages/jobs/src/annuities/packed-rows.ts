import type { PackedBatch, PackedPatents, PatentRecord } from './protocol.ts';

export type { PackedBatch, PackedPatents } from './protocol.ts';

/**
 * Every stored field of a row, checked complete by the compiler: the insert's column order, shared by the
 * engine thread (which packs the rows) and `storePatents` (which names the columns). No database import here:
 * the engine thread loads this file.
 */
export const PATENT_FIELDS = Object.keys({
  rowIndex: 1, sheet: 1, rowNumber: 1, numPublication: 1, numDepot: 1, reference: 1, nom: 1, pays: 1, payeur: 1, url: 1,
  publie: 1, office: 1, origin: 1, dechu: 1, missedNumber: 1, missedLostAfter: 1, expired: 1, inGraceWithSurcharge: 1, dateDepot: 1, moisDateDepot: 1,
  datePrecedenteAnnuite: 1, quantPrecedent: 1, dateProchaineAnnuite: 1, nextNumber: 1, instructionLimit: 1,
  limiteDateProchaineAnnuite: 1, fee: 1, currency: 1, colour: 1, reasons: 1, flags: 1, commentaire: 1, searchText: 1,
} satisfies Record<keyof PatentRecord, 1>) as Array<keyof PatentRecord>;

/** The text[] fields: each row's items go as one text, joined by ITEM_SEPARATOR (codes never hold it). */
export const LIST_FIELDS: ReadonlySet<keyof PatentRecord> = new Set(['reasons', 'flags']);
export const ITEM_SEPARATOR = '\u001f';

const QUOTED = /[\\"]/g;
/**
 * One element of an array literal: NULL; a number or a boolean as it is (`12`, `t`); a text always quoted (an
 * empty text, spaces, commas, braces or the word NULL stay text), its backslashes and double quotes escaped.
 */
function element(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return value.includes('"') || value.includes('\\') ? `"${value.replace(QUOTED, '\\$&')}"` : `"${value}"`;
}

/** The rows' array literals, one per field (see PackedPatents). */
export function packPatents(rows: readonly PatentRecord[]): PackedPatents {
  const columns = PATENT_FIELDS.map((field) => {
    const list = LIST_FIELDS.has(field);
    let literal = '{';
    for (let i = 0; i < rows.length; i++) {
      const value = rows[i]![field];
      if (i > 0) literal += ',';
      literal += element(list ? (value as string[]).join(ITEM_SEPARATOR) : (value as string | number | boolean | null));
    }
    return `${literal}}`;
  });
  return { count: rows.length, columns };
}

/** `rows` in statements of `perStatement` rows each, packed. */
export function packBatch(rows: readonly PatentRecord[], perStatement: number): PackedBatch {
  const statements: PackedPatents[] = [];
  for (let from = 0; from < rows.length; from += perStatement) statements.push(packPatents(rows.slice(from, from + perStatement)));
  return { packed: true, length: rows.length, statements };
}

export const isPacked = (rows: readonly PatentRecord[] | PackedBatch): rows is PackedBatch => !Array.isArray(rows);
