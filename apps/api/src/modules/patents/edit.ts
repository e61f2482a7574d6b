import { eq, sql } from 'drizzle-orm';
import type { InstructionStatus, PatentEditBody, PatentRecordDto } from '@portal/contracts';
import { patentInstructionEvents, patentRecords, paymentInstructions } from '@portal/db';
import { scheduleColumnsOf, syncRecordStates, writeLedger } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import type { AuthState } from '../../domain/auth.ts';
import { assertNumbersFitOffice } from './numbers.ts';
import { dayOf, loadPatent, toPatentDto } from './service.ts';

type Insert = typeof patentRecords.$inferInsert;

/** Wire name → column of the fields an admin may edit (the instruction is handled apart). */
const EDITABLE = {
  ReferenceClient: 'referenceClient',
  nosref: 'referenceCabinet',
  noDepot: 'numeroDepot',
  NoPublication: 'numeroPublication',
  Pays: 'pays',
  Origine: 'origine',
  Depot: 'dateDepot',
  Expiration: 'dateExpiration',
  DateEcheance: 'dateEcheance',
  Quantieme: 'quantieme',
  cost: 'cost',
  TitreAnglais: 'titreAnglais',
  TitreFrancais: 'titreFrancais',
  DonneurOrdre: 'donneurOrdre',
  DonneurOrdreAn: 'donneurOrdreAn',
  DateAcquit: 'dateAcquit',
  DatePaiementOffice: 'datePaiementOffice',
  DateReponseACourrier: 'dateReponseCourrier',
  DatePaiementClient: 'datePaiementClient',
} as const satisfies Partial<Record<keyof PatentEditBody, keyof Insert>>;

/**
 * PUT /brevet_eptane/update/{_id} (admins): the given fields (absent unchanged, null cleared) with the
 * version read (stale: 409). A new instruction makes the status processed (cleared: unprocessed), even
 * for a validated one, which staff then validate again; that change is audited with the source `edit`.
 */
export async function editPatent(ctx: AppContext, actor: AuthState, id: string, body: PatentEditBody): Promise<{ patent: PatentRecordDto; instructionChanged: boolean }> {
  if (body.id_instruction !== undefined && body.id_instruction !== null) {
    const [known] = await ctx.db.select({ id: paymentInstructions.id }).from(paymentInstructions).where(eq(paymentInstructions.id, body.id_instruction));
    if (!known) throw new AppError('unknown_instruction', { fields: { id_instruction: 'unknown_instruction' } });
  }
  const now = ctx.clock.now();
  const instructionChanged = await ctx.db.transaction(async (tx) => {
    const [row] = await loadPatent(tx, eq(patentRecords.id, id), true);
    if (!row) throw new AppError('not_found');
    const patent = row.patent;
    assertNumbersFitOffice(body.Pays ?? patent.pays, { application: ['noDepot', body.noDepot], publication: ['NoPublication', body.NoPublication] });
    if (patent.version !== body.version) throw new AppError('stale_version');
    const set: Record<string, unknown> = {};
    for (const [wire, column] of Object.entries(EDITABLE) as Array<[keyof typeof EDITABLE, keyof Insert]>) {
      const value = body[wire];
      if (value === undefined) continue;
      set[column] = wire === 'cost' && typeof value === 'number' ? value.toFixed(2) : value;
    }
    const changed = body.id_instruction !== undefined && body.id_instruction !== patent.instructionId;
    if (changed) {
      const status: InstructionStatus = body.id_instruction === null ? 'unprocessed' : 'processed';
      set.instructionId = body.id_instruction;
      set.instructionStatus = status;
      await tx.insert(patentInstructionEvents).values({
        patentId: patent.id,
        oldInstructionId: patent.instructionId,
        newInstructionId: body.id_instruction ?? null,
        oldStatus: patent.instructionStatus,
        newStatus: status,
        userId: actor.userId,
        source: 'edit',
        createdAt: now,
      });
      // The ledger first (decision 191): it reads the record's year before the edit.
      await writeLedger(tx, [{ recordId: patent.id, userId: actor.userId, event: { kind: 'instruction', source: 'edit', instructionId: body.id_instruction ?? null } }], { at: now });
    }
    // The edited record checked against the computed schedule, in the same statement (flagged when it disagrees).
    Object.assign(set, scheduleColumnsOf({ ...patent, ...(set as Partial<typeof patent>) }));
    await tx
      .update(patentRecords)
      .set({ ...(set as Partial<Insert>), version: sql`${patentRecords.version} + 1`, updatedAt: now })
      .where(eq(patentRecords.id, patent.id));
    // An edited year (Quantieme) or patent shows that year's ledger state.
    await syncRecordStates(tx, [patent.id]);
    return changed;
  });
  const [row] = await loadPatent(ctx.db, eq(patentRecords.id, id), false);
  return { patent: toPatentDto(row!.patent, row!.cabinetName, dayOf(now)), instructionChanged };
}
