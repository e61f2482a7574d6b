import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { LEDES_TYPES, paginationMeta, type HistoryItem, type LedesType } from '@portal/contracts';
import { ledesOffices, ledesRuns, roles, userRoles, users } from '@portal/db';
import { loadRuns, type LedesRunRow } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { enqueueCommitted } from '@portal/jobs';
import { AppError } from '../../http/errors.ts';
import type { StoredUpload } from '../../http/multipart.ts';
import type { AuthState } from '../../http/session.ts';

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
  search?: string;
}

/**
 * One page of history items, newest first, with the spec's meta. Answered from run rows alone (the
 * findings' summary is stored on the row when a run finishes), two bounded queries whatever the
 * runs' sizes. `signal` aborts between the queries: nothing more is started for a client that left,
 * and the result is then undefined.
 */
export async function listHistory(ctx: AppContext, filter: HistoryFilter, page: number, limit: number, signal?: AbortSignal) {
  const conditions: SQL[] = [];
  if (filter.ownerId) conditions.push(eq(ledesRuns.ownerId, filter.ownerId));
  if (filter.onlyShared) conditions.push(eq(ledesRuns.sendHistory, true));
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(ilike(ledesRuns.name, pattern), ilike(ledesRuns.office, pattern), ilike(ledesRuns.type, pattern), ilike(users.companyAgent, pattern), ilike(users.email, pattern))!,
    );
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  if (signal?.aborted) return undefined;
  // The join is needed only to search the owner's fields; without it a user's count is an index-only scan.
  const counted = ctx.db.select({ total: count() }).from(ledesRuns);
  const [{ total } = { total: 0 }] = await (filter.search ? counted.innerJoin(users, eq(users.id, ledesRuns.ownerId)) : counted).where(where);
  if (signal?.aborted) return undefined;
  const rows = await ctx.db
    .select({ run: historyColumns, user: { id: users.id, companyAgent: users.companyAgent, email: users.email } })
    .from(ledesRuns)
    .innerJoin(users, eq(users.id, ledesRuns.ownerId))
    .where(where)
    .orderBy(desc(ledesRuns.createdAt), desc(ledesRuns.id))
    .limit(limit)
    .offset((page - 1) * limit);

  const data: HistoryItem[] = rows.map(({ run, user }) => ({
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
  }));
  return { data, meta: paginationMeta(page, limit, total) };
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
  firstOkLines: ledesRuns.firstOkLines,
  firstErrorLines: ledesRuns.firstErrorLines,
  refusedLineCount: ledesRuns.refusedLineCount,
  errorLineCount: ledesRuns.errorLineCount,
  originalKey: ledesRuns.originalKey,
  treatedKey: ledesRuns.treatedKey,
  office: ledesRuns.office,
  type: ledesRuns.type,
  deliveredAt: ledesRuns.deliveredAt,
};
