import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn } from 'drizzle-orm/pg-core';
import { rowsOf } from '@portal/jobs';
import { cabinets, executeKeepingPlan, patentRecords, type Database } from '@portal/db';
import { AppError } from '../../domain/errors.ts';

/*
 * One page of a patent_records list in one statement (decision 174): the total and the rows, ordered by an
 * index whatever the sort and direction.
 *
 * The lists sort by a column, rows without a value last, ties by id in the same direction. Each column has
 * one ascending index (…, column, id). A descending `nulls last` order does not match it, so the page is read
 * in two ordered parts, concatenated: the rows with a value (the index read forward, or backward for desc),
 * then the rows without one (the same index, `column is null`, by id). Each part stops at the page's end.
 *
 * On the embedded database a page's plan is kept once the same page comes back (`executeKeepingPlan`).
 *
 * Keyset paging: a cursor names the last (or first) row of a page — its part, its value, its id — and the
 * next (previous) page starts right after (before) it, so a deep page costs what the first one does. Page
 * numbers stay valid (offset) for a jump.
 */

export type Direction = 'asc' | 'desc';
type PatentRow = typeof patentRecords.$inferSelect;
type Column = PgColumn;

/** Where a page starts: after (next) or before (previous) the row the cursor names. */
export interface Keyset {
  way: 'after' | 'before';
  /** 0: rows with a value, 1: rows without one. */
  part: 0 | 1;
  value: string | number | null;
  id: string;
}

const CURSOR = /^[A-Za-z0-9_-]{1,700}$/;

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.way === 'after' ? 'a' : 'b', keyset.part, keyset.value, keyset.id])).toString('base64url');
}

/** A cursor from the wire; anything not made by `encodeCursor` is the 400 `invalid_cursor`. */
export function decodeCursor(cursor: string): Keyset {
  try {
    if (!CURSOR.test(cursor)) throw new Error('shape');
    const [way, part, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const valueOk = (part === 0 && (typeof value === 'string' || typeof value === 'number')) || (part === 1 && value === null);
    if ((way !== 'a' && way !== 'b') || !valueOk || typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) throw new Error('shape');
    return { way: way === 'a' ? 'after' : 'before', part, value, id };
  } catch {
    throw new AppError('validation_failed', { fields: { cursor: 'invalid_cursor' } });
  }
}

export interface PageRequest {
  /** Every condition of the list (tab, scope, filters, search). */
  where: SQL;
  column: Column;
  order: Direction;
  page: number;
  limit: number;
  keyset?: Keyset;
  /** A scalar SQL expression: the list's total (kept counts, or a capped count). */
  total: SQL;
  /**
   * A scoped list (an agent's cabinets OR codes) as disjoint conditions whose union is `where`, each one read by
   * its own index (decision 189): the page's keys are found per branch, rows are read for the page only.
   */
  branches?: SQL[];
}

export interface PageResult {
  rows: Array<{ patent: PatentRow; cabinetName: string }>;
  total: number;
  /** Cursors of the page's last and first rows (null on an empty page). */
  next: string | null;
  previous: string | null;
}

const columns = Object.entries(getTableColumns(patentRecords));
/**
 * What a page reads: every column but the search text (a long generated string no screen shows). The embedded
 * database's cost per row is mostly moving and parsing its fields (profile of issue 28).
 */
const READ = columns.filter(([key]) => key !== 'searchText');
const readList = sql.join(
  READ.map(([, column]) => sql`${patentRecords}.${sql.identifier(column.name)}`),
  sql`, `,
);
/**
 * The head of each part of a page, rendered once: Drizzle walks every chunk of a statement each time it builds
 * it, and these ~80 chunks were most of a page's building (profile of issue 28).
 */
const SELECT = sql.raw(
  new PgDialect().sqlToQuery(sql`select ${readList}, c.name as cabinet_name from ${patentRecords} join ${cabinets} c on c.id = ${patentRecords.cabinetId}`).sql,
);

/**
 * A row of `patent_records` as PostgreSQL writes it in JSON (snake_case; dates `YYYY-MM-DD`, timestamps ISO 8601
 * with an offset, numbers as numbers) as Drizzle's select would give it.
 */
function toRow(raw: Record<string, unknown>): PatentRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of READ) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return { ...row, searchText: '' } as PatentRow;
}

const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');
const dir = (d: Direction) => (d === 'asc' ? sql`asc` : sql`desc`);
const beyond = (d: Direction) => (d === 'asc' ? sql`>` : sql`<`);

/** The page's one statement: a row with the total, joined with the page's rows (none on an empty page). */
export function pageStatement(request: PageRequest): SQL {
  const { column, keyset, limit } = request;
  // Reading backwards (previous page): the parts in reverse order, each in the opposite direction.
  const reverse = keyset?.way === 'before';
  const order = reverse ? flip(request.order) : request.order;
  const offset = keyset ? 0 : (request.page - 1) * limit;
  const reach = offset + limit;
  const by = sql`order by ${column} ${dir(order)}, ${patentRecords.id} ${dir(order)} limit ${reach}`;
  // A part's rows: by the tab's index in order; for a scoped list, its keys (id and the column) first, each branch
  // of the scope by an index-only scan of its own index, the page's ids merged in order, then those rows only.
  const rowsOf = (condition: SQL) => {
    if (!request.branches) return sql`(${SELECT} where ${request.where} and ${condition} ${by})`;
    const keys = request.branches.map((branch) => sql`(select ${patentRecords.id}, ${column} from ${patentRecords} where ${branch} and ${condition} ${by})`);
    const key = sql.identifier(column.name);
    return sql`(${SELECT} where ${patentRecords.id} in (select k.id from (${sql.join(keys, sql` union all `)}) k order by k.${key} ${dir(order)}, k.id ${dir(order)} limit ${reach}) ${by})`;
  };
  const valued = (extra: SQL | undefined) => rowsOf(sql`${column} is not null ${extra ? sql`and ${extra}` : sql``}`);
  // Ordered by the column too (all null here): `is null` does not make the index's next column (id) the order for the planner.
  const empty = (extra: SQL | undefined) => rowsOf(sql`${column} is null ${extra ? sql`and ${extra}` : sql``}`);
  const parts: SQL[] = [];
  // A column that is never null (the country) has no second part.
  const nullable = !column.notNull;
  if (!keyset) parts.push(valued(undefined), ...(nullable ? [empty(undefined)] : []));
  else if (keyset.part === 0) {
    const after = sql`(${column}, ${patentRecords.id}) ${beyond(order)} (${keyset.value}, ${keyset.id}::uuid)`;
    // Forward from a valued row: the rest of the valued rows, then every empty one; backward: valued rows only.
    parts.push(valued(after));
    if (!reverse && nullable) parts.push(empty(undefined));
  } else {
    const after = sql`${patentRecords.id} ${beyond(order)} ${keyset.id}::uuid`;
    // Forward from an empty row: the rest of the empty ones; backward: the empty ones before it, then every valued row.
    parts.push(empty(after));
    if (reverse) parts.push(valued(undefined));
  }
  // The page's rows as one JSON value: the driver parses one field, not every field of every row (profile of
  // issue 28: PGlite's JS protocol parsing each field was a quarter of a list request's CPU).
  return sql`select ${request.total} as total, coalesce((select json_agg(pg) from
    (select * from (${sql.join(parts, sql` union all `)}) u limit ${limit} offset ${offset}) pg), '[]'::json) as rows`;
}

export async function listPage(db: Database, request: PageRequest): Promise<PageResult> {
  const { column } = request;
  const reverse = request.keyset?.way === 'before';
  const [answer] = rowsOf<{ total: number | string; rows: Array<Record<string, unknown>> | string }>(await executeKeepingPlan(db, pageStatement(request)));
  const total = Number(answer?.total ?? 0);
  // Both drivers parse a json column; a string would be a driver told not to.
  const json = answer?.rows ?? [];
  const rows = (typeof json === 'string' ? (JSON.parse(json) as Array<Record<string, unknown>>) : json).map((r) => ({ patent: toRow(r), cabinetName: r.cabinet_name as string }));
  if (reverse) rows.reverse();
  const cursorOf = (way: Keyset['way'], row: { patent: PatentRow } | undefined) => {
    if (!row) return null;
    const value = (row.patent as Record<string, unknown>)[keyOf(column)] as string | number | null;
    return encodeCursor({ way, part: value === null ? 1 : 0, value, id: row.patent.id });
  };
  return { rows, total, next: cursorOf('after', rows.at(-1)), previous: cursorOf('before', rows[0]) };
}

const keyOf = (column: Column) => columns.find(([, c]) => c === column)![0];
