export * as schema from './schema.ts';
export * from './schema.ts';
export { openDatabase, openDatabasePort, isUniqueViolation, driverOf, type Database, type Transaction, type Executor, type DatabaseConfig, type DatabaseHandle, type OpenOptions } from './client.ts';
export { currentLane, inBackgroundLane, inRequestLane, type DatabaseLane } from './lanes.ts';
export { DatabaseInUseError } from './embedded-lock.ts';
export { executeKeepingPlan, keepPreparedPlan } from './plan-cache.ts';
export { STORAGE_KEY_COLUMNS, referencedStorageKeys } from './storage-references.ts';
export {
  AUTOVACUUM_THRESHOLDS,
  EMBEDDED_STATISTICS_TARGET,
  afterBulkWrite,
  analyzeTable,
  createMaintenance,
  plannedSteps,
  readTableCounters,
  registerMaintenance,
  stepFor,
  vacuumTable,
  type Maintenance,
  type MaintenanceLog,
  type MaintenanceOptions,
  type MaintenanceStep,
  type PassOptions,
  type StepResult,
  type TableCounters,
  type Thresholds,
} from './maintenance.ts';
