import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { RegisterDiscrepancyDto, RegisterDiscrepancyPage, RegisterSyncRunDto } from '@portal/contracts';
import { patentRecords, registerDiscrepancies, registerSyncRuns, REGISTER_DISCREPANCY_KINDS, type Executor } from '@portal/db';
import { enqueueCommitted, registerSyncRunKind, requestRegisterSync, toRegisterSyncDto, writeLedger } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import type { AuthState } from '../../domain/auth.ts';

/** The runs an admin sees on the sync screen, newest first. */
export const SYNC_RUNS_SHOWN = 10;

export async function listSyncRuns(ctx: AppContext): Promise<{ configured: boolean; runs: RegisterSyncRunDto[] }> {
  const rows = await ctx.db.select().from(registerSyncRuns).orderBy(desc(registerSyncRuns.createdAt), desc(registerSyncRuns.id)).limit(SYNC_RUNS_SHOWN);
  return { configured: ctx.config.registers.ops !== undefined, runs: rows.map(toRegisterSyncDto) };
}

/** "Sync now": the run in progress if there is one, else a new run, committed then enqueued (the sweep enqueues it otherwise). */
export async function startSync(ctx: AppContext, actor: AuthState): Promise<{ created: boolean; run: RegisterSyncRunDto }> {
  const { row, created } = await requestRegisterSync(ctx.db, actor.userId, ctx.clock.now());
  if (created) {
    registerSyncRunKind.publish(ctx.realtime, row, { transition: true });
    await enqueueCommitted(ctx, 'register-sync', [{ runId: row.id }]);
  }
  return { created, run: toRegisterSyncDto(row) };
}

type Kind = (typeof REGISTER_DISCREPANCY_KINDS)[number];

const columns = {
  id: registerDiscrepancies.id,
  kind: registerDiscrepancies.kind,
  status: registerDiscrepancies.status,
  patentKey: registerDiscrepancies.patentKey,
  annuityYear: registerDiscrepancies.annuityYear,
  recordId: registerDiscrepancies.recordId,
  referenceClient: patentRecords.referenceClient,
  numeroPublication: patentRecords.numeroPublication,
  numeroDepot: patentRecords.numeroDepot,
  pays: patentRecords.pays,
  portalState: registerDiscrepancies.portalState,
  registerOn: registerDiscrepancies.registerOn,
  registerCode: registerDiscrepancies.registerCode,
  registerUrl: registerDiscrepancies.registerUrl,
  note: registerDiscrepancies.note,
  resolvedAt: registerDiscrepancies.resolvedAt,
  createdAt: registerDiscrepancies.createdAt,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | null } & { id: string; kind: Kind; status: 'open' | 'accepted' | 'kept'; patentKey: string; annuityYear: number; createdAt: Date };

const toDto = (row: Row): RegisterDiscrepancyDto => ({
  _id: row.id,
  kind: row.kind,
  status: row.status,
  patent_key: row.patentKey,
  annuity_year: row.annuityYear,
  record_id: row.recordId,
  reference_client: row.referenceClient,
  numero_publication: row.numeroPublication,
  numero_depot: row.numeroDepot,
  pays: row.pays,
  portal_state: row.portalState!,
  register_on: row.registerOn,
  register_code: row.registerCode!,
  register_url: row.registerUrl!,
  note: row.note,
  resolved_at: row.resolvedAt?.toISOString() ?? null,
  created: row.createdAt.toISOString(),
});

async function loadOne(db: Executor, id: string): Promise<RegisterDiscrepancyDto | undefined> {
  const [row] = (await db.select(columns).from(registerDiscrepancies).leftJoin(patentRecords, eq(patentRecords.id, registerDiscrepancies.recordId)).where(eq(registerDiscrepancies.id, id))) as Row[];
  return row ? toDto(row) : undefined;
}

/** The discrepancies of a status (open by default) and kind, oldest patent key first, paged in the database. */
export async function listDiscrepancies(ctx: AppContext, query: { status: 'open' | 'accepted' | 'kept'; kind?: Kind; page: number; limit: number }): Promise<RegisterDiscrepancyPage> {
  const where: SQL | undefined = and(eq(registerDiscrepancies.status, query.status), query.kind ? eq(registerDiscrepancies.kind, query.kind) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(registerDiscrepancies).where(where);
  const rows = (await ctx.db
    .select(columns)
    .from(registerDiscrepancies)
    .leftJoin(patentRecords, eq(patentRecords.id, registerDiscrepancies.recordId))
    .where(where)
    .orderBy(registerDiscrepancies.patentKey, registerDiscrepancies.annuityYear, registerDiscrepancies.kind)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)) as Row[];
  return { data: rows.map(toDto), total: total?.n ?? 0, page: query.page, limit: query.limit };
}

/**
 * Staff accept the register (decision 197): the year takes the register's state on the ledger (`confirmed` for a fee
 * the register records, `lapsed` for a lapse), the user kept on the ledger's trail, and the discrepancy is marked
 * accepted with who and when, in one transaction. A discrepancy already decided is a 409.
 */
export async function acceptDiscrepancy(ctx: AppContext, actor: AuthState, id: string): Promise<RegisterDiscrepancyDto> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(registerDiscrepancies).where(eq(registerDiscrepancies.id, id)).for('update');
    if (!row) throw new AppError('not_found');
    if (row.status !== 'open') throw new AppError('discrepancy_resolved');
    if (!row.recordId) throw new AppError('not_found');
    const state = row.kind === 'register_paid' ? 'confirmed' : 'lapsed';
    await writeLedger(tx, [{ recordId: row.recordId, annuityYear: row.annuityYear, userId: actor.userId, event: { kind: 'register', state } }], { at: now });
    await tx.update(registerDiscrepancies).set({ status: 'accepted', resolvedBy: actor.userId, resolvedAt: now, updatedAt: now }).where(eq(registerDiscrepancies.id, id));
  });
  return (await loadOne(ctx.db, id))!;
}

/** Staff keep the portal's state with a note (decision 197): hidden until the register says something else. */
export async function keepDiscrepancy(ctx: AppContext, actor: AuthState, id: string, note: string): Promise<RegisterDiscrepancyDto> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ status: registerDiscrepancies.status }).from(registerDiscrepancies).where(eq(registerDiscrepancies.id, id)).for('update');
    if (!row) throw new AppError('not_found');
    if (row.status !== 'open') throw new AppError('discrepancy_resolved');
    await tx.update(registerDiscrepancies).set({ status: 'kept', note, resolvedBy: actor.userId, resolvedAt: now, updatedAt: now }).where(eq(registerDiscrepancies.id, id));
  });
  return (await loadOne(ctx.db, id))!;
}
