import { and, asc, eq, getTableColumns, ilike, inArray, isNotNull, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import {
  PATENT_LIMIT_DAYS,
  paginationMeta,
  type BulkInstructionRow,
  type InstructionSource,
  type InstructionStatus,
  type PatentListQuery,
  type PatentLockCode,
  type PatentDeadlineDto,
  type PatentRecordDto,
  type PatentSort,
  type PaymentInstructionDto,
} from '@portal/contracts';
import { formatIsoDate, officeOfCountry, parseIsoDate, recordDeadline } from '@portal/annuities/core';
import { originOf, writeLedger } from '@portal/jobs';
import { cabinets, keepPreparedPlan, patentInstructionEvents, patentRecords, patentTabCounts, paymentInstructions, renewalCallItems, userCabinets, users, type Database, type Executor } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError, type RefusedRow } from '../../domain/errors.ts';
import type { AuthState } from '../../domain/auth.ts';
import { likePattern } from '../../domain/search.ts';
import { decodeCursor, listPage, type PageRequest } from './list-page.ts';
import { recordInstructionConfirmation, sendCommitted } from './notify.ts';

export type PatentRow = typeof patentRecords.$inferSelect;
type InstructionRow = typeof paymentInstructions.$inferSelect;

/** Which patents a caller reaches: everything, or the patents of some cabinets and client codes. */
export type PatentScope = { kind: 'all' } | { kind: 'owned'; cabinetIds: string[]; codes: string[] };

const NBSP = '\u00A0';
/** The calendar day (UTC, decision 91) against which limit dates are compared. */
export const dayOf = (instant: Date) => instant.toISOString().slice(0, 10);
export const today = (ctx: AppContext) => dayOf(ctx.clock.now());

/** An agent's cabinets and client codes, read fresh on every request (an admin's change applies at once), in one prepared query. */
async function ownedScope(ctx: AppContext, userId: string): Promise<PatentScope> {
  const [row] = await scopeLookup(ctx.db).execute({ userId });
  return { kind: 'owned', cabinetIds: row?.cabinetIds ?? [], codes: row?.codes ?? [] };
}

/** Prepared once per database handle, as the session lookup is (decision 174: one round trip, planned once). */
function scopeLookup(db: Database) {
  let statement = scopeLookups.get(db);
  if (!statement) scopeLookups.set(db, (statement = prepareScopeLookup(db)));
  return statement;
}

function prepareScopeLookup(db: Database) {
  const statement = db
    .select({
      codes: sql<string[]>`coalesce(${users.code}, '{}'::text[])`,
      cabinetIds: sql<string[]>`array(select ${userCabinets.cabinetId}::text from ${userCabinets} where ${userCabinets.userId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('patent_scope_lookup');
  return keepPreparedPlan(db, statement, 'patent_scope_lookup');
}

const scopeLookups = new WeakMap<Database, ReturnType<typeof prepareScopeLookup>>();

/** What the caller may read by itself: everything for an admin, else its cabinets and codes (admin_test reaches other codes only through /brevet_eptane/admin/{code}). */
export async function readScope(ctx: AppContext, actor: AuthState): Promise<PatentScope> {
  return actor.isAdmin ? { kind: 'all' } : ownedScope(ctx, actor.userId);
}

/** What the caller may change: everything for an admin, its own cabinets and codes for anyone else (admin_test included). */
export const writeScope = readScope;

/** True when a patent is readable by `actor` without a client-code search: admin_test reads any patent (it may search any code). */
export const readsEverything = (actor: AuthState) => actor.isAdmin || actor.roles.includes('admin_test');

/**
 * Why `actor` may not change `row` with `scope`, or null: an unknown or unreadable patent is not found
 * (no existence leak); one admin_test may read but not change is forbidden.
 */
export function writeRefusal(actor: AuthState, scope: PatentScope, row: Pick<PatentRow, 'cabinetId' | 'clientCode'> | undefined): 'not_found' | 'forbidden' | null {
  if (!row) return 'not_found';
  if (inScope(scope, row)) return null;
  return readsEverything(actor) ? 'forbidden' : 'not_found';
}

export function inScope(scope: PatentScope, row: Pick<PatentRow, 'cabinetId' | 'clientCode'>): boolean {
  return scope.kind === 'all' || scope.cabinetIds.includes(row.cabinetId) || scope.codes.includes(row.clientCode);
}

/**
 * A scope as disjoint conditions whose union is `scopeCondition`: its cabinets, then its codes outside them. Each is
 * read by its own index (patent_records_cabinet_tab_due_idx, …_code_tab_due_idx), which a bitmap OR of both is not
 * (decision 189). Undefined for everything or nothing.
 */
export function scopeBranches(scope: PatentScope): SQL[] | undefined {
  if (scope.kind === 'all' || scope.cabinetIds.length + scope.codes.length === 0) return undefined;
  const branches: SQL[] = [];
  if (scope.cabinetIds.length > 0) branches.push(inArray(patentRecords.cabinetId, scope.cabinetIds));
  if (scope.codes.length > 0)
    branches.push(scope.cabinetIds.length > 0 ? and(inArray(patentRecords.clientCode, scope.codes), notInArray(patentRecords.cabinetId, scope.cabinetIds))! : inArray(patentRecords.clientCode, scope.codes));
  return branches;
}

export function scopeCondition(scope: PatentScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  const parts: SQL[] = [];
  if (scope.cabinetIds.length > 0) parts.push(inArray(patentRecords.cabinetId, scope.cabinetIds));
  if (scope.codes.length > 0) parts.push(inArray(patentRecords.clientCode, scope.codes));
  return parts.length > 0 ? or(...parts) : sql`false`;
}

/** The instruction's titles on the wire: title, next year for the third, then the tooltip after a colon (French: a no-break space before it). */
export function toInstructionDto(row: InstructionRow, now: Date): PaymentInstructionDto {
  const year = row.appendsNextYear ? ` ${now.getUTCFullYear() + 1}` : '';
  return { _id: row.id, titre_fr: `${row.titleFr}${year}${NBSP}: ${row.tooltipFr}`, titre_en: `${row.titleEn}${year}: ${row.tooltipEn}` };
}

export async function listInstructions(ctx: AppContext): Promise<PaymentInstructionDto[]> {
  const rows = await ctx.db.select().from(paymentInstructions).orderBy(asc(paymentInstructions.id));
  const now = ctx.clock.now();
  return rows.map((row) => toInstructionDto(row, now));
}

export async function readInstruction(ctx: AppContext, id: number): Promise<PaymentInstructionDto> {
  const [row] = await ctx.db.select().from(paymentInstructions).where(eq(paymentInstructions.id, id));
  if (!row) throw new AppError('not_found');
  return toInstructionDto(row, ctx.clock.now());
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const limitDate = (row: Pick<PatentRow, 'dateEcheance'>) => (row.dateEcheance ? addDays(row.dateEcheance, -PATENT_LIMIT_DAYS) : null);

/**
 * Why a patent's instruction cannot change (spec §4 "Row locked", "Instruction status values"), or
 * null: validated by staff, a treatment date set (acquittal, office payment, mail reply, client
 * payment), or its limit date (due date − 7 days) before today.
 */
export function lockReason(row: PatentRow, day: string): PatentLockCode | null {
  if (row.instructionStatus === 'validated') return 'instruction_validated';
  if (row.dateAcquit) return 'patent_locked_acquitted';
  if (row.datePaiementOffice) return 'patent_locked_office_paid';
  if (row.dateReponseCourrier) return 'patent_locked_mail_reply';
  if (row.datePaiementClient) return 'patent_locked_client_paid';
  const limit = limitDate(row);
  if (limit !== null && limit < day) return 'patent_locked_limit_date';
  return null;
}

/** The engine's deadlines of a record's annuity on `day` (issue 25: every tone and lock of the screens reads them). */
export function deadlineOf(row: Pick<PatentRow, 'pays' | 'origine' | 'dateDepot' | 'dateEcheance' | 'quantieme'>, day: string): PatentDeadlineDto | null {
  const office = officeOfCountry(row.pays);
  const due = row.dateEcheance === null ? null : parseIsoDate(row.dateEcheance);
  const now = parseIsoDate(day);
  if (office === null || due === null || now === null) return null;
  // The same reading of `Origine` as the stored schedule check (scheduleColumnsOf), so the flag and the tone agree.
  const origin = originOf(office, row.origine);
  const filing = row.dateDepot === null ? null : parseIsoDate(row.dateDepot);
  const d = recordDeadline({ office, origin, filing, number: row.quantieme, due }, now);
  if (d === null) return null;
  return {
    state: d.state,
    no_surcharge_end: formatIsoDate(d.noSurchargeEnd),
    no_surcharge_end_latest: formatIsoDate(d.noSurchargeEndLatest),
    grace_end: formatIsoDate(d.graceEnd),
    lost_after: formatIsoDate(d.graceEndLatest),
    extension_unverified: d.extensionUnverified,
    closing_days_provisional: d.closingDaysProvisional,
  };
}

export function toPatentDto(row: PatentRow, cabinetName: string, day: string): PatentRecordDto {
  return {
    _id: row.id,
    idagenda: row.idagenda,
    idbrevet: row.idbrevet,
    code_client: row.clientCode,
    cabinet: { _id: row.cabinetId, name: cabinetName },
    ReferenceClient: row.referenceClient,
    nosref: row.referenceCabinet,
    noDepot: row.numeroDepot,
    NoPublication: row.numeroPublication,
    Pays: row.pays,
    Origine: row.origine,
    Depot: row.dateDepot,
    Expiration: row.dateExpiration,
    DateEcheance: row.dateEcheance,
    DateLimite: limitDate(row),
    Quantieme: row.quantieme,
    deadline: deadlineOf(row, day),
    cost: row.cost === null ? null : Number(row.cost),
    TitreAnglais: row.titreAnglais,
    TitreFrancais: row.titreFrancais,
    DonneurOrdre: row.donneurOrdre,
    DonneurOrdreAn: row.donneurOrdreAn,
    id_instruction: row.instructionId,
    instruction: { id_instruction: row.instructionId, traitement_instruction: row.instructionStatus },
    DateAcquit: row.dateAcquit,
    DatePaiementOffice: row.datePaiementOffice,
    DateReponseACourrier: row.dateReponseCourrier,
    DatePaiementClient: row.datePaiementClient,
    exported_at: row.exportedAt?.toISOString() ?? null,
    locked: lockReason(row, day),
    schedule_mismatch: scheduleMismatchOf(row),
    version: row.version,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
    ledger_state: row.ledgerState,
  };
}

/** The stored disagreement with the computed schedule, on the wire. */
function scheduleMismatchOf(row: PatentRow): PatentRecordDto['schedule_mismatch'] {
  if (row.scheduleCode === null || row.scheduleQuantieme === null || row.scheduleEcheance === null) return null;
  return { code: row.scheduleCode, Quantieme: row.scheduleQuantieme, DateEcheance: row.scheduleEcheance };
}

export type SortColumn = PageRequest['column'];

const SORT_COLUMNS: Record<PatentSort, SortColumn> = {
  DateEcheance: patentRecords.dateEcheance,
  ReferenceClient: patentRecords.referenceClient,
  noDepot: patentRecords.numeroDepot,
  NoPublication: patentRecords.numeroPublication,
  Pays: patentRecords.pays,
  Origine: patentRecords.origine,
  Quantieme: patentRecords.quantieme,
  cost: patentRecords.cost,
  id_instruction: patentRecords.instructionId,
};

/** One page of a tab: scope, filters, search, sort (rows without the value last, ties by id) and paging, all in SQL. */
export async function listPatents(ctx: AppContext, scope: PatentScope, query: PatentListQuery, clientCode?: string) {
  return listResponse(ctx, patentListRequest(scope, query, clientCode));
}

/** What a page of the agents' list reads (its statement: `pageStatement(pageRequest(…))`, the plan test's). */
export function patentListRequest(scope: PatentScope, query: PatentListQuery, clientCode?: string): ListRequest {
  const conditions: SQL[] = [eq(patentRecords.hasInstruction, query.tab === 'unvalidated')];
  const owned = scopeCondition(scope);
  if (owned) conditions.push(owned);
  if (clientCode !== undefined) conditions.push(eq(patentRecords.clientCode, clientCode));
  if (query.dates) {
    const [from, to = from] = query.dates as [string, string?];
    conditions.push(from === to ? eq(patentRecords.dateEcheance, from) : sql`${patentRecords.dateEcheance} between ${from} and ${to}`);
  }
  if (query.references && query.references.length > 0) {
    conditions.push(
      or(
        // Each reference: a substring of the client reference, application or publication number. The
        // search column (lower-cased, trigram-indexed) holds all three, so it narrows the rows first.
        ...query.references.map((reference) => {
          const pattern = likePattern(reference);
          return and(
            sql`${patentRecords.searchText} like ${pattern}`,
            or(ilike(patentRecords.referenceClient, pattern), ilike(patentRecords.numeroDepot, pattern), ilike(patentRecords.numeroPublication, pattern)),
          )!;
        }),
      )!,
    );
  }
  if (query.instruction && query.instruction.length > 0) conditions.push(inArray(patentRecords.instructionId, query.instruction));
  if (query.office && query.office.length > 0) conditions.push(inArray(patentRecords.pays, query.office));
  if (query.search) conditions.push(sql`${patentRecords.searchText} like ${likePattern(query.search)}`);
  if (query.schedule === 'mismatch') conditions.push(isNotNull(patentRecords.scheduleCode));
  const where = and(...conditions)!;
  // The same conditions without the scope's OR, once per branch of the scope (each branch: its own index).
  const filters = conditions.filter((c) => c !== owned);
  const branches = clientCode === undefined ? scopeBranches(scope)?.map((branch) => and(branch, ...filters)!) : undefined;
  // The unfiltered tab's total is kept per (cabinet, code, tab); a filtered one is counted up to a cap.
  const filtered = conditions.length > (owned ? 2 : 1) + (clientCode !== undefined ? 1 : 0);
  const kept = and(eq(patentTabCounts.hasInstruction, query.tab === 'unvalidated'), keptScope(scope), clientCode === undefined ? undefined : eq(patentTabCounts.clientCode, clientCode));
  return {
    where,
    column: SORT_COLUMNS[query.sort],
    order: query.order,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    total: filtered ? undefined : sql`(select coalesce(sum(${patentTabCounts.patents}), 0) from ${patentTabCounts} where ${kept})`,
    branches,
  };
}

/** Past this many rows a filtered list's total is "more than" (decision 174): counting further would scan. */
export const PATENT_COUNT_CAP = 1000;

/** The scope on the kept counts: a (cabinet, code) pair is wholly in or out of a scope. */
export function keptScope(scope: PatentScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  const parts: SQL[] = [];
  if (scope.cabinetIds.length > 0) parts.push(inArray(patentTabCounts.cabinetId, scope.cabinetIds));
  if (scope.codes.length > 0) parts.push(inArray(patentTabCounts.clientCode, scope.codes));
  return parts.length > 0 ? or(...parts) : sql`false`;
}

/**
 * A page of a patent_records list: its conditions, sort, paging, and `total`, the kept count's SQL, or
 * undefined for a count of the rows of `where` that stops past PATENT_COUNT_CAP.
 */
export interface ListRequest {
  where: SQL;
  column: SortColumn;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
  cursor: string | undefined;
  total: SQL | undefined;
  /** A scoped list's `where` as disjoint conditions, each read by its own index (`scopeBranches`, decision 189). */
  branches?: SQL[];
}

export function pageRequest(request: ListRequest): PageRequest {
  const counted = request.branches
    ? sql.join(
        request.branches.map((branch) => sql`select 1 from ${patentRecords} where ${branch}`),
        sql` union all `,
      )
    : sql`select 1 from ${patentRecords} where ${request.where}`;
  const total = request.total ?? sql`(select count(*) from (${counted} limit ${PATENT_COUNT_CAP + 1}) capped)`;
  const keyset = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  return { where: request.where, column: request.column, order: request.order, page: request.page, limit: request.limit, keyset, total, branches: request.branches };
}

/** A page of a patent_records list and its meta, in one statement (list-page.ts). */
/** The open renewal call of each record of a page (issue 30 §3): one primary-key lookup per row of the page. */
async function renewalCallsOf(db: Executor, ids: string[]): Promise<Map<string, { _id: string; instruct_before: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ recordId: renewalCallItems.recordId, callId: renewalCallItems.callId, instructBefore: renewalCallItems.instructBefore })
    .from(renewalCallItems)
    .where(and(inArray(renewalCallItems.recordId, ids), isNull(renewalCallItems.closedReason)));
  return new Map(rows.map((r) => [r.recordId, { _id: r.callId, instruct_before: r.instructBefore }]));
}

export async function listResponse(ctx: AppContext, request: ListRequest) {
  const result = await listPage(ctx.db, pageRequest(request));
  const more = request.total === undefined && result.total > PATENT_COUNT_CAP;
  const day = today(ctx);
  const calls = await renewalCallsOf(ctx.db, result.rows.map((r) => r.patent.id));
  return {
    brevet_eptane: result.rows.map((r) => ({ ...toPatentDto(r.patent, r.cabinetName, day), renewal_call: calls.get(r.patent.id) ?? null })),
    meta: {
      ...paginationMeta(request.page, request.limit, more ? PATENT_COUNT_CAP + 1 : result.total),
      ...(more ? { total: PATENT_COUNT_CAP, total_more: true } : {}),
      next_cursor: result.next,
      previous_cursor: result.previous,
    },
  };
}

export async function loadPatent(db: Executor, where: SQL, lock: boolean) {
  const select = db
    .select({ patent: getTableColumns(patentRecords), cabinetName: cabinets.name })
    .from(patentRecords)
    .innerJoin(cabinets, eq(cabinets.id, patentRecords.cabinetId))
    .where(where)
    .orderBy(asc(patentRecords.id));
  return lock ? select.for('update', { of: patentRecords }) : select;
}

/** A patent the caller may read, else 404 (another cabinet's patent is not found, not forbidden). */
export async function readPatent(ctx: AppContext, actor: AuthState, id: string): Promise<PatentRecordDto> {
  const [row] = await loadPatent(ctx.db, eq(patentRecords.id, id), false);
  if (!row || (!readsEverything(actor) && !inScope(await readScope(ctx, actor), row.patent))) throw new AppError('not_found');
  return toPatentDto(row.patent, row.cabinetName, today(ctx));
}

async function knownInstructionIds(ctx: AppContext): Promise<Set<number>> {
  return new Set((await ctx.db.select({ id: paymentInstructions.id }).from(paymentInstructions)).map((r) => r.id));
}

interface Change {
  patent: PatentRow;
  instructionId: number;
}

/** The status once an instruction is given (validated rows never get here): unprocessed → processed. */
const GIVEN: InstructionStatus = 'processed';

/**
 * Applies instruction changes inside `tx`: one UPDATE for all rows (version + 1, status processed)
 * and one audit row each. Rows whose instruction and status would not change are left as they are.
 */
async function applyChanges(tx: Executor, changes: Change[], userId: string, source: Extract<InstructionSource, 'screen' | 'bulk'>, now: Date): Promise<void> {
  const real = changes.filter((c) => c.patent.instructionId !== c.instructionId || c.patent.instructionStatus !== GIVEN);
  if (real.length === 0) return;
  const ids = real.map((c) => c.patent.id);
  const instructions = real.map((c) => c.instructionId);
  // The ledger first (decision 191): it reads what the records said before, in this transaction.
  await writeLedger(
    tx,
    real.map((c) => ({ recordId: c.patent.id, event: { kind: 'instruction' as const, source, instructionId: c.instructionId }, userId })),
    { at: now },
  );
  await tx.execute(sql`
    update ${patentRecords} as p
    set instruction_id = v.instruction_id, instruction_status = ${GIVEN}, version = p.version + 1, updated_at = ${now.toISOString()}::timestamptz
    from unnest(${sql.param(ids)}::uuid[], ${sql.param(instructions)}::integer[]) as v(id, instruction_id)
    where p.id = v.id`);
  await tx.insert(patentInstructionEvents).values(
    real.map((c) => ({
      patentId: c.patent.id,
      oldInstructionId: c.patent.instructionId,
      newInstructionId: c.instructionId,
      oldStatus: c.patent.instructionStatus,
      newStatus: GIVEN,
      userId,
      source,
      createdAt: now,
    })),
  );
}

/** PUT /brevet_eptane/update/instruction_paiement/{id}: one patent, from the screen. */
export async function updateInstruction(ctx: AppContext, actor: AuthState, id: string, instructionId: number, version: number): Promise<PatentRecordDto> {
  if (!(await knownInstructionIds(ctx)).has(instructionId)) throw new AppError('unknown_instruction', { fields: { instruction_paiement: 'unknown_instruction' } });
  const scope = await writeScope(ctx, actor);
  const now = ctx.clock.now();
  const day = dayOf(now);
  const mailId = await ctx.db.transaction(async (tx) => {
    const [row] = await loadPatent(tx, eq(patentRecords.id, id), true);
    const refusal = writeRefusal(actor, scope, row?.patent);
    if (!row || refusal) throw new AppError(refusal ?? 'not_found');
    const locked = lockReason(row.patent, day);
    if (locked) throw new AppError(locked);
    if (row.patent.version !== version) throw new AppError('stale_version');
    const changes = [{ patent: row.patent, instructionId }];
    await applyChanges(tx, changes, actor.userId, 'screen', now);
    return recordInstructionConfirmation(tx, actor, changes, now);
  });
  await sendCommitted(ctx, [mailId]);
  const [row] = await loadPatent(ctx.db, eq(patentRecords.id, id), false);
  return toPatentDto(row!.patent, row!.cabinetName, day);
}

/**
 * PUT /brevet_eptane/many/update_instruction: every row or none. Rows are found by idagenda and
 * locked (FOR UPDATE, in id order) in one transaction; any refused row (unknown or out of scope,
 * locked, validated, stale) aborts it with the 409 `instructions_refused` listing every refused row.
 */
export async function bulkUpdateInstructions(ctx: AppContext, actor: AuthState, items: BulkInstructionRow[]): Promise<PatentRecordDto[]> {
  const known = await knownInstructionIds(ctx);
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (!known.has(item.instructionBeingUpdated)) fields[`patents.${i}.instructionBeingUpdated`] = 'unknown_instruction';
    if (seen.has(item.idagenda)) fields[`patents.${i}.idagenda`] = 'validation_failed';
    seen.add(item.idagenda);
  });
  if (Object.values(fields).includes('unknown_instruction')) throw new AppError('unknown_instruction', { fields });
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });

  const scope = await writeScope(ctx, actor);
  const now = ctx.clock.now();
  const day = dayOf(now);
  const { ids, mailId } = await ctx.db.transaction(async (tx) => {
    const rows = await loadPatent(tx, inArray(patentRecords.idagenda, [...seen]), true);
    const byAgenda = new Map(rows.map((r) => [r.patent.idagenda, r.patent]));
    const refused: RefusedRow[] = [];
    const changes: Change[] = [];
    for (const item of items) {
      const patent = byAgenda.get(item.idagenda);
      const code = writeRefusal(actor, scope, patent) ?? lockReason(patent!, day) ?? (patent!.version !== item.version ? 'stale_version' : null);
      if (code) refused.push({ ...echo(item), code });
      else changes.push({ patent: patent!, instructionId: item.instructionBeingUpdated });
    }
    if (refused.length > 0) throw new AppError('instructions_refused', { notUpdated: refused });
    await applyChanges(tx, changes, actor.userId, 'bulk', now);
    return { ids: changes.map((c) => c.patent.id), mailId: await recordInstructionConfirmation(tx, actor, changes, now) };
  });
  await sendCommitted(ctx, [mailId]);
  const rows = await loadPatent(ctx.db, inArray(patentRecords.id, ids), false);
  const byId = new Map(rows.map((r) => [r.patent.id, r]));
  return ids.map((id) => toPatentDto(byId.get(id)!.patent, byId.get(id)!.cabinetName, day));
}

/** A refused row as the screen sent it. */
const echo = (item: BulkInstructionRow) => ({
  idagenda: item.idagenda,
  ReferenceClient: item.ReferenceClient ?? null,
  noDepot: item.noDepot ?? null,
  NoPublication: item.NoPublication ?? null,
  Pays: item.Pays ?? null,
  DateEcheance: item.DateEcheance ?? null,
  instructionBeingUpdated: item.instructionBeingUpdated,
});
