import { asc, count, eq, sql } from 'drizzle-orm';
import { paginationMeta, type PatentCreateBody, type PatentRecordDto, type PatentSubmissionDto, type PatentSubmissionStatus } from '@portal/contracts';
import { cabinets, patentInstructionEvents, patentRecords, patentSubmissions, paymentInstructions, userCabinets, users, type Executor } from '@portal/db';
import { scheduleColumnsOf, writeLedger } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import type { AuthState } from '../../domain/auth.ts';
import { recordMail } from '../mail/index.ts';
import { proposeAnnuity } from './detail.ts';
import { announcePatents } from './live.ts';
import { sendCommitted } from './notify.ts';
import { dayOf, loadPatent, toPatentDto } from './service.ts';

/*
 * The add-patent form (POST /brevet_eptane/create) and the admins' review of what was submitted:
 * accepting creates the patent record, rejecting mails the reason to the submitter.
 */

type SubmissionRow = typeof patentSubmissions.$inferSelect;
type Submitter = { id: string; name: string; email: string } | null;

function toSubmissionDto(row: SubmissionRow, submitter: Submitter): PatentSubmissionDto {
  return {
    _id: row.id,
    status: row.status,
    numero_depot: row.numeroDepot,
    numero_publication: row.numeroPublication,
    date_depot: row.dateDepot,
    reference_client: row.referenceClient,
    reference_cabinet: row.referenceCabinet,
    date_echeance_annuites: row.dateEcheance,
    pays: row.pays,
    origine: row.origine,
    instruction_paiement: row.instructionId,
    quantieme: row.quantieme,
    cout: row.cost === null ? null : Number(row.cost),
    submitted_by: submitter ? { _id: submitter.id, name: submitter.name, email: submitter.email } : null,
    reason: row.reason,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    patent_id: row.patentId,
    created: row.createdAt.toISOString(),
  };
}

const submitterColumns = { id: users.id, name: users.companyAgent, email: users.email };

async function submitterOf(db: Executor, userId: string | null): Promise<Submitter> {
  if (userId === null) return null;
  const [user] = await db.select(submitterColumns).from(users).where(eq(users.id, userId));
  return user ?? null;
}

async function assertKnownInstruction(ctx: AppContext, id: number | null): Promise<void> {
  if (id === null) return;
  const [row] = await ctx.db.select({ id: paymentInstructions.id }).from(paymentInstructions).where(eq(paymentInstructions.id, id));
  if (!row) throw new AppError('unknown_instruction', { fields: { instruction_paiement: 'unknown_instruction' } });
}

/** POST /brevet_eptane/create: a pending submission; nothing joins the portfolio before an admin accepts it. */
export async function createSubmission(ctx: AppContext, actor: AuthState, body: PatentCreateBody): Promise<PatentSubmissionDto> {
  await assertKnownInstruction(ctx, body.instruction_paiement);
  const [row] = await ctx.db
    .insert(patentSubmissions)
    .values({
      submittedBy: actor.userId,
      numeroDepot: body.numero_depot,
      numeroPublication: body.numero_publication,
      dateDepot: body.date_depot,
      referenceClient: body.reference_client,
      referenceCabinet: body.reference_cabinet,
      dateEcheance: body.date_echeance_annuites,
      pays: body.pays,
      origine: body.origine,
      instructionId: body.instruction_paiement,
      quantieme: body.quantieme,
      cost: body.cout === null ? null : body.cout.toFixed(2),
      createdAt: ctx.clock.now(),
    })
    .returning();
  return toSubmissionDto(row!, await submitterOf(ctx.db, actor.userId));
}

/** GET /patent_submissions: one status (pending by default), oldest first, paged. */
export async function listSubmissions(ctx: AppContext, query: { status: PatentSubmissionStatus; page: number; limit: number }) {
  const where = eq(patentSubmissions.status, query.status);
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(patentSubmissions).where(where);
  const rows = await ctx.db
    .select({ submission: patentSubmissions, submitter: submitterColumns })
    .from(patentSubmissions)
    .leftJoin(users, eq(users.id, patentSubmissions.submittedBy))
    .where(where)
    .orderBy(asc(patentSubmissions.createdAt), asc(patentSubmissions.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    patent_submissions: rows.map((r) => toSubmissionDto(r.submission, r.submitter?.id ? r.submitter : null)),
    meta: paginationMeta(query.page, query.limit, total),
  };
}

/** The submission, locked; reviewed already → 409 `submission_reviewed`. */
async function lockPending(tx: Executor, id: string): Promise<SubmissionRow> {
  const [row] = await tx.select().from(patentSubmissions).where(eq(patentSubmissions.id, id)).for('update');
  if (!row) throw new AppError('not_found');
  if (row.status !== 'pending') throw new AppError('submission_reviewed');
  return row;
}

/** The next `WEB-<n>` idagenda, serialised by a transaction-scoped advisory lock. */
async function nextWebAgenda(tx: Executor): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('patent_records_web_idagenda'))`);
  const [row] = await tx
    .select({ next: sql<string>`coalesce(max(substring(${patentRecords.idagenda} from 5)::bigint), 0) + 1` })
    .from(patentRecords)
    .where(sql`${patentRecords.idagenda} ~ '^WEB-[0-9]{1,15}$'`);
  return `WEB-${String(row?.next ?? 1)}`;
}

/**
 * PUT /patent_submissions/{id}/accept: the record joins the portfolio in the cabinet and client code
 * given (default: the submitter's first cabinet by name, and first code), with a `WEB-<n>` idagenda;
 * the engine proposes a missing due date, annuity number and cost. An instruction given on the form
 * makes it processed, audited with the source `submission`.
 */
export async function acceptSubmission(ctx: AppContext, actor: AuthState, id: string, body: { cabinet?: string; code_client?: string }) {
  const now = ctx.clock.now();
  const day = dayOf(now);
  const { submission, patentId } = await ctx.db.transaction(async (tx) => {
    const submission = await lockPending(tx, id);
    let cabinetId = body.cabinet;
    let code = body.code_client;
    if (submission.submittedBy !== null && (cabinetId === undefined || code === undefined)) {
      const [first] = await tx
        .select({ cabinetId: cabinets.id })
        .from(userCabinets)
        .innerJoin(cabinets, eq(cabinets.id, userCabinets.cabinetId))
        .where(eq(userCabinets.userId, submission.submittedBy))
        .orderBy(asc(cabinets.name))
        .limit(1);
      const [user] = await tx.select({ code: users.code }).from(users).where(eq(users.id, submission.submittedBy));
      cabinetId ??= first?.cabinetId;
      code ??= user?.code[0];
    }
    if (cabinetId === undefined || !(await tx.select({ id: cabinets.id }).from(cabinets).where(eq(cabinets.id, cabinetId))).length) {
      throw new AppError('cabinet_required', { fields: { cabinet: 'cabinet_required' } });
    }
    if (code === undefined) throw new AppError('client_code_required', { fields: { code_client: 'client_code_required' } });
    if (submission.pays === null) throw new AppError('country_required', { fields: { pays: 'country_required' } });

    const proposed = await proposeAnnuity(tx, { pays: submission.pays, origine: submission.origine, dateDepot: submission.dateDepot, quantieme: submission.quantieme }, day);
    const cost = submission.cost ?? (proposed.cost === null ? null : proposed.cost.toFixed(2));
    const status = submission.instructionId === null ? ('unprocessed' as const) : ('processed' as const);
    const dateEcheance = submission.dateEcheance ?? proposed.dateEcheance;
    const quantieme = submission.quantieme ?? proposed.quantieme;
    const pays = submission.pays;
    const [record] = await tx
      .insert(patentRecords)
      .values({
        idagenda: await nextWebAgenda(tx),
        cabinetId,
        clientCode: code,
        referenceClient: submission.referenceClient,
        referenceCabinet: submission.referenceCabinet,
        numeroDepot: submission.numeroDepot,
        numeroPublication: submission.numeroPublication,
        pays: submission.pays,
        origine: submission.origine,
        dateDepot: submission.dateDepot,
        dateEcheance,
        quantieme,
        cost,
        // Checked against the computed schedule with the insert: a date or number the submitter got wrong is stored, flagged.
        ...scheduleColumnsOf({ pays, origine: submission.origine, dateDepot: submission.dateDepot, quantieme, dateEcheance }),
        instructionId: submission.instructionId,
        instructionStatus: status,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: patentRecords.id });
    if (submission.instructionId !== null) {
      await tx.insert(patentInstructionEvents).values({
        patentId: record!.id,
        oldInstructionId: null,
        newInstructionId: submission.instructionId,
        oldStatus: 'unprocessed',
        newStatus: 'processed',
        userId: submission.submittedBy,
        source: 'submission',
        createdAt: now,
      });
      // The new record's year on the ledger (decision 191), from due: the submitter's instruction.
      await writeLedger(
        tx,
        [{ recordId: record!.id, seed: 'due', userId: submission.submittedBy, event: { kind: 'instruction', source: 'submission', instructionId: submission.instructionId } }],
        { at: now },
      );
    }
    const [updated] = await tx
      .update(patentSubmissions)
      .set({ status: 'accepted', reviewedBy: actor.userId, reviewedAt: now, patentId: record!.id })
      .where(eq(patentSubmissions.id, id))
      .returning();
    return { submission: updated!, patentId: record!.id };
  });
  const [row] = await loadPatent(ctx.db, eq(patentRecords.id, patentId), false);
  const patent: PatentRecordDto = toPatentDto(row!.patent, row!.cabinetName, day);
  announcePatents(ctx, [{ id: patentId, cabinetId: row!.patent.cabinetId, clientCode: row!.patent.clientCode }], 'submission');
  return { submission: toSubmissionDto(submission, await submitterOf(ctx.db, submission.submittedBy)), brevet_eptane: patent };
}

/** PUT /patent_submissions/{id}/reject: the reason is kept and mailed to the submitter in its language. */
export async function rejectSubmission(ctx: AppContext, actor: AuthState, id: string, reason: string): Promise<PatentSubmissionDto> {
  const now = ctx.clock.now();
  const { submission, mailId } = await ctx.db.transaction(async (tx) => {
    const pending = await lockPending(tx, id);
    const [updated] = await tx
      .update(patentSubmissions)
      .set({ status: 'rejected', reason, reviewedBy: actor.userId, reviewedAt: now })
      .where(eq(patentSubmissions.id, id))
      .returning();
    const [user] = pending.submittedBy === null ? [] : await tx.select().from(users).where(eq(users.id, pending.submittedBy));
    const reference = [pending.referenceClient, pending.numeroDepot, pending.numeroPublication].filter((v) => v !== null).join(' / ') || (pending.pays ?? '—');
    const mailId = user
      ? await recordMail(tx, { recipient: user.email, template: 'patent_submission_rejected', locale: user.langue, params: { name: user.companyAgent, reference, reason } })
      : null;
    return { submission: updated!, mailId };
  });
  await sendCommitted(ctx, [mailId]);
  return toSubmissionDto(submission, await submitterOf(ctx.db, submission.submittedBy));
}
