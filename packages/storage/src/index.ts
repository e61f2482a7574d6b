import { LocalStorage } from './drivers/local.ts';
import { S3Storage } from './drivers/s3.ts';
import type { Storage, StorageConfig } from './types.ts';

export type { ListOptions, PutOptions, PutResult, Storage, StorageConfig, StoredObject, LocalStorageConfig, S3StorageConfig } from './types.ts';
export type { Body as StorageBody } from './metering.ts';
export { StorageError, StorageNotFoundError, StorageLimitError, InvalidKeyError } from './errors.ts';
export { generateKey, isValidKey, slugify, MAX_KEY_LENGTH } from './keys.ts';

export function createStorage(config: StorageConfig): Storage {
  switch (config.driver) {
    case 'local':
      return new LocalStorage(config);
    case 's3':
      return new S3Storage(config);
  }
}
