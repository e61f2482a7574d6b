import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  PATENT_MISSING_FIELDS,
  type MissingInfoBody,
  type MissingInformationQuery,
  type PatentMissingField,
  type PatentRecordDto,
  type PatentToValidateSort,
  type ToValidateQuery,
  type ValidateInstructionBody,
} from '@portal/contracts';
import { writeLedger } from '@portal/jobs';
import { patentInstructionEvents, patentRecords, patentTabCounts } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError, type RefusedRow } from '../../domain/errors.ts';
import type { AuthState } from '../../domain/auth.ts';
import { likePattern } from '../../domain/search.ts';
import { assertNumbersFitOffice } from './numbers.ts';
import { keptScope, listResponse, loadPatent, scopeCondition, writeRefusal, toPatentDto, today, writeScope, type PatentRow, type ListRequest, type PatentScope, type SortColumn } from './service.ts';

/*
 * The staff screens: patents with missing information (admins) and patents to validate
 * (admin_test within its own scope, admins).
 */

const MISSING_COLUMNS = {
  noDepot: patentRecords.numeroDepot,
  NoPublication: patentRecords.numeroPublication,
  ReferenceClient: patentRecords.referenceClient,
  Pays: patentRecords.pays,
} as const;

const COLUMN_NAMES: Record<PatentMissingField, keyof PatentRow> = {
  noDepot: 'numeroDepot',
  NoPublication: 'numeroPublication',
  ReferenceClient: 'referenceClient',
  Pays: 'pays',
};

/** Empty = null or blank: the back office's export writes both. */
const isBlank = (column: (typeof MISSING_COLUMNS)[PatentMissingField]) => sql`coalesce(${column}, '') = ''`;
/** The spec's missing information: no application number, no publication number or no client reference (the country is never null). */
export const MISSING_CONDITION: SQL = sql`(${isBlank(patentRecords.numeroDepot)} or ${isBlank(patentRecords.numeroPublication)} or ${isBlank(patentRecords.referenceClient)})`;

const searchCondition = (search: string | undefined) => (search ? sql`${patentRecords.searchText} like ${likePattern(search)}` : undefined);

/** GET /brevet_eptane/missing-information (admins): every patent with an empty number or client reference. */
export async function listMissingInformation(ctx: AppContext, query: MissingInformationQuery) {
  return listResponse(ctx, missingInformationRequest(query));
}

export function missingInformationRequest(query: MissingInformationQuery): ListRequest {
  return {
    where: and(MISSING_CONDITION, searchCondition(query.search))!,
    column: MISSING_COLUMNS[query.sort],
    order: query.order,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    total: query.search ? undefined : sql`(select coalesce(sum(${patentTabCounts.missing}), 0) from ${patentTabCounts})`,
  };
}

/**
 * PUT /brevet_eptane/update-missing-info/{idagenda} (admins): fills the given cells, each of which
 * must still be empty (one filled meanwhile: 409 `patent_field_filled`), with the version read.
 */
export async function updateMissingInfo(ctx: AppContext, idagenda: string, body: MissingInfoBody): Promise<PatentRecordDto> {
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await loadPatent(tx, eq(patentRecords.idagenda, idagenda), true);
    if (!row) throw new AppError('not_found');
    const patent = row.patent;
    assertNumbersFitOffice(body.Pays ?? patent.pays, { application: ['noDepot', body.noDepot], publication: ['NoPublication', body.NoPublication] });
    const set: Partial<typeof patentRecords.$inferInsert> = {};
    const filled: Record<string, string> = {};
    for (const field of PATENT_MISSING_FIELDS) {
      const value = body[field];
      if (value === undefined) continue;
      const current = patent[COLUMN_NAMES[field]] as string | null;
      if (current !== null && current.trim() !== '') filled[field] = 'patent_field_filled';
      else (set as Record<string, string>)[COLUMN_NAMES[field]] = value;
    }
    if (Object.keys(filled).length > 0) throw new AppError('patent_field_filled', { fields: filled });
    if (patent.version !== body.version) throw new AppError('stale_version');
    await tx
      .update(patentRecords)
      .set({ ...set, version: sql`${patentRecords.version} + 1`, updatedAt: now })
      .where(eq(patentRecords.id, patent.id));
    return patent.id;
  });
  const [row] = await loadPatent(ctx.db, eq(patentRecords.id, id), false);
  return toPatentDto(row!.patent, row!.cabinetName, today(ctx));
}

const VALIDATE_COLUMNS: Record<PatentToValidateSort, SortColumn> = {
  noDepot: patentRecords.numeroDepot,
  NoPublication: patentRecords.numeroPublication,
  ReferenceClient: patentRecords.referenceClient,
  id_instruction: patentRecords.instructionId,
  DonneurOrdre: patentRecords.donneurOrdre,
  DonneurOrdreAn: patentRecords.donneurOrdreAn,
  DateEcheance: patentRecords.dateEcheance,
  Pays: patentRecords.pays,
};

/** What a caller may validate: everything for an admin, its own cabinets and codes for admin_test (decision 98). */
export const validateScope = writeScope;

/** GET /brevet_eptane/to_validate: instructions given and not validated yet, in the caller's validation scope. */
export async function listToValidate(ctx: AppContext, scope: PatentScope, query: ToValidateQuery) {
  return listResponse(ctx, toValidateRequest(scope, query));
}

export function toValidateRequest(scope: PatentScope, query: ToValidateQuery): ListRequest {
  const where = and(eq(patentRecords.instructionStatus, 'processed'), scopeCondition(scope), searchCondition(query.search));
  return {
    where: where!,
    column: VALIDATE_COLUMNS[query.sort],
    order: query.order,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    total: query.search ? undefined : sql`(select coalesce(sum(${patentTabCounts.processed}), 0) from ${patentTabCounts} where ${keptScope(scope) ?? sql`true`})`,
  };
}

const refusedRow = (id: string, patent: PatentRow | undefined, code: RefusedRow['code']): RefusedRow => ({
  _id: id,
  idagenda: patent?.idagenda ?? '',
  ReferenceClient: patent?.referenceClient ?? null,
  noDepot: patent?.numeroDepot ?? null,
  NoPublication: patent?.numeroPublication ?? null,
  Pays: patent?.pays ?? null,
  DateEcheance: patent?.dateEcheance ?? null,
  instructionBeingUpdated: patent?.instructionId ?? 0,
  code,
});

/**
 * PUT /brevet_eptane/validate-instruction: processed → validated for every row or none. Rows are
 * locked in id order; a row not processed any more, changed meanwhile or outside the caller's scope
 * makes it the 409 `instructions_not_validated` listing each refused row by `_id`.
 */
export async function validateInstructions(ctx: AppContext, actor: AuthState, items: ValidateInstructionBody['patents']): Promise<PatentRecordDto[]> {
  const seen = new Set<string>();
  const fields: Record<string, string> = {};
  items.forEach((item, i) => {
    if (seen.has(item._id)) fields[`patents.${i}._id`] = 'validation_failed';
    seen.add(item._id);
  });
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
  const scope = await validateScope(ctx, actor);
  const now = ctx.clock.now();
  const changed = await ctx.db.transaction(async (tx) => {
    const rows = await loadPatent(tx, inArray(patentRecords.id, [...seen]), true);
    const byId = new Map(rows.map((r) => [r.patent.id, r.patent]));
    const refused: RefusedRow[] = [];
    for (const item of items) {
      const patent = byId.get(item._id);
      const code =
        writeRefusal(actor, scope, patent) ??
        (patent!.instructionStatus !== 'processed' ? 'instruction_not_processed' : patent!.version !== item.version ? 'stale_version' : null);
      if (code) refused.push(refusedRow(item._id, code === 'not_found' ? undefined : patent, code));
    }
    if (refused.length > 0) throw new AppError('instructions_not_validated', { notUpdated: refused });
    const ids = [...seen];
    // Validated instructions are ordered on the ledger (decision 191), in this transaction.
    await writeLedger(
      tx,
      ids.map((id) => ({ recordId: id, event: { kind: 'validation' as const }, userId: actor.userId })),
      { at: now },
    );
    await tx
      .update(patentRecords)
      .set({ instructionStatus: 'validated', version: sql`${patentRecords.version} + 1`, updatedAt: now })
      .where(inArray(patentRecords.id, ids));
    await tx.insert(patentInstructionEvents).values(
      ids.map((id) => {
        const patent = byId.get(id)!;
        return {
          patentId: id,
          oldInstructionId: patent.instructionId,
          newInstructionId: patent.instructionId,
          oldStatus: 'processed' as const,
          newStatus: 'validated' as const,
          userId: actor.userId,
          source: 'validation' as const,
          createdAt: now,
        };
      }),
    );
    return ids.map((id) => byId.get(id)!);
  });
  const rows = await loadPatent(ctx.db, inArray(patentRecords.id, changed.map((p) => p.id)), false);
  const day = today(ctx);
  const byId = new Map(rows.map((r) => [r.patent.id, r]));
  return changed.map((p) => toPatentDto(byId.get(p.id)!.patent, byId.get(p.id)!.cabinetName, day));
}
