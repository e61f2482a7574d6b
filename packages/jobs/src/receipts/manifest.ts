import ExcelJS from 'exceljs';
import { inspectSpreadsheet } from '@portal/annuities';
import { RECEIPT_ZIP_LIMITS } from '@portal/contracts';
import { parseCsv } from '../patents/csv.ts';
import { manifestOf, type Manifest } from './references.ts';

const MANIFEST_LIMITS = {
  maxBytes: RECEIPT_ZIP_LIMITS.maxManifestBytes,
  maxEntries: 100,
  maxInflatedBytes: 20 * 1024 * 1024,
  maxEntryBytes: 10 * 1024 * 1024,
  maxSharedStringsBytes: 5 * 1024 * 1024,
  maxRows: 10_000,
  maxColumns: 50,
  maxMergedRanges: 100,
  maxMergedCells: 10_000,
};

/**
 * The zip's manifest, CSV (`;`, `,` or tab) or xlsx (first sheet), header first; null when it cannot
 * be read or has no `file` column. An xlsx goes through the annuity reader's guard first (zip bombs,
 * DOCTYPE, macros), then exceljs reads it whole (it is small).
 */
export async function readManifest(bytes: Buffer, name: string): Promise<Manifest | null> {
  if (name.toLowerCase().endsWith('.csv')) {
    if (bytes.includes(0)) return null;
    return manifestOf(parseCsv(bytes));
  }
  const inspection = await inspectSpreadsheet(bytes, 'manifest.xlsx', MANIFEST_LIMITS);
  if (!inspection.ok) return null;
  try {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) return null;
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      rows.push(values.map((v) => (v !== null && typeof v === 'object' && !(v instanceof Date) ? (('text' in v ? v.text : 'result' in v ? v.result : null) ?? null) : v)));
    });
    return manifestOf(rows);
  } catch {
    return null;
  }
}
