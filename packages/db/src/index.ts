export * as schema from './schema.ts';
export * from './schema.ts';
export { openDatabase, isUniqueViolation, type Database, type Transaction, type Executor, type DatabaseConfig, type DatabaseHandle } from './client.ts';
export { DatabaseInUseError } from './embedded-lock.ts';
export { STORAGE_KEY_COLUMNS, referencedStorageKeys } from './storage-references.ts';
