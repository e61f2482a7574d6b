import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { LEDES_TYPES, paginationMeta, type HistoryItem, type LedesHistorySort, type LedesType, type SortOrder } from '@portal/contracts';
import { LOCALES, serverT, type Locale } from '@portal/i18n';
import { ledesOffices, ledesRunBadge, ledesRunCounts, ledesRuns, roles, userRoles, users, type Database } from '@portal/db';
import { loadRuns, rowsOf, type LedesRunRow } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { likePattern } from '../../domain/search.ts';
import { enqueueCommitted } from '@portal/jobs';
import { AppError } from '../../domain/errors.ts';
import type { StoredUpload } from '../../domain/uploads.ts';
import type { AuthState } from '../../domain/auth.ts';

export interface UploadRequest {
  files: StoredUpload[];
  type: string | undefined;
  office: string | undefined;
  userId: string | undefined;
  idClient: string | undefined;
  clientDestinataire: string | undefined;
  sendHistory: boolean | undefined;
  sendServer: boolean | undefined;
}

function historyName(now: Date, originalName: string): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = [now.getUTCFullYear(), p(now.getUTCMonth() + 1), p(now.getUTCDate()), p(now.getUTCHours()), p(now.getUTCMinutes()), p(now.getUTCSeconds())];
  return `${stamp.join('_')}_${originalName}`;
}

/**
 * Validates in the spec's order (file, type, office, user), writes one in_progress run per stored
 * file in one transaction, then enqueues after the commit. Admins submit for a chosen LEDES user
 * and choose the history/server options; everyone else submits for themselves with both forced on.
 */
export async function submitLedesFiles(ctx: AppContext, actor: AuthState, request: UploadRequest): Promise<LedesRunRow[]> {
  if (request.files.length === 0) throw new AppError('error_file');
  if (!request.type || !(LEDES_TYPES as readonly string[]).includes(request.type)) throw new AppError('missing_type');
  const [office] = request.office ? await ctx.db.select().from(ledesOffices).where(eq(ledesOffices.code, request.office)) : [];
  if (!office) throw new AppError('missing_office');
  if (actor.isAdmin && !request.userId) throw new AppError('missing_id_user');

  const ownerId = actor.isAdmin ? request.userId! : actor.userId;
  const owner = await ledesOwner(ctx, ownerId);
  if (!owner) throw new AppError('missing_id_user');
  let idClient = request.idClient || undefined;
  if (idClient && !owner.idClient.includes(idClient)) throw new AppError('validation_failed', { fields: { id_client: 'validation_failed' } });
  if (!idClient && owner.idClient.length === 1) idClient = owner.idClient[0];
  if (!idClient && owner.idClient.length > 1) throw new AppError('validation_failed', { fields: { id_client: 'validation_failed' } });

  const now = ctx.clock.now();
  const rows = await ctx.db.transaction(async (tx) =>
    tx
      .insert(ledesRuns)
      .values(
        request.files.map((file) => ({
          ownerId,
          submittedBy: actor.userId,
          name: historyName(now, file.originalName),
          originalName: file.originalName,
          originalKey: file.key,
          size: file.size,
          sha256: file.sha256,
          office: office.code,
          type: request.type as LedesType,
          idClient: idClient ?? null,
          clientDestinataire: request.clientDestinataire ?? null,
          sendHistory: actor.isAdmin ? (request.sendHistory ?? true) : true,
          sendServer: actor.isAdmin ? (request.sendServer ?? true) : true,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning(),
  );
  await enqueueCommitted(ctx, 'ledes', rows.map((row) => ({ runId: row.id })));
  return rows;
}

async function ledesOwner(ctx: AppContext, userId: string) {
  const [owner] = await ctx.db
    .select({ id: users.id, idClient: users.idClient })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.id, userId), inArray(roles.slug, ['user_agent_ledes', 'admin'])))
    .limit(1);
  return owner;
}

/** Waits for runs to leave in_progress, polling the rows (the truth), up to `seconds`. */
export async function waitForRuns(ctx: AppContext, ids: string[], seconds: number): Promise<LedesRunRow[]> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const runs = await loadRuns(ctx.db, ids);
    if (runs.every((r) => r.state !== 'in_progress') || Date.now() >= deadline) return runs;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Runs the caller may see: their own, or anyone's for an admin. */
export function canRead(actor: AuthState, run: Pick<LedesRunRow, 'ownerId'>): boolean {
  return actor.isAdmin || run.ownerId === actor.userId;
}

export async function findRunByFilePath(ctx: AppContext, filePath: string) {
  const [run] = await ctx.db
    .select()
    .from(ledesRuns)
    .where(or(eq(ledesRuns.originalKey, filePath), eq(ledesRuns.treatedKey, filePath)))
    .limit(1);
  return run;
}

export interface HistoryFilter {
  ownerId?: string;
  onlyShared: boolean;
  /** Matched against the file name, the owner's name and e-mail, and the office and type as codes or as displayed (either language). */
  search?: string;
  /** Newest first when absent. */
  sort?: { column: LedesHistorySort; order: SortOrder };
  /** The caller's language: office and type sort by the label the caller sees. */
  locale?: Locale;
}

/** The type codes whose displayed name, in either language, contains `search` (case-insensitive). */
export function typesNamed(search: string): LedesType[] {
  const needle = search.toLocaleLowerCase();
  return LEDES_TYPES.filter((type) => LOCALES.some((locale) => serverT(locale)(`ledes:types.${type}`).toLocaleLowerCase().includes(needle)));
}

/**
 * One page of history items, newest first, with the spec's meta. Answered from run rows alone (the
 * findings' summary is stored on the row when a run finishes). Without a search it is one prepared
 * statement whatever the number of runs: the total comes from `ledes_run_counts` (kept by triggers)
 * in the same round trip as the page; a page past the end reads the total alone. A search counts
 * its matches, then reads the page. `signal` aborts between the queries: nothing more is started for
 * a client that left, and the result is then undefined.
 */
export async function listHistory(ctx: AppContext, filter: HistoryFilter, page: number, limit: number, signal?: AbortSignal) {
  if (signal?.aborted) return undefined;
  if (filter.search) return searchHistory(ctx, filter, page, limit, signal);
  const statements = historyStatements(ctx.db, Boolean(filter.ownerId), filter.onlyShared);
  const values = { ownerId: filter.ownerId ?? '', limit, offset: (page - 1) * limit };
  if (!isDefaultOrder(filter)) {
    // Another order: the kept total, then the page in that order's index (decision 183); nothing counts the runs.
    const total = (await statements.total.execute(values))[0]?.total ?? 0;
    if (signal?.aborted) return undefined;
    const rows = total > (page - 1) * limit ? await historyPageQuery(ctx.db, filter, page, limit) : [];
    return { data: rows.map(toHistoryItem), meta: paginationMeta(page, limit, total) };
  }
  const rows = await statements.page.execute(values);
  let total = rows[0]?.total;
  if (total === undefined) {
    if (signal?.aborted) return undefined;
    total = (await statements.total.execute(values))[0]?.total ?? 0;
  }
  return { data: rows.map(toHistoryItem), meta: paginationMeta(page, limit, total) };
}

/** A search: what it matches outside the runs (offices, types, owners), then the count of its runs, then the page. */
async function searchHistory(ctx: AppContext, filter: HistoryFilter, page: number, limit: number, signal?: AbortSignal) {
  const matches = await historySearchMatches(ctx.db, filter.search!);
  if (signal?.aborted) return undefined;
  const [{ total } = { total: 0 }] = await historyCountQuery(ctx.db, filter, matches);
  if (signal?.aborted) return undefined;
  const rows = total > (page - 1) * limit ? await historyPageQuery(ctx.db, filter, page, limit, matches) : [];
  return { data: rows.map(toHistoryItem), meta: paginationMeta(page, limit, total) };
}

/** The conditions of a history filter on the runs alone (owner, shared only). */
function runsWhere(filter: HistoryFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.ownerId) conditions.push(eq(ledesRuns.ownerId, filter.ownerId));
  if (filter.onlyShared) conditions.push(eq(ledesRuns.sendHistory, true));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * What a history search matches besides the file name: the offices the runs name whose code or label (either
 * language) contains it, the types whose code or displayed name does, the users whose name or e-mail does.
 * Resolved first (a skip scan of the runs' offices, the users table), so that the runs' condition is one index
 * per part (decision 187): the name's trigrams, office, type, owner, OR-ed in a bitmap, never a scan of every run.
 */
export interface HistorySearchMatches {
  pattern: string;
  offices: string[];
  types: LedesType[];
  owners: string[];
}

/** The users a search names: by company (the history's "provider") or e-mail. */
function ownerMatches(pattern: string): SQL {
  return sql`${users.companyAgent} ilike ${pattern} or ${users.email} ilike ${pattern}`;
}

export async function historySearchMatches(db: Database, search: string): Promise<HistorySearchMatches> {
  const pattern = likePattern(search);
  const needle = search.toLocaleLowerCase();
  const types = [...new Set([...LEDES_TYPES.filter((type) => type.includes(needle)), ...typesNamed(search)])];
  const [row] = rowsOf<{ offices: string[] | null; owners: string[] | null }>(
    await db.execute(sql`select
      array(with recursive o(code) as (
          select min(${ledesRuns.office}) from ${ledesRuns}
          union all select (select min(${ledesRuns.office}) from ${ledesRuns} where ${ledesRuns.office} > o.code) from o where o.code is not null)
        select o.code from o where o.code is not null and (o.code ilike ${pattern} or exists (
          select 1 from ${ledesOffices} where ${ledesOffices.code} = o.code and (${ledesOffices.labelEn} ilike ${pattern} or ${ledesOffices.labelFr} ilike ${pattern})))) as offices,
      array(select ${users.id}::text from ${users} where ${ownerMatches(pattern)}) as owners`),
  );
  return { pattern, offices: row?.offices ?? [], types, owners: row?.owners ?? [] };
}

/** Past this many matched owners the statement names them by a subquery, not a list of ids. */
const OWNERS_LISTED = 500;

/** The runs a search matches: its name, or one of the offices, types or owners it matched. */
function searchWhere(matches: HistorySearchMatches | undefined): SQL | undefined {
  if (!matches) return undefined;
  return or(
    ilike(ledesRuns.name, matches.pattern),
    ...(matches.offices.length > 0 ? [inArray(ledesRuns.office, matches.offices)] : []),
    ...(matches.types.length > 0 ? [inArray(ledesRuns.type, matches.types)] : []),
    ...(matches.owners.length > OWNERS_LISTED
      ? [inArray(ledesRuns.ownerId, sql`(select ${users.id} from ${users} where ${ownerMatches(matches.pattern)})`)]
      : matches.owners.length > 0
        ? [inArray(ledesRuns.ownerId, matches.owners)]
        : []),
  );
}

/** The conditions of a history filter (owner, shared only) and of its search's matches. */
function historyWhere(filter: HistoryFilter, matches: HistorySearchMatches | undefined): SQL | undefined {
  return and(runsWhere(filter), searchWhere(matches));
}

/** The count of a searched history: the runs alone (the owners' part of the search is resolved to ids). */
export function historyCountQuery(db: Database, filter: HistoryFilter, matches: HistorySearchMatches | undefined) {
  return db.select({ total: count() }).from(ledesRuns).where(historyWhere(filter, matches));
}

/**
 * The rows of one page of a searched or sorted history, read in an index's order whatever the sort and direction
 * (decision 183). Ties are by date then id, in the sort's direction, so that one ascending index serves both ways.
 * - date, name, state: one index each (`ledes_runs_created_idx`, `ledes_runs_name_idx` on the lower-cased name,
 *   `ledes_runs_badge_idx` on `ledesRunBadge`), read forward or backward.
 * - office, type, provider sort by something the runs do not hold (a label in the caller's language, the owner's
 *   name). The statement reads the few values in that order — the offices the runs name (found by a skip scan of
 *   `ledes_runs_office_created_idx`, three probes), the three types, the owners who have runs — and for each one,
 *   laterally, its runs by date from the value's index. The page's order is the nested loop's: the outer values'
 *   order (a sort of three offices or of the owners, never of the runs), then each value's runs in index order.
 */
export function historyPageQuery(db: Database, filter: HistoryFilter, page: number, limit: number, matches?: HistorySearchMatches) {
  const order = filter.sort?.order ?? 'desc';
  const dir = order === 'asc' ? asc : desc;
  const way = sql.raw(order);
  const locale = filter.locale ?? 'en';
  const column = filter.sort?.column ?? 'date';
  const where = historyWhere(filter, matches);
  const fields = { run: historyColumns, user: historyUserColumns };
  /** The runs of one outer value, by date in the sort's direction, under the table's own name (the selected columns name it). */
  const runsOf = (match: SQL) =>
    db
      .select()
      .from(ledesRuns)
      .where(and(match, runsWhere(filter)))
      .orderBy(dir(ledesRuns.createdAt), dir(ledesRuns.id))
      // No value needs more runs than the page's end: planned for so few rows, its index is read in order.
      .limit(page * limit)
      .as('ledes_runs');
  const byDate = [dir(ledesRuns.createdAt), dir(ledesRuns.id)];
  /** Each outer value of `keys` (a subquery named k, in the sort's order), then its runs by date (`match` ties them). */
  const valuesThenRuns = (keys: SQL, match: SQL, ...order: SQL[]) =>
    db
      .select(fields)
      .from(keys)
      .crossJoinLateral(runsOf(match))
      .innerJoin(users, eq(users.id, ledesRuns.ownerId))
      .where(where)
      .orderBy(...order.map((term) => dir(term)))
      .limit(limit)
      .offset((page - 1) * limit);
  switch (column) {
    case 'date':
    case 'name':
    case 'state': {
      const term = column === 'name' ? [dir(sql`lower(${ledesRuns.originalName})`)] : column === 'state' ? [dir(ledesRunBadge(ledesRuns))] : [];
      return db
        .select(fields)
        .from(ledesRuns)
        .innerJoin(users, eq(users.id, ledesRuns.ownerId))
        .where(where)
        .orderBy(...term, ...byDate)
        .limit(limit)
        .offset((page - 1) * limit);
    }
    case 'provider': {
      // The owners who have runs (kept counts), by name then id (a sort of the owners, in the subquery); each one's runs by date.
      const owners = sql`(select ${users.id} as id, lower(${users.companyAgent}) as name from ${users}
        join ${ledesRunCounts} on ${ledesRunCounts.ownerId} = ${users.id} and ${ledesRunCounts.runs} > 0
        ${filter.ownerId ? sql`where ${users.id} = ${filter.ownerId}` : sql``} order by name ${way}, id ${way}) as k`;
      return valuesThenRuns(owners, sql`${ledesRuns.ownerId} = k.id`, sql`k.name`, sql`k.id`);
    }
    case 'office': {
      // The offices the runs name (a skip scan: one index probe per office), by their label in the caller's language.
      const label = locale === 'fr' ? ledesOffices.labelFr : ledesOffices.labelEn;
      const offices = sql`(with recursive o(code) as (
          select min(${ledesRuns.office}) from ${ledesRuns}
          union all select (select min(${ledesRuns.office}) from ${ledesRuns} where ${ledesRuns.office} > o.code) from o where o.code is not null)
        select o.code, coalesce((select lower(${label}) from ${ledesOffices} where ${ledesOffices.code} = o.code), lower(o.code)) as label
        from o where o.code is not null order by label ${way}, code ${way}) as k`;
      return valuesThenRuns(offices, sql`${ledesRuns.office} = k.code`, sql`k.label`, sql`k.code`);
    }
    case 'type': {
      // The types ranked by their label in the caller's language.
      const t = serverT(locale);
      const ranked = [...LEDES_TYPES].sort((a, b) => t(`ledes:types.${a}`).localeCompare(t(`ledes:types.${b}`), locale));
      const types = sql`(select * from (values ${sql.join(
        ranked.map((type, rank) => sql`(${rank}::int, ${type}::text)`),
        sql`, `,
      )}) as v(rank, type) order by rank ${way}) as k`;
      return valuesThenRuns(types, sql`${ledesRuns.type} = k.type`, sql`k.rank`);
    }
  }
}

function isDefaultOrder(filter: HistoryFilter): boolean {
  return !filter.sort || (filter.sort.column === 'date' && filter.sort.order === 'desc');
}

/**
 * The prepared statements of a history without search, one pair per filter shape, per database
 * handle. Prepared once per connection, PostgreSQL plans them once (the planning of these joins
 * cost more than their execution), and the SQL is not rebuilt on every request.
 */
function historyStatements(db: Database, byOwner: boolean, onlyShared: boolean) {
  let forDb = historyStatementCache.get(db);
  if (!forDb) historyStatementCache.set(db, (forDb = new Map<string, HistoryStatements>()));
  const key = `${byOwner ? 'owner' : 'all'}_${onlyShared ? 'shared' : 'any'}`;
  let statements = forDb.get(key);
  if (!statements) forDb.set(key, (statements = prepareHistoryStatements(db, byOwner, onlyShared, key)));
  return statements;
}

function prepareHistoryStatements(db: Database, byOwner: boolean, onlyShared: boolean, key: string) {
  const ownerId = sql.placeholder('ownerId');
  const counted = onlyShared ? ledesRunCounts.sharedRuns : ledesRunCounts.runs;
  const total = byOwner
    ? sql`coalesce((select ${counted} from ${ledesRunCounts} where ${ledesRunCounts.ownerId} = ${ownerId}), 0)`.mapWith(Number)
    : sql`(select coalesce(sum(${counted}), 0) from ${ledesRunCounts})`.mapWith(Number);
  const conditions: SQL[] = [];
  if (byOwner) conditions.push(eq(ledesRuns.ownerId, ownerId));
  if (onlyShared) conditions.push(eq(ledesRuns.sendHistory, true));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  return {
    page: db
      .select({ run: historyColumns, user: historyUserColumns, total })
      .from(ledesRuns)
      .innerJoin(users, eq(users.id, ledesRuns.ownerId))
      .where(where)
      .orderBy(desc(ledesRuns.createdAt), desc(ledesRuns.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`history_page_${key}`),
    total: db.select({ total }).from(sql`(select 1) as one`).prepare(`history_total_${key}`),
  };
}

type HistoryStatements = ReturnType<typeof prepareHistoryStatements>;
const historyStatementCache = new WeakMap<Database, Map<string, HistoryStatements>>();

const historyUserColumns = { id: users.id, companyAgent: users.companyAgent, email: users.email };

type HistoryRow = Pick<Awaited<ReturnType<ReturnType<typeof prepareHistoryStatements>['page']['execute']>>[number], 'run' | 'user'>;

function toHistoryItem({ run, user }: HistoryRow): HistoryItem {
  return {
    _id: run.id,
    name: run.name,
    filename: run.originalName,
    created: run.createdAt.toISOString(),
    state: run.state,
    accepted: run.accepted,
    lines_checked: run.linesChecked,
    format_ok: run.firstOkLines,
    error: run.firstErrorLines,
    format_ok_count: run.linesChecked - run.refusedLineCount,
    error_count: run.errorLineCount,
    path: run.originalKey,
    path_treated: run.treatedKey,
    office: run.office,
    type: run.type,
    user_info: { _id: user.id, company_agent: user.companyAgent, email: user.email },
    delivered: run.deliveredAt !== null,
  };
}

/** Only what a history item shows: no wide column is read for a page of 600. */
const historyColumns = {
  id: ledesRuns.id,
  name: ledesRuns.name,
  originalName: ledesRuns.originalName,
  createdAt: ledesRuns.createdAt,
  state: ledesRuns.state,
  accepted: ledesRuns.accepted,
  linesChecked: ledesRuns.linesChecked,
  // As json, which the drivers decode with JSON.parse: the integer-array text parser was the costliest
  // part of reading a page (up to 200 numbers a run).
  firstOkLines: sql<number[]>`array_to_json(${ledesRuns.firstOkLines})`,
  firstErrorLines: sql<number[]>`array_to_json(${ledesRuns.firstErrorLines})`,
  refusedLineCount: ledesRuns.refusedLineCount,
  errorLineCount: ledesRuns.errorLineCount,
  originalKey: ledesRuns.originalKey,
  treatedKey: ledesRuns.treatedKey,
  office: ledesRuns.office,
  type: ledesRuns.type,
  deliveredAt: ledesRuns.deliveredAt,
};

