export * from './core.ts';
export { checkSpreadsheet, type CheckOptions, type CheckSummary } from './check.ts';
export { inspectSpreadsheet, type Inspection, type SpreadsheetFormat } from './spreadsheet/guard.ts';
export { readAllRows, readSpreadsheet } from './spreadsheet/read.ts';
export type { ReadStats, RowVisitor, SheetInfo, SheetRow } from './spreadsheet/rows.ts';
export { COMPUTED_COLUMNS, EXPORT_COLOURS, ExportWriter, LEDGER_REASONS, neutralise, type StoredAnnuityFields } from './spreadsheet/write-export.ts';
export { writeLedgerExport, type LedgerExportResult, type LedgerMove } from './spreadsheet/ledger-export.ts';
