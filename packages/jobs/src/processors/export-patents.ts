import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { parseIsoDate } from '@portal/annuities/core';
import { cabinets, patentExportBatches, patentLedger, patentRecords, paymentInstructions, receipts, type Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import type { Storage } from '@portal/storage';
import { neutralise, XlsxStreamWriter, type OutCell } from '@portal/xlsx';
import { csvLine } from '../patents/csv.ts';

export interface ExportPatentsDeps {
  db: Database;
  storage: Storage;
  logger: Logger;
  clock?: { now(): Date };
}

/** Patents per batch at most: a larger backlog makes several batches in one run. */
export const PATENT_EXPORT_BATCH_MAX = 5000;
export const PATENT_EXPORT_PREFIX = 'outbound/patent-exports';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The columns of an export, in the back office's wire names. */
export const PATENT_EXPORT_COLUMNS = [
  'idagenda',
  'idbrevet',
  'code_client',
  'cabinet',
  'ReferenceClient',
  'nosref',
  'noDepot',
  'NoPublication',
  'Pays',
  'DateEcheance',
  'Quantieme',
  'cost',
  'id_instruction',
  'instruction_fr',
  'instruction_en',
  'traitement_instruction',
  // The payment ledger of the row's year (decision 198): its state, the day paid and the receipt proving it.
  'ledger_state',
  'paid_on',
  'receipt_id',
  'receipt_file',
] as const;

/** `2026-11-26_081502`: the batch's time (UTC) in its file names. */
export function exportStamp(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

type ExportRow = {
  id: string;
  idagenda: string;
  idbrevet: string | null;
  clientCode: string;
  cabinet: string;
  referenceClient: string | null;
  referenceCabinet: string | null;
  numeroDepot: string | null;
  numeroPublication: string | null;
  pays: string;
  dateEcheance: string | null;
  quantieme: number | null;
  cost: string | null;
  instructionId: number | null;
  titleFr: string | null;
  titleEn: string | null;
  status: string;
  ledgerState: string | null;
  paidOn: string | null;
  receiptId: string | null;
  receiptFile: string | null;
};

function cellsOf(row: ExportRow): OutCell[] {
  const t = (value: string | null) => (value === null ? null : neutralise(value));
  const due = row.dateEcheance === null ? null : parseIsoDate(row.dateEcheance);
  const paid = row.paidOn === null ? null : parseIsoDate(row.paidOn);
  return [
    t(row.idagenda),
    t(row.idbrevet),
    t(row.clientCode),
    t(row.cabinet),
    t(row.referenceClient),
    t(row.referenceCabinet),
    t(row.numeroDepot),
    t(row.numeroPublication),
    t(row.pays),
    due === null ? null : { day: due },
    row.quantieme,
    row.cost === null ? null : Number(row.cost),
    row.instructionId,
    t(row.titleFr),
    t(row.titleEn),
    row.status,
    row.ledgerState,
    paid === null ? null : { day: paid },
    row.receiptId,
    t(row.receiptFile),
  ];
}

async function writeXlsx(storage: Storage, key: string, rows: readonly ExportRow[]): Promise<void> {
  const out = new PassThrough();
  const upload = storage.put(key, out, { contentType: XLSX_TYPE });
  try {
    const writer = new XlsxStreamWriter(out, ['FFFFFFFF']);
    await writer.startSheet('export', { widths: PATENT_EXPORT_COLUMNS.map(() => 18) });
    await writer.row([...PATENT_EXPORT_COLUMNS], XlsxStreamWriter.HEADER_STYLE);
    const dateColumns = new Set<number>([PATENT_EXPORT_COLUMNS.indexOf('DateEcheance'), PATENT_EXPORT_COLUMNS.indexOf('paid_on')]);
    const styles = PATENT_EXPORT_COLUMNS.map((_c, i) => (dateColumns.has(i) ? XlsxStreamWriter.styleOf(0, true) : 0));
    for (const row of rows) await writer.row(cellsOf(row), styles);
    await writer.finish();
    out.end();
    await upload;
  } catch (error) {
    out.destroy();
    await upload.catch(() => {});
    throw error;
  }
}

function csvOf(rows: readonly ExportRow[]): Buffer {
  const lines = [csvLine([...PATENT_EXPORT_COLUMNS])];
  for (const r of rows) {
    lines.push(
      csvLine([r.idagenda, r.idbrevet, r.clientCode, r.cabinet, r.referenceClient, r.referenceCabinet, r.numeroDepot, r.numeroPublication, r.pays, r.dateEcheance, r.quantieme, r.cost, r.instructionId, r.titleFr, r.titleEn, r.status, r.ledgerState, r.paidOn, r.receiptId, r.receiptFile]),
    );
  }
  // A BOM, so a spreadsheet opens the UTF-8 titles right.
  return Buffer.from('\ufeff' + lines.join(''), 'utf8');
}

/**
 * One batch: in one transaction, the validated patents not exported yet, locked `FOR UPDATE SKIP
 * LOCKED` (a second run at the same time takes other rows, or none), their files written, the batch
 * row inserted and exactly those patents stamped. Returns the batch's patent count (0: nothing to
 * export, nothing written). Files written by a transaction that then fails are referenced by no row:
 * the storage clean-up removes them.
 */
export async function exportOneBatch(deps: ExportPatentsDeps, limit = PATENT_EXPORT_BATCH_MAX): Promise<{ batchId: string; count: number } | null> {
  const now = deps.clock?.now() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: patentRecords.id })
      .from(patentRecords)
      .where(and(eq(patentRecords.instructionStatus, 'validated'), isNull(patentRecords.exportedAt)))
      .orderBy(asc(patentRecords.dateEcheance), asc(patentRecords.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (locked.length === 0) return null;
    const ids = locked.map((r) => r.id);
    const rows: ExportRow[] = await tx
      .select({
        id: patentRecords.id,
        idagenda: patentRecords.idagenda,
        idbrevet: patentRecords.idbrevet,
        clientCode: patentRecords.clientCode,
        cabinet: cabinets.name,
        referenceClient: patentRecords.referenceClient,
        referenceCabinet: patentRecords.referenceCabinet,
        numeroDepot: patentRecords.numeroDepot,
        numeroPublication: patentRecords.numeroPublication,
        pays: patentRecords.pays,
        dateEcheance: patentRecords.dateEcheance,
        quantieme: patentRecords.quantieme,
        cost: patentRecords.cost,
        instructionId: patentRecords.instructionId,
        titleFr: paymentInstructions.titleFr,
        titleEn: paymentInstructions.titleEn,
        status: patentRecords.instructionStatus,
        ledgerState: patentRecords.ledgerState,
        paidOn: patentLedger.paidOn,
        receiptId: patentLedger.receiptId,
        receiptFile: receipts.fileName,
      })
      .from(patentRecords)
      .innerJoin(cabinets, eq(cabinets.id, patentRecords.cabinetId))
      .leftJoin(paymentInstructions, eq(paymentInstructions.id, patentRecords.instructionId))
      // The row's year on the ledger (decision 191's patent key), and the receipt that proves its payment.
      .leftJoin(patentLedger, and(eq(patentLedger.patentKey, sql`coalesce(nullif(${patentRecords.idbrevet}, ''), 'record:' || ${patentRecords.id}::text)`), eq(patentLedger.annuityYear, patentRecords.quantieme)))
      .leftJoin(receipts, eq(receipts.id, patentLedger.receiptId))
      .where(inArray(patentRecords.id, ids))
      .orderBy(asc(patentRecords.dateEcheance), asc(patentRecords.id));
    const batchId = randomUUID();
    const name = `${exportStamp(now)}-${batchId}`;
    const xlsxKey = `${PATENT_EXPORT_PREFIX}/${name}.xlsx`;
    const csvKey = `${PATENT_EXPORT_PREFIX}/${name}.csv`;
    await writeXlsx(deps.storage, xlsxKey, rows);
    await deps.storage.put(csvKey, csvOf(rows), { contentType: 'text/csv; charset=utf-8' });
    await tx.insert(patentExportBatches).values({ id: batchId, name, xlsxKey, csvKey, patentCount: rows.length, createdAt: now });
    await tx
      .update(patentRecords)
      .set({ exportBatchId: batchId, exportedAt: now, updatedAt: now })
      .where(and(inArray(patentRecords.id, ids), isNull(patentRecords.exportedAt)));
    return { batchId, count: rows.length };
  });
}

/** The `patent-export` job: batches until nothing validated is left unexported. */
export function createExportPatentsProcessor(deps: ExportPatentsDeps): Processor<'patent-export'> {
  return async ({ trigger }, job) => {
    let batches = 0;
    let patents = 0;
    for (;;) {
      job.signal.throwIfAborted();
      const batch = await exportOneBatch(deps);
      if (!batch) break;
      batches++;
      patents += batch.count;
      deps.logger.info({ event: 'patent_export_batch', batchId: batch.batchId, patents: batch.count }, 'patent export batch written');
      if (batch.count < PATENT_EXPORT_BATCH_MAX) break;
    }
    deps.logger.info({ event: 'patent_export_done', trigger: trigger === 'scheduled' ? 'scheduled' : 'manual', batches, patents }, 'patent export run done');
  };
}
