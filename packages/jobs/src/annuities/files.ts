import { eq } from 'drizzle-orm';
import { annuityRange, isOffice, isOrigin } from '@portal/annuities/core';
import type { AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { annuityFiles, annuityPatents, type Executor } from '@portal/db';
import { serverT, type Locale } from '@portal/i18n';

export type AnnuityFileRow = typeof annuityFiles.$inferSelect;
export type AnnuityPatentRow = typeof annuityPatents.$inferSelect;

/** The export's download name: the import's name with `_export.xlsx`. */
export function exportNameOf(importName: string): string {
  return `${importName.replace(/\.[^.]*$/, '')}_export.xlsx`;
}

/** A Done file's counts per colour as the check and the edits stored them (the dates' colours). */
export function storedCountsOf(file: AnnuityFileRow): NonNullable<AnnuityFileDto['counts']> {
  return { ok: file.countOk, nok: file.countNok, orange: file.countOrange, no_date: file.countNoDate };
}

/**
 * The file's wire shape. `locale` fills `error_message` for a REST answer; an event carries codes and
 * numbers only (`error_message` null) and the client translates `error_code` (annuities:reason.*).
 */
export function toFileDto(file: AnnuityFileRow, locale: Locale | null, owner?: { id: string; email: string; companyAgent: string }): AnnuityFileDto {
  const done = file.state === 'Done';
  return {
    _id: file.id,
    title: file.title,
    name_file_import: file.importName,
    name_file_export: file.exportName,
    created: file.createdAt.toISOString(),
    path_import: file.importKey,
    path_export: done ? file.exportKey : null,
    is_done: file.state,
    error_code: file.state === 'Error' ? file.errorCode : null,
    error_message: locale && file.state === 'Error' && file.errorCode ? serverT(locale)(`annuities:reason.${file.errorCode}`) : null,
    rows_done: file.rowsDone,
    rows_total: file.rowsTotal,
    counts: done ? storedCountsOf(file) : null,
    reference_date: file.referenceDate,
    export_stale: file.exportStale,
    ...(owner ? { owner: { _id: owner.id, email: owner.email, company_agent: owner.companyAgent } } : {}),
  };
}

export function toPatentDto(p: AnnuityPatentRow): AnnuityPatentDto {
  return {
    _id: p.id,
    file_id: p.fileId,
    row: p.rowIndex,
    sheet: p.sheet,
    row_number: p.rowNumber,
    num_publication: p.numPublication,
    num_depot: p.numDepot,
    reference: p.reference,
    nom: p.nom,
    pays: p.pays,
    payeur: p.payeur,
    url: p.url,
    publié: p.publie,
    dechu: p.dechu,
    missed_number: p.missedNumber,
    missed_lost_after: p.missedLostAfter,
    expired: p.expired,
    in_grace_with_surcharge: p.inGraceWithSurcharge,
    office: p.office,
    origin: p.origin,
    date_depot: p.dateDepot,
    mois_date_depot: p.moisDateDepot,
    date_precedente_annuite: p.datePrecedenteAnnuite,
    quant_precedent: p.quantPrecedent,
    date_prochaine_annuite: p.dateProchaineAnnuite,
    next_number: p.nextNumber,
    instruction_limit: p.instructionLimit,
    limite_date_prochaine_annuite: p.limiteDateProchaineAnnuite,
    quant_range: annuityRange(p.office !== null && isOffice(p.office) ? p.office : null, p.origin !== null && isOrigin(p.origin) ? p.origin : null),
    commentaire: p.commentaire,
    colour: p.colour,
    reasons: p.reasons,
    flags: p.flags,
    fee: p.fee,
    currency: p.currency,
    edited: p.edited,
    ledger: null,
  };
}

export async function loadAnnuityFile(db: Executor, id: string): Promise<AnnuityFileRow | undefined> {
  const [file] = await db.select().from(annuityFiles).where(eq(annuityFiles.id, id));
  return file;
}

