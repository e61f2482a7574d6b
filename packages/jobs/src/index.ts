export { createCheckLedesProcessor, EMBEDDED_FINDINGS_PER_STATEMENT, createSendMailProcessor, markLedesRunFailed, publishRun, type CheckLedesDeps, type SendMailDeps } from './processors/index.ts';
export { loadResult, loadRun, loadRuns, toRunDto, FORMAT_OK_LIMIT, RESULT_PAGE_FINDINGS, type LedesRunRow, type ResultPage } from './ledes/runs.ts';
export { RUN_KINDS, RUN_TABLES, JOB_REGISTRY, REGISTERED_QUEUES, bindJobs, consumedQueues, isRegisteredQueue, retryPolicies, type JobPorts, type RegisteredQueue } from './registry.ts';
export { ledesJob, closeSilentLedesRuns, withHeartbeat, LEDES_ERROR_CODES, LEDES_HEARTBEAT_MS } from './definitions/ledes.ts';
export { mailJob } from './definitions/mail.ts';
export { sweepJobs, enqueueCommitted, NOT_STARTED_AFTER_MS, SILENT_RUN_AFTER_MS, type SweepPorts } from './sweep.ts';
export { sharedThreadEngine, createThreadEngine, type ThreadEngine } from './ledes/engine-thread.ts';
export { runEngineInThread, type LedesEngine } from './ledes/engine.ts';
export { annuitiesJob, closeSilentAnnuityFiles, ANNUITY_ERROR_CODES } from './definitions/annuities.ts';
export { createCheckAnnuitiesProcessor, markAnnuityFileFailed, exportKeyFor, PATENT_BATCH, PATENT_INSERT_ROWS, EMBEDDED_INSERT_ROWS, ANNUITY_PROGRESS_MS, type CheckAnnuitiesDeps } from './processors/check-annuities.ts';
export { exportNameOf, loadAnnuityFile, storedCountsOf, toFileDto, toPatentDto, type AnnuityFileRow, type AnnuityPatentRow } from './annuities/files.ts';
export { runAnnuityEngine, type AnnuityEngine } from './annuities/engine.ts';
export { scheduleFields } from './annuities/schedule-fields.ts';
export { patentImportJob, closeSilentPatentImports } from './definitions/patent-import.ts';
export { patentExportJob, PATENT_EXPORT_EVERY_MS } from './definitions/patent-export.ts';
export { patentRemindersJob, PATENT_REMINDERS_CRON, PATENT_REMINDERS_EVERY_MS } from './definitions/patent-reminders.ts';
export { ledesDigestJob, LEDES_DIGEST_CRON, LEDES_DIGEST_EVERY_MS } from './definitions/ledes-digest.ts';
export { createLedesDigestProcessor, ledesDayFigures, runLedesDigest, DIGEST_TOP_FINDINGS, type LedesDigestDeps, type LedesDayFigures, type LedesDigestResult } from './processors/ledes-digest.ts';
export { createImportPatentsProcessor, markImportFailed, PATENT_IMPORT_ERROR_CODES, PATENT_IMPORT_PROGRESS_MS, type ImportPatentsDeps } from './processors/import-patents.ts';
export { createExportPatentsProcessor, exportOneBatch, exportStamp, PATENT_EXPORT_BATCH_MAX, PATENT_EXPORT_COLUMNS, PATENT_EXPORT_PREFIX, type ExportPatentsDeps } from './processors/export-patents.ts';
export { createPatentRemindersProcessor, reminderStep, runPatentReminders, type PatentRemindersDeps, type ReminderRunResult, type ReminderStep } from './processors/patent-reminders.ts';
export { loadImport, toImportDto, type PatentImportRow } from './patents/imports.ts';
export { loadInstructionIds, loadRates, PORTFOLIO_BATCH, PortfolioTally, upsertPatents, type UpsertCounts } from './patents/upsert.ts';
export { engineDay, mapHeaders, originOf, prepareRow, rateOn, rawFromCells, rowsOf, scheduleColumnsOf, type PatentUpsertRow, type RateTable, type RawPatentRow, type ScheduleColumns, type StoredClaim } from './patents/rows.ts';
export { recheckSchedules } from './patents/schedule-check.ts';
export { csvLine, parseCsv } from './patents/csv.ts';
export { seedDemoPortfolio, DEMO_CURRENCY_RATES, type DemoPortfolioOptions, type DemoPortfolioResult } from './patents/demo-portfolio.ts';
export { receiptsJob, closeSilentReceiptUploads } from './definitions/receipts.ts';
export { createReadReceiptsProcessor, markReceiptUploadFailed, receiptStorageKey, RECEIPT_ERROR_CODES, RECEIPTS_PROGRESS_MS, type ReadReceiptsDeps } from './processors/read-receipts.ts';
export { loadReceiptUpload, toReceiptUploadDto, type ReceiptUploadRow } from './receipts/uploads.ts';
export { receiptUploadKind, PDF_SNIFF_BYTES, ZIP_MAGIC } from './receipts/kind.ts';
export { manifestOf, referencesFromText, type ReceiptReferences } from './receipts/references.ts';
export { defineRunKind, leaseOf, notLeased, RUN_LEASE_MS, RUN_LEASE_RENEW_MS, type RunKind, type RunKindDefinition, type RunLease, type RunPorts, type RunRow, type RunTable } from './run-kind.ts';
export { ledesRunKind } from './kinds/ledes.ts';
export { annuityRunKind, publishFile } from './kinds/annuities.ts';
export { patentImportRunKind, publishImport } from './kinds/patent-import.ts';
export { receiptRunKind, publishReceiptUpload } from './kinds/receipts.ts';
export { DO_NOT_PAY, INSTRUCTION_SOURCES, LEDGER_STATES, instructedState, recordState, sourceOf, transition, type InstructionLedgerSource, type LedgerEvent, type LedgerSource, type LedgerState, type Transition } from './ledger/states.ts';
export { PATENT_KEY_SQL, patentKeyOf, syncRecordStates, writeLedger, type LedgerChange, type LedgerOutcome, type LedgerWriteOptions } from './ledger/write.ts';
export { costOf, costsToWire, fromMinor, loadCostTables, type CostTables } from './costs/load.ts';
export { GUIDELINE_LOOKUP_BATCH, guidelineHistoryLookup, loadGuidelineVersions, storeGuidelineIndex, toLedesDay } from './ledes/guidelines.ts';
export { GUIDELINE_PREVIEW_BUDGET_MS, previewGuidelines, type GuidelinePreview, type GuidelinePreviewRun } from './ledes/preview.ts';
export { FORECAST_REFRESH_BATCH, FORECAST_SCOPED_DIRTY_MAX, forecastHasDirty, forecastHasDirtyAmong, forecastNeedsRefresh, refreshForecast, type ForecastAudience } from './forecast/refresh.ts';
export { forecastLiveDay, rebuildLive, specialCte } from './forecast/live.ts';
export { eurPartsOf, type EurParts } from './forecast/costs.ts';
export { liveParts, storedScheduleOf, storedThroughOf, type ForecastInput, type ForecastPart, type StoredAnnuity, type StoredSchedule } from './forecast/schedule.ts';
export { registerSyncJob, registerSyncRunKind, REGISTER_SYNC_CRON, REGISTER_SYNC_EVERY_MS } from './definitions/register-sync.ts';
export {
  createRegisterSyncProcessor,
  numberOfPatent,
  openScheduledRun,
  reconcile,
  requestRegisterSync,
  toRegisterSyncDto,
  PAUSED_HOLDER,
  REGISTER_SYNC_BATCH,
  REGISTER_SYNC_DISABLED,
  type RegisterSyncDeps,
  type RegisterSyncRow,
} from './registers/sync.ts';
export { renewalCallsJob, RENEWAL_CALLS_CRON, RENEWAL_CALLS_EVERY_MS } from './definitions/renewal-calls.ts';
export { createRenewalCallsProcessor } from './processors/renewal-calls.ts';
export { callCostTables, callLines, callSettingsOf, closeCallItems, gatherCalls, openItemsOf, runRenewalCalls, sendCallStep, sentStepsOf, PDF_TYPE as CALL_PDF_TYPE, type RenewalCallsDeps, type RenewalCallsResult, type SendOutcome } from './calls/run.ts';
export { CALL_TOTAL_CURRENCY, DEFAULT_CALL_SETTINGS, instructBefore, nextStep, partOf, priceItem, stepOn, stepToSend, totalsPerCurrency, windowEnd, type CallSettings, type CallStep, type CostPart, type PricedItem, type SentStep } from './calls/costs.ts';
export { callPdf, callXlsx, formatAmount, type CallDocument, type CallLine } from './calls/documents.ts';
