export * from './calendar.ts';
export * from './reasons.ts';
export * from './types.ts';
export { FEE_TABLES, feeTableFor, formatMinor, type FeeTable } from './fees.ts';
export { PROFILES, UNITARY_STATES, type OfficeProfile, type SurchargeRule } from './offices.ts';
export { computeSchedule, surchargeOn, type Annuity, type RightInput, type Schedule, type ScheduleFlag } from './schedule.ts';
export { deCheckDigit, epCheckDigit, parseNumber, type CheckDigitStatus, type NumberKind, type ParsedNumber } from './numbers.ts';
export { espacenetUrl, registerUrl, type RegisterInput } from './registers.ts';
