/**
 * The engine without spreadsheet I/O: calendar, offices, fees, schedules, numbers, registers, row
 * evaluation, column matching and limits. Processes that only compute or validate (the API, the
 * job processors on the main thread) import this entry: the full entry also holds the spreadsheet
 * readers and writers (yauzl, SheetJS with its first .xls), which the embedded API would carry for nothing.
 */
export * from './calendar.ts';
export * from './reasons.ts';
export * from './types.ts';
export { FEE_CHECK_MONTHS, FEE_TABLES, feeOf, feeTableFor, feeTablesOf, formatMinor, staleFeeOffices, type Fee, type FeeCheck, type FeeSource, type FeeTable } from './fees.ts';
export { PROFILES, UNITARY_STATES, type OfficeProfile, type SurchargeRule } from './offices.ts';
export { annuityFromDue, computeSchedule, DUE_SOON_DAYS, feeOn, scheduleColour, surchargeOn, type Annuity, type PaymentOptions, type RightInput, type Schedule, type ScheduleFlag } from './schedule.ts';
export { deCheckDigit, epCheckDigit, parseNumber, type CheckDigitStatus, type NumberKind, type ParsedNumber } from './numbers.ts';
export { espacenetUrl, registerUrl, type RegisterInput } from './registers.ts';
export { scheduleToJson } from './json.ts';
export { evaluateRow, type RowEvaluation } from './evaluate.ts';
export { DEFAULT_LIMITS, type SpreadsheetLimits } from './spreadsheet/limits.ts';
export { FIELDS, cellDate, fieldOfHeader, matchColumns, normaliseHeader, officeOfCountry, type CellValue, type ColumnMap, type Field } from './spreadsheet/columns.ts';
export { annuityDueBy, annuityRange, inAnnuityRange, LAST_ANNUITY, type AnnuityRange } from './terms.ts';
export { checkRecord, recordDeadline, type DeadlineState, type RecordCheck, type RecordClaim, type RecordDeadline, type RecordDisagreement, type RecordDisagreementCode } from './record.ts';
export { costBreakdown, inForce, isIsoDay, type CostBreakdown, type CostInput, type CostPart, type CostPartKind, type CostRate, type DatedAmount, type ServiceFee } from './costs.ts';
export { ECB_MAX_CHARS, ECB_MAX_CURRENCIES, ECB_MAX_DAYS, parseEcbRates, pickEcbRate, toEuroMinor, type EcbFile, type EcbFormat, type EcbParse, type EcbRate, type EcbRefusal } from './ecb.ts';
