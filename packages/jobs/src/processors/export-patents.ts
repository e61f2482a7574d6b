import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { annuityFromDue, formatIsoDate, officeOfCountry, parseIsoDate, type CostPartKind, type Day } from '@portal/annuities/core';
import { cabinets, patentExportBatches, patentLedger, patentRecords, paymentInstructions, receipts, type Database } from '@portal/db';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import type { Storage } from '@portal/storage';
import { neutralise, XlsxStreamWriter, type OutCell, XLSX_CONTENT_TYPE } from '@portal/xlsx';
import { costOf, fromMinor, loadCostTables, type CostTables } from '../costs/load.ts';
import { csvLine } from '../patents/csv.ts';
import { engineDay } from '../patents/rows.ts';

export interface ExportPatentsDeps {
  db: Database;
  storage: Storage;
  logger: Logger;
  clock?: { now(): Date };
}

/** Patents per batch at most: a larger backlog makes several batches in one run. */
export const PATENT_EXPORT_BATCH_MAX = 5000;
export const PATENT_EXPORT_PREFIX = 'outbound/patent-exports';

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
  // The cost of the annuity instructed, part by part (issue 30 §1, decision 199): priced on its due date, or on the export day once that is past.
  'payment_date',
  'fee_table',
  'official_fee',
  'fee_currency',
  'official_fee_eur',
  'surcharge_eur',
  'agent_fee_eur',
  'service_fee_eur',
  'margin_eur',
  'ecb_rate',
  'ecb_rate_date',
  'total_eur',
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
  cabinetId: string;
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

/** The cost columns of a row, in PATENT_EXPORT_COLUMNS' order from `payment_date`; all null when the annuity cannot be priced. */
type CostCells = [string | null, string | null, number | null, string | null, number | null, number | null, number | null, number | null, number | null, string | null, string | null, number | null];
const NO_COST: CostCells = [null, null, null, null, null, null, null, null, null, null, null, null];

function costCells(tables: CostTables, row: ExportRow, today: Day): CostCells {
  const office = officeOfCountry(row.pays);
  const due = row.dateEcheance === null ? null : parseIsoDate(row.dateEcheance);
  if (office === null || due === null || row.quantieme === null || row.quantieme < 1) return NO_COST;
  const annuity = annuityFromDue(office, due, row.quantieme);
  const cost = costOf(tables, annuity, row.cabinetId, today > due ? today : due);
  const part = (kind: CostPartKind) => {
    const found = cost.parts.filter((p) => p.kind === kind);
    if (found.length === 0) return null;
    return found.some((p) => p.eurMinor === null) ? null : fromMinor(found.reduce((sum, p) => sum + p.eurMinor!, 0));
  };
  const official = cost.parts.find((p) => p.kind === 'official_fee');
  const rate = official === undefined ? undefined : cost.rates.find((r) => r.currency === official.currency);
  return [
    cost.paymentDay,
    official?.ref ?? null,
    official === undefined ? null : fromMinor(official.amountMinor),
    official?.currency ?? null,
    part('official_fee'),
    part('surcharge'),
    part('agent_fee'),
    part('service_fee'),
    part('margin'),
    rate?.perEur ?? null,
    rate?.day ?? null,
    cost.totalEurMinor === null ? null : fromMinor(cost.totalEurMinor),
  ];
}

function cellsOf(row: ExportRow, cost: CostCells): OutCell[] {
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
    cost[0] === null ? null : { day: parseIsoDate(cost[0])! },
    cost[1],
    ...cost.slice(2, 9),
    cost[9] === null ? null : Number(cost[9]),
    cost[10] === null ? null : { day: parseIsoDate(cost[10])! },
    cost[11],
    row.ledgerState,
    paid === null ? null : { day: paid },
    row.receiptId,
    t(row.receiptFile),
  ] as OutCell[];
}

async function writeXlsx(storage: Storage, key: string, rows: readonly ExportRow[], costs: readonly CostCells[]): Promise<void> {
  const out = new PassThrough();
  const upload = storage.put(key, out, { contentType: XLSX_CONTENT_TYPE });
  try {
    const writer = new XlsxStreamWriter(out, ['FFFFFFFF']);
    await writer.startSheet('export', { widths: PATENT_EXPORT_COLUMNS.map(() => 18) });
    await writer.row([...PATENT_EXPORT_COLUMNS], XlsxStreamWriter.HEADER_STYLE);
    const dateColumns = new Set<string>(['DateEcheance', 'payment_date', 'ecb_rate_date', 'paid_on']);
    const styles = PATENT_EXPORT_COLUMNS.map((c) => (dateColumns.has(c) ? XlsxStreamWriter.styleOf(0, true) : 0));
    for (let i = 0; i < rows.length; i++) await writer.row(cellsOf(rows[i]!, costs[i]!), styles);
    await writer.finish();
    out.end();
    await upload;
  } catch (error) {
    out.destroy();
    await upload.catch(() => {});
    throw error;
  }
}

function csvOf(rows: readonly ExportRow[], costs: readonly CostCells[]): Buffer {
  const lines = [csvLine([...PATENT_EXPORT_COLUMNS])];
  rows.forEach((r, i) => {
    lines.push(
      csvLine([r.idagenda, r.idbrevet, r.clientCode, r.cabinet, r.referenceClient, r.referenceCabinet, r.numeroDepot, r.numeroPublication, r.pays, r.dateEcheance, r.quantieme, r.cost, r.instructionId, r.titleFr, r.titleEn, r.status, ...costs[i]!, r.ledgerState, r.paidOn, r.receiptId, r.receiptFile]),
    );
  });
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
        cabinetId: patentRecords.cabinetId,
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
    // The cost tables and rates are read once for the batch, never per row.
    const today = engineDay(now);
    const days = rows.map((r) => r.dateEcheance).filter((d): d is string => d !== null);
    const todayIso = formatIsoDate(today);
    const fromDay = days.reduce((min, d) => (d < min ? d : min), todayIso);
    const toDay = days.reduce((max, d) => (d > max ? d : max), todayIso);
    const tables = await loadCostTables(tx, { cabinetIds: rows.map((r) => r.cabinetId), currencies: ['GBP', 'SEK'], fromDay, toDay });
    const costs = rows.map((r) => costCells(tables, r, today));
    await writeXlsx(deps.storage, xlsxKey, rows, costs);
    await deps.storage.put(csvKey, csvOf(rows, costs), { contentType: 'text/csv; charset=utf-8' });
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
