import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  addDays,
  annuityDueBy,
  annuityRange,
  computeSchedule,
  formatIsoDate,
  inAnnuityRange,
  isOffice,
  isOrigin,
  parseIsoDate,
  scheduleColour,
  type Day,
  type Schedule,
} from '@portal/annuities/core';
import { scheduleFields } from '@portal/jobs';
import { ANNUITY_ALL_PAGE_SIZE, paginationMeta, type AnnuityPatentSort } from '@portal/contracts';
import { annuityFiles, annuityPatents, users } from '@portal/db';
import type { Locale } from '@portal/i18n';
import { enqueueCommitted, exportNameOf, loadAnnuityFile, publishFile, storedCountsOf, toFileDto, toPatentDto, type AnnuityFileRow, type AnnuityPatentRow } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import { uploadHead, ZIP_MAGIC, type StoredUpload } from '../../domain/uploads.ts';
import type { AuthState } from '../../domain/auth.ts';
import { likePattern } from '../../domain/search.ts';
import { patentDtosWithLedger, type Reader } from './ledger-colours.ts';
import { colourOf, countsWith, fileColours, ledgerMovesOf, movedRows, type ColourCounts, type FileColours } from './file-colours.ts';
import { searchTextHolds, matchesCondition, searchMatches } from './search-matches.ts';
import { patentPageByKeys } from './patent-rows.ts';
import { COLOUR_CODES, pageOfOrder, sortOrder, type Colour, type SortOrder } from './sort-orders.ts';

const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The first bytes of a stored upload: a workbook is a zip (.xlsx) or an OLE2 compound file (.xls). */
async function looksLikeWorkbook(ctx: AppContext, key: string): Promise<boolean> {
  const head = await uploadHead(ctx.storage, key, OLE2_MAGIC.length);
  return head.subarray(0, 4).equals(ZIP_MAGIC) || head.subarray(0, 8).equals(OLE2_MAGIC);
}

/** Files the caller may read: their own, or anyone's for an admin. */
export function canRead(actor: AuthState, file: Pick<AnnuityFileRow, 'ownerId'>): boolean {
  return actor.isAdmin || file.ownerId === actor.userId;
}

/**
 * Checks the real type (a `.xlsx` that is a PDF is refused before any row exists), writes the file
 * row in_progress, enqueues after the commit and tells the owner's and the admins' lists.
 */
export async function submitAnnuityFile(ctx: AppContext, actor: AuthState, upload: StoredUpload | undefined, title: string | undefined): Promise<AnnuityFileRow> {
  if (!upload) throw new AppError('error_choose_file');
  if (upload.size === 0) throw new AppError('empty_file');
  if (!(await looksLikeWorkbook(ctx, upload.key))) throw new AppError('wrong_type');
  const now = ctx.clock.now();
  const [file] = await ctx.db
    .insert(annuityFiles)
    .values({
      ownerId: actor.userId,
      title: title || null,
      importName: upload.originalName,
      exportName: exportNameOf(upload.originalName),
      importKey: upload.key,
      size: upload.size,
      sha256: upload.sha256,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await enqueueCommitted(ctx, 'annuities', [{ fileId: file!.id }]);
  publishFile(ctx.realtime, file!, { admins: true });
  return file!;
}

export interface FileListQuery {
  page: number;
  limit: number;
  search?: string;
  sort: 'name' | 'date';
  order: 'asc' | 'desc';
}

/** The files a caller lists: their own (everyone's for an admin), searched on name and title. */
export function filesWhere(actor: Reader, search: string | undefined): SQL | undefined {
  const conditions: SQL[] = [];
  if (!actor.isAdmin) conditions.push(eq(annuityFiles.ownerId, actor.userId));
  if (search) {
    const pattern = likePattern(search);
    conditions.push(or(ilike(annuityFiles.importName, pattern), ilike(annuityFiles.title, pattern))!);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The query of one page of files: by name then date, or by date, either way; an index of migration 0017 gives each order. */
export function filesPageQuery(ctx: Pick<AppContext, 'db'>, where: SQL | undefined, query: Pick<FileListQuery, 'page' | 'limit' | 'sort' | 'order'>) {
  const direction = query.order === 'asc' ? asc : desc;
  return ctx.db
    .select({ file: annuityFiles, owner: { id: users.id, email: users.email, companyAgent: users.companyAgent } })
    .from(annuityFiles)
    .innerJoin(users, eq(users.id, annuityFiles.ownerId))
    .where(where)
    .orderBy(...(query.sort === 'name' ? [direction(annuityFiles.importName)] : []), direction(annuityFiles.createdAt), direction(annuityFiles.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
}

/** One page of files, searched (name, title) and sorted (name, date) in the database. */
export async function listFiles(ctx: AppContext, actor: AuthState, query: FileListQuery, locale: Locale) {
  const where = filesWhere(actor, query.search);
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(annuityFiles).where(where);
  const rows = await filesPageQuery(ctx, where, query);
  // The counts as the reader's rows show them: the ledger's colours (decision 233).
  const colours = await fileColours(ctx, actor, rows.filter(({ file }) => file.state === 'Done').map(({ file }) => file));
  return {
    data: rows.map(({ file, owner }) => {
      const dto = toFileDto(file, locale, actor.isAdmin ? owner : undefined);
      const moved = colours.get(file.id);
      return moved ? { ...dto, counts: countsWith(storedCountsOf(file), moved) } : dto;
    }),
    meta: paginationMeta(query.page, query.limit, total),
  };
}

export async function findFileByPath(ctx: AppContext, filePath: string): Promise<AnnuityFileRow | undefined> {
  const [file] = await ctx.db
    .select()
    .from(annuityFiles)
    .where(or(eq(annuityFiles.importKey, filePath), eq(annuityFiles.exportKey, filePath)))
    .limit(1);
  return file;
}

/** A Done file the caller may read, or a 404 (someone else's file is not found, not forbidden). */
export async function readableFile(ctx: AppContext, actor: AuthState, id: string, options: { done: boolean }): Promise<AnnuityFileRow> {
  const file = await loadAnnuityFile(ctx.db, id);
  if (!file || !canRead(actor, file) || (options.done && file.state !== 'Done')) throw new AppError('not_found');
  return file;
}

const SORT_COLUMNS = {
  num_publication: annuityPatents.numPublication,
  num_depot: annuityPatents.numDepot,
  reference: annuityPatents.reference,
  nom: annuityPatents.nom,
  pays: annuityPatents.pays,
  payeur: annuityPatents.payeur,
  date_depot: annuityPatents.dateDepot,
  mois_date_depot: annuityPatents.moisDateDepot,
  date_predecent_annuite: annuityPatents.datePrecedenteAnnuite,
  date_precedente_annuite: annuityPatents.datePrecedenteAnnuite,
  quant_precedent: annuityPatents.quantPrecedent,
  date_prochaine_annuite: annuityPatents.dateProchaineAnnuite,
  limite_date_prochaine_annuite: annuityPatents.limiteDateProchaineAnnuite,
  colour: annuityPatents.colour,
} satisfies Record<AnnuityPatentSort, AnyPgColumn>;

export interface PatentListQuery {
  page: number;
  limit: number | 'all';
  search?: string;
  sort?: AnnuityPatentSort;
  order: 'asc' | 'desc';
  colour?: 'ok' | 'nok' | 'orange' | 'no_date';
}

/**
 * The rows of a file the modal's search and colour filter keep. `colours`: the rows the reader's ledger moves (decision
 * 233); a colour then keeps its stored rows but those moved away, and the rows moved to it.
 */
function patentFilter(fileId: string, filter: { search?: string | undefined; colour?: PatentListQuery['colour'] }, searched?: SQL, colours?: FileColours): SQL[] {
  const conditions: SQL[] = [eq(annuityPatents.fileId, fileId)];
  if (filter.colour) conditions.push(colourHolds(filter.colour, colours));
  if (filter.search) conditions.push(searched ?? searchTextHolds(filter.search));
  return conditions;
}

function colourHolds(colour: Colour, colours: FileColours | undefined): SQL {
  const movedAway: number[] = [];
  const movedIn: number[] = [];
  for (const { rowIndex, from, to } of colours ? movedRows(colours) : []) {
    if (from === colour) movedAway.push(rowIndex);
    else if (to === colour) movedIn.push(rowIndex);
  }
  const rowIn = (rows: number[]) => sql`${annuityPatents.rowIndex} = any(${`{${rows.join(',')}}`}::int[])`;
  const stored = movedAway.length === 0 ? eq(annuityPatents.colour, colour) : and(eq(annuityPatents.colour, colour), not(rowIn(movedAway)))!;
  return movedIn.length === 0 ? stored : or(stored, rowIn(movedIn))!;
}

/**
 * One ordered run of rows of a page: its condition and its order, the sorted column (none: file order)
 * then row_index, each ascending or descending; an index of migration 0017 gives it (no sort of the file).
 */
export interface PatentRun {
  where: SQL;
  column?: AnyPgColumn;
  direction: 'asc' | 'desc';
}

/**
 * The order of a file's patents as one or two runs read one after the other (decision 178). Unsorted:
 * the file's order (row_index), either way. Sorted ascending: the column, nulls last (PostgreSQL's
 * ascending default), ties in file order: one forward scan of (file_id, column, row_index). Sorted
 * descending: the rows with a value, column then row_index descending (a backward scan of the same
 * index), then the rows without one in file order: one btree gives an order or its mirror, and "nulls
 * last" both ways is not a mirror.
 */
export function patentRuns(fileId: string, query: Pick<PatentListQuery, 'search' | 'sort' | 'order' | 'colour'>, searched?: SQL): PatentRun[] {
  const base = patentFilter(fileId, query, searched);
  // Sorting by colour within one colour is the file's order.
  if (!query.sort || (query.sort === 'colour' && query.colour)) return [{ where: and(...base)!, direction: query.order }];
  const column = SORT_COLUMNS[query.sort];
  if (query.order === 'asc' || column.notNull) return [{ where: and(...base)!, column, direction: query.order }];
  return [
    { where: and(...base, isNotNull(column))!, column, direction: 'desc' },
    // Ordered by the column too (all null: no change) so the index's order is the one asked for.
    { where: and(...base, isNull(column))!, column, direction: 'asc' },
  ];
}

const ordered = (direction: 'asc' | 'desc', ...columns: Array<AnyPgColumn | undefined>) =>
  columns.filter((c) => c !== undefined).map((c) => (direction === 'asc' ? asc(c) : desc(c)));

/**
 * The query of the row indexes of `limit` rows of one run from `offset`, in the run's order: the index keys alone
 * (an index-only scan, first page or deep); the rows themselves are then read by their `(file_id, row_index)` key
 * as one JSON text (`patentsByKeys`, decision 210). OFFSET over whole rows read ~50,000 of them for page 500.
 */
export function patentRunQuery(ctx: Pick<AppContext, 'db'>, run: PatentRun, offset: number, limit: number) {
  const query = ctx.db
    .select({ rowIndex: annuityPatents.rowIndex })
    .from(annuityPatents)
    .where(run.where)
    .orderBy(...ordered(run.direction, run.column, annuityPatents.rowIndex))
    .limit(limit);
  return offset === 0 ? query : query.offset(offset);
}

/**
 * One page of a file's patents: search, colour filter, sort and paging all in the database; rows
 * without the sorted value last. `limit=all` is a window of ANNUITY_ALL_PAGE_SIZE rows, `page`
 * counting windows (decision 178): no answer holds a whole file.
 */
export async function listPatents(ctx: AppContext, file: AnnuityFileRow, query: PatentListQuery, actor: Reader) {
  // The colours are the ledger's where it moves them for this reader (decision 233): the counts always; a page that
  // selects or sorts by colour, in memory over the file's order when the ledger moves any row.
  const colours = (await fileColours(ctx, actor, [file])).get(file.id)!;
  const counts = countsWith(storedCountsOf(file), colours);
  if (colours.size > 0 && (query.colour !== undefined || query.sort === 'colour')) return { ...(await pageByLedgerColours(ctx, file, query, actor, colours, counts)), counts };
  return { ...(await pageByStoredColours(ctx, file, query, actor, counts)), counts };
}

async function pageByStoredColours(ctx: AppContext, file: AnnuityFileRow, query: PatentListQuery, actor: Reader, counts: ColourCounts) {
  const limit = query.limit === 'all' ? ANNUITY_ALL_PAGE_SIZE : query.limit;
  const page = query.page;
  // Without a search the file row already knows the count (kept by the check and by every edit): no count over 100,000 rows.
  const known = query.search ? undefined : query.colour ? counts[query.colour] : (file.rowsTotal ?? undefined);
  // A search's matches are read once per version of the file (search-matches.ts, decision 188).
  // Sorted by a column (not the colour), a page filters the column's order by every match (decision 190).
  const byOrder = query.sort !== undefined && query.sort !== 'colour';
  const matches = query.search ? await searchMatches(ctx.db, file, query.search, query.colour, byOrder) : undefined;
  const total = known ?? matches?.total ?? (await ctx.db.select({ total: count() }).from(annuityPatents).where(and(...patentFilter(file.id, query))))[0]?.total ?? 0;
  const offset = (page - 1) * limit;
  if (matches && offset >= matches.total) return { patents: [], meta: paginationMeta(page, limit, total) };
  if (byOrder) {
    // Sorted by a column: a slice of the file's order for that column, read by (file, row) keys (decision 190).
    const order = await sortOrder(ctx.db, file, SORT_COLUMNS[query.sort!]);
    const code = query.colour ? COLOUR_CODES[query.colour] : undefined;
    let keep: ((rowIndex: number, colour: number) => boolean) | undefined;
    if (matches?.rows) {
      const listed = new Set(matches.rows);
      keep = (rowIndex) => listed.has(rowIndex);
    } else if (matches?.bitmap) {
      const bitmap = matches.bitmap;
      keep = (rowIndex) => bitmap[rowIndex] === 1;
    } else if (code !== undefined) keep = (_rowIndex, colour) => colour === code;
    const rowIndexes = pageOfOrder(order, query.order, offset, limit, keep);
    // The colours and statuses read the ledger: one statement for the page (decision 214).
    return { patents: await patentDtosWithLedger(ctx, actor, await patentPageByKeys(ctx.db, file.id, rowIndexes)), meta: paginationMeta(page, limit, total) };
  }
  const [first, nulls] = patentRuns(file.id, query, matches && query.search ? matchesCondition(query.search, matches) : undefined);
  const rowIndexes = (await patentRunQuery(ctx, first!, offset, limit)).map((r) => r.rowIndex);
  if (nulls && rowIndexes.length < limit) {
    // The page reaches the rows without a value: how many rows have one decides where they start.
    const before = rowIndexes.length > 0 || offset === 0 ? offset + rowIndexes.length : ((await ctx.db.select({ n: count() }).from(annuityPatents).where(first!.where))[0]?.n ?? 0);
    rowIndexes.push(...(await patentRunQuery(ctx, nulls, Math.max(0, offset - before), limit - rowIndexes.length)).map((r) => r.rowIndex));
  }
  return { patents: await patentDtosWithLedger(ctx, actor, await patentPageByKeys(ctx.db, file.id, rowIndexes)), meta: paginationMeta(page, limit, total) };
}

/** The colours in the database's order of their names (the colour sort's index; C and en_US collations agree on these four). */
const COLOUR_SORT_RANK: readonly number[] = (() => {
  const rank: number[] = [];
  for (const [i, name] of (Object.keys(COLOUR_CODES) as Colour[]).sort().entries()) rank[COLOUR_CODES[name]] = i;
  return rank;
})();

/**
 * A page that selects or sorts by colour when the ledger changes some of the file's colours for this reader (decision
 * 233): the file's order, or the sorted column's (decision 190), with each row's colour the ledger's where it changes
 * it, sliced as decision 190's orders are. Sorted by colour, the file's order within each colour.
 */
async function pageByLedgerColours(
  ctx: AppContext,
  file: AnnuityFileRow,
  query: PatentListQuery,
  actor: Reader,
  colours: FileColours,
  counts: ColourCounts,
) {
  const limit = query.limit === 'all' ? ANNUITY_ALL_PAGE_SIZE : query.limit;
  const column = query.sort !== undefined && query.sort !== 'colour' ? SORT_COLUMNS[query.sort] : annuityPatents.rowIndex;
  let order = await sortOrder(ctx.db, file, column);
  if (query.sort === 'colour' && !query.colour) order = byColour(order, colours);
  const matches = query.search ? await searchMatches(ctx.db, file, query.search, undefined, true) : undefined;
  const listed = matches?.rows ? new Set(matches.rows) : undefined;
  const bitmap = matches?.bitmap;
  const wanted = query.colour ? COLOUR_CODES[query.colour] : undefined;
  const keep = (rowIndex: number, stored: number) =>
    (wanted === undefined || colourOf(colours, rowIndex, stored) === wanted) && (!matches || (listed ? listed.has(rowIndex) : bitmap![rowIndex] === 1));
  let total = query.colour ? counts[query.colour] : (file.rowsTotal ?? order.keys.length);
  if (matches) {
    total = 0;
    for (const key of order.keys) if (keep(key >> 2, key & 3)) total++;
  }
  const rowIndexes = pageOfOrder(order, query.order, (query.page - 1) * limit, limit, keep);
  return { patents: await patentDtosWithLedger(ctx, actor, await patentPageByKeys(ctx.db, file.id, rowIndexes)), meta: paginationMeta(query.page, limit, total) };
}

/** The colour orders already regrouped, per kept colours of a file version (the file's order is that version's too). */
const colourOrders = new WeakMap<FileColours, SortOrder>();

/**
 * The file's order (by row index) regrouped by colour, colours by `COLOUR_SORT_RANK`; descending reverses it whole, as
 * the colour index's backward scan. A counting sort, kept while the colours are.
 */
function byColour(fileOrder: SortOrder, colours: FileColours): SortOrder {
  const kept = colourOrders.get(colours);
  if (kept) return kept;
  const rankOf = (key: number) => COLOUR_SORT_RANK[colourOf(colours, key >> 2, key & 3)]!;
  const starts = [0, 0, 0, 0, 0];
  for (const key of fileOrder.keys) starts[rankOf(key) + 1]!++;
  for (let rank = 1; rank < starts.length; rank++) starts[rank]! += starts[rank - 1]!;
  const keys = new Int32Array(fileOrder.keys.length);
  for (const key of fileOrder.keys) keys[starts[rankOf(key)]!++] = key;
  const order = { keys, withValue: keys.length };
  colourOrders.set(colours, order);
  return order;
}

/** A patent of a Done file the caller may edit (their own, any for an admin), with its file; else 404. */
async function editablePatent(ctx: AppContext, actor: AuthState, id: string) {
  const [row] = await ctx.db
    .select({ patent: annuityPatents, file: annuityFiles })
    .from(annuityPatents)
    .innerJoin(annuityFiles, eq(annuityFiles.id, annuityPatents.fileId))
    .where(eq(annuityPatents.id, id));
  if (!row || !canRead(actor, row.file) || row.file.state !== 'Done') throw new AppError('not_found');
  return row;
}

/** Marks the files' exports stale (inside the edit's transaction); the queue rewrites them after the commit. */
async function markExportsStale(tx: Pick<AppContext['db'], 'update'>, fileIds: string[]) {
  await tx
    .update(annuityFiles)
    .set({ editVersion: sql`${annuityFiles.editVersion} + 1`, exportStale: true, updatedAt: new Date() })
    .where(inArray(annuityFiles.id, fileIds));
}

export interface PatentEdit {
  date_precedente_annuite?: string | null;
  date_prochaine_annuite?: string | null;
  quant_precedent?: number | null;
  limite_date_prochaine_annuite?: string | null;
}

const validDay = (value: string | null | undefined, field: string) => {
  if (value === null || value === undefined) return null;
  const day = parseIsoDate(value);
  if (day === null) throw new AppError('validation_failed', { fields: { [field]: 'validation_failed' } });
  return day;
};

/** A next date before the previous one, or a deadline before the next date: refused. */
function checkOrder(previous: Day | null, next: Day | null, limit: Day | null) {
  if (previous !== null && next !== null && next < previous) throw new AppError('next_before_previous');
  if (next !== null && limit !== null && limit < next) throw new AppError('validation_failed', { fields: { limite_date_prochaine_annuite: 'validation_failed' } });
}

/**
 * The schedule after the user said which annuity was paid last: the edited number, or the annuity the
 * edited previous date names. Computed by the engine from the row's stored office, origin and filing
 * date, for the file's reference date. Null when the row cannot be computed (no filing date, an
 * unknown office or origin, a combination the engine refuses) or names no annuity: the caller keeps
 * the user's dates and recomputes the colour only.
 */
function scheduleAfterEdit(patent: AnnuityPatentRow, reference: Day, lastPaid: number | null, previousDay: Day | null): Schedule | null {
  const filing = parseIsoDate(patent.dateDepot ?? '');
  if (filing === null || patent.office === null || !isOffice(patent.office) || patent.origin === null || !isOrigin(patent.origin)) return null;
  const right = { office: patent.office, origin: patent.origin, filing };
  let paid = lastPaid;
  if (paid === null) {
    if (previousDay === null) return null;
    const all = computeSchedule(right, reference);
    paid = all.ok ? (annuityDueBy(all.value.annuities, previousDay)?.number ?? null) : null;
    if (paid === null) return null;
  }
  const result = computeSchedule({ ...right, lastPaid: paid }, reference);
  return result.ok ? result.value : null;
}

/**
 * The edit patent modal. The previous annuity number must lie in the office's range (first year to
 * 20). When the previous number or date changes, the engine recomputes the previous and next annuity
 * (number, due date, instruction limit, deadline, fee, lapsed, colour) from the row's office, origin
 * and filing date for the file's reference date, the number paid being the edited one (or the one the
 * edited previous date names); a date the user changed in the same edit (previous, next, deadline) is
 * kept, the others follow the engine. Without a filing date the
 * user's dates are kept and only the colour is recomputed, by the engine's rule. A next date before
 * the previous one is refused.
 */
export async function editPatent(ctx: AppContext, actor: AuthState, id: string, edit: PatentEdit) {
  const { patent, file } = await editablePatent(ctx, actor, id);
  if (edit.quant_precedent !== undefined && edit.quant_precedent !== null) {
    const range = annuityRange(patent.office !== null && isOffice(patent.office) ? patent.office : null, patent.origin !== null && isOrigin(patent.origin) ? patent.origin : null);
    if (!inAnnuityRange(edit.quant_precedent, range)) {
      throw new AppError('annuity_number_out_of_range', { fields: { quant_precedent: 'annuity_number_out_of_range' }, params: { min: range.first, max: range.last } });
    }
  }
  let merged = {
    datePrecedenteAnnuite: edit.date_precedente_annuite === undefined ? patent.datePrecedenteAnnuite : edit.date_precedente_annuite,
    dateProchaineAnnuite: edit.date_prochaine_annuite === undefined ? patent.dateProchaineAnnuite : edit.date_prochaine_annuite,
    quantPrecedent: edit.quant_precedent === undefined ? patent.quantPrecedent : edit.quant_precedent,
    limiteDateProchaineAnnuite: edit.limite_date_prochaine_annuite === undefined ? patent.limiteDateProchaineAnnuite : edit.limite_date_prochaine_annuite,
  };
  const typedPrevious = validDay(merged.datePrecedenteAnnuite, 'date_precedente_annuite');
  // What the user typed is refused when it contradicts itself, before anything is recomputed from it.
  checkOrder(typedPrevious, validDay(merged.dateProchaineAnnuite, 'date_prochaine_annuite'), validDay(merged.limiteDateProchaineAnnuite, 'limite_date_prochaine_annuite'));
  const reference = parseIsoDate(file.referenceDate ?? '') ?? parseIsoDate(new Date().toISOString().slice(0, 10))!;
  // The modal sends its four fields every time: a field is edited when its value differs from the stored one.
  const numberEdited = merged.quantPrecedent !== patent.quantPrecedent;
  const previousEdited = merged.datePrecedenteAnnuite !== patent.datePrecedenteAnnuite;
  const schedule =
    (numberEdited && merged.quantPrecedent !== null) || (previousEdited && typedPrevious !== null)
      ? scheduleAfterEdit(patent, reference, numberEdited ? merged.quantPrecedent : null, typedPrevious)
      : null;
  // A date the user typed in this edit is theirs; what they left as it was follows the engine.
  const nextEdited = merged.dateProchaineAnnuite !== patent.dateProchaineAnnuite;
  const limitEdited = merged.limiteDateProchaineAnnuite !== patent.limiteDateProchaineAnnuite;
  let computed: Partial<ReturnType<typeof scheduleFields>> = {};
  if (schedule !== null) {
    const fields = scheduleFields(schedule);
    const dechu = merged.dateProchaineAnnuite === null && fields.dechu;
    computed = nextEdited ? { ...fields, inGraceWithSurcharge: false, dechu, ...(dechu ? {} : { missedNumber: null, missedLostAfter: null }) } : fields;
    merged = {
      datePrecedenteAnnuite: previousEdited ? merged.datePrecedenteAnnuite : fields.datePrecedenteAnnuite,
      quantPrecedent: fields.quantPrecedent,
      dateProchaineAnnuite: nextEdited ? merged.dateProchaineAnnuite : fields.dateProchaineAnnuite,
      limiteDateProchaineAnnuite: limitEdited ? merged.limiteDateProchaineAnnuite : fields.limiteDateProchaineAnnuite,
    };
  }
  const previous = parseIsoDate(merged.datePrecedenteAnnuite ?? '');
  const next = parseIsoDate(merged.dateProchaineAnnuite ?? '');
  // The typed dates kept beside the engine's may still contradict them.
  checkOrder(previous, next, parseIsoDate(merged.limiteDateProchaineAnnuite ?? ''));
  // The spec's instruction lock (due date minus 7 days) of a next date the user typed, by the engine's calendar.
  if (nextEdited) computed = { ...computed, instructionLimit: next === null ? null : formatIsoDate(addDays(next, -7)) };
  // The engine's rule on the dates stored (the same as the schedule's colour when nothing was typed).
  const colour = scheduleColour(next, previous, reference);
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(annuityPatents)
      .set({ ...computed, ...merged, colour, edited: true })
      .where(eq(annuityPatents.id, patent.id))
      .returning();
    if (row!.colour !== patent.colour) {
      const counter = { ok: annuityFiles.countOk, nok: annuityFiles.countNok, orange: annuityFiles.countOrange, no_date: annuityFiles.countNoDate };
      await tx
        .update(annuityFiles)
        .set({ [countKey(patent.colour)]: sql`${counter[patent.colour]} - 1`, [countKey(colour)]: sql`${counter[colour]} + 1` })
        .where(eq(annuityFiles.id, file.id));
    }
    await markExportsStale(tx, [file.id]);
    return row!;
  });
  await enqueueCommitted(ctx, 'annuities', [{ fileId: file.id }]);
  // The answer replaces the row on screen: its colour and status read the ledger, as the list's (decision 214).
  const [dto] = await patentDtosWithLedger(ctx, actor, { patents: [toPatentDto(updated)], keys: [updated.patentKey] });
  return dto!;
}

const countKey = (colour: 'ok' | 'nok' | 'orange' | 'no_date') =>
  ({ ok: 'countOk', nok: 'countNok', orange: 'countOrange', no_date: 'countNoDate' })[colour];

/** The bulk comment: every id must be a patent of a Done file the caller may edit, or nothing changes (404). */
export async function commentPatents(ctx: AppContext, actor: AuthState, ids: string[], comment: string): Promise<number> {
  const unique = [...new Set(ids)];
  const fileIds = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: annuityPatents.id, fileId: annuityPatents.fileId, ownerId: annuityFiles.ownerId, state: annuityFiles.state })
      .from(annuityPatents)
      .innerJoin(annuityFiles, eq(annuityFiles.id, annuityPatents.fileId))
      .where(inArray(annuityPatents.id, unique));
    if (rows.length !== unique.length || rows.some((r) => r.state !== 'Done' || !canRead(actor, r))) throw new AppError('not_found');
    await tx.update(annuityPatents).set({ commentaire: comment || null, edited: true }).where(inArray(annuityPatents.id, unique));
    const files = [...new Set(rows.map((r) => r.fileId))];
    await markExportsStale(tx, files);
    return files;
  });
  await enqueueCommitted(ctx, 'annuities', fileIds.map((fileId) => ({ fileId })));
  return unique.length;
}

/**
 * The bulk comment over every row of a Done file the caller may edit that the modal's search and colour
 * filter keep, but the rows in `except` (the "All" view's select-all, decision 178). One update in the
 * database: the client never lists 100,000 ids. Returns how many rows were updated.
 */
export async function commentFilePatents(
  ctx: AppContext,
  actor: AuthState,
  fileId: string,
  body: { search?: string | undefined; colour?: PatentListQuery['colour']; except: string[]; comment: string },
): Promise<number> {
  const file = await readableFile(ctx, actor, fileId, { done: true });
  // A colour keeps the rows the modal shows in it: the ledger's colours for this reader (decision 233).
  const conditions = patentFilter(file.id, body, undefined, body.colour ? (await fileColours(ctx, actor, [file])).get(file.id) : undefined);
  if (body.except.length > 0) conditions.push(not(inArray(annuityPatents.id, [...new Set(body.except)])));
  const updated = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(annuityPatents)
      .set({ commentaire: body.comment || null, edited: true })
      .where(and(...conditions))
      .returning({ id: annuityPatents.id });
    if (rows.length > 0) await markExportsStale(tx, [file.id]);
    return rows.length;
  });
  if (updated > 0) await enqueueCommitted(ctx, 'annuities', [{ fileId: file.id }]);
  return updated;
}

/** /annuities/research: the caller's Done files (everyone's for an admin), matched on number, reference, name. */
export async function research(ctx: AppContext, actor: AuthState, q: string, page: number, limit: number) {
  const conditions: SQL[] = [eq(annuityFiles.state, 'Done'), searchTextHolds(q)];
  if (!actor.isAdmin) conditions.push(eq(annuityFiles.ownerId, actor.userId));
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await ctx.db
    .select({ total: count() })
    .from(annuityPatents)
    .innerJoin(annuityFiles, eq(annuityFiles.id, annuityPatents.fileId))
    .where(where);
  const rows = await ctx.db
    .select({ patent: annuityPatents, file: { id: annuityFiles.id, title: annuityFiles.title, importName: annuityFiles.importName, referenceDate: annuityFiles.referenceDate } })
    .from(annuityPatents)
    .innerJoin(annuityFiles, eq(annuityFiles.id, annuityPatents.fileId))
    .where(where)
    .orderBy(desc(annuityFiles.createdAt), asc(annuityPatents.fileId), asc(annuityPatents.rowIndex))
    .limit(limit)
    .offset((page - 1) * limit);
  // The colours and statuses read the ledger, as in the file's list (decision 214): one statement for the page.
  const patents = await patentDtosWithLedger(ctx, actor, { patents: rows.map(({ patent }) => toPatentDto(patent)), keys: rows.map(({ patent }) => patent.patentKey) });
  return {
    data: rows.map(({ file }, i) => ({
      patent: patents[i]!,
      file: { _id: file.id, title: file.title, name_file_import: file.importName, reference_date: file.referenceDate },
    })),
    meta: paginationMeta(page, limit, total),
  };
}

/** A download's body: sent once the answer's headers are set. */
export interface DownloadBody {
  send(res: Writable): Promise<void>;
}

/**
 * A Done file's export as this reader's rows show it (decision 234): the stored workbook as it is when the reader's
 * ledger moves none of its rows, else streamed through `writeLedgerExport` (the moved rows in the ledger's colours)
 * from a private copy on disk (a zip is read from its end). Whatever can fail before the first byte (the ledger's
 * read, the storage, the copy) fails here, before the answer's headers.
 */
export async function exportBody(ctx: AppContext, actor: Reader, file: AnnuityFileRow, open: () => Promise<Readable>): Promise<DownloadBody> {
  const colours = (await fileColours(ctx, actor, [file])).get(file.id)!;
  const stored = await open();
  if (colours.size === 0) return { send: (res) => pipeline(stored, res) };
  // The stored export is copied to a private directory and recoloured there, in a thread of its own, before the
  // answer starts: a failure is still a JSON error, and the API's event loop (embedded, beside its database
  // thread) only streams the result.
  const dir = await mkdtemp(join(tmpdir(), 'portal-export-'));
  const path = join(dir, 'export.xlsx');
  const recoloured = join(dir, 'recoloured.xlsx');
  try {
    await pipeline(stored, createWriteStream(path, { mode: 0o600 }));
    // Loaded on first use, as the thread's own modules: nothing of the recolouring is in the API's memory until a
    // reader's ledger moves rows.
    const { writeLedgerExportInThread } = await import('@portal/annuities/ledger-export-thread');
    await writeLedgerExportInThread(path, ledgerMovesOf(colours), recoloured);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    async send(res) {
      try {
        await pipeline(createReadStream(recoloured), res);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Waits up to `ms` for a stale export to be rewritten; the row is the truth. */
export async function waitForFreshExport(ctx: AppContext, file: AnnuityFileRow, ms: number): Promise<AnnuityFileRow> {
  const deadline = Date.now() + ms;
  let current = file;
  while (current.exportStale && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    current = (await loadAnnuityFile(ctx.db, file.id)) ?? current;
  }
  return current;
}
