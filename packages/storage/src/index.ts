import { LocalStorage } from './drivers/local.ts';
import type { Storage, StorageConfig } from './types.ts';

export type { ListOptions, PutOptions, PutResult, Storage, StorageConfig, StoredObject, LocalStorageConfig, S3StorageConfig } from './types.ts';
export type { Body as StorageBody } from './metering.ts';
export { StorageError, StorageNotFoundError, StorageLimitError, InvalidKeyError } from './errors.ts';
export { generateKey, isValidKey, slugify, MAX_KEY_LENGTH } from './keys.ts';

/**
 * The storage of `config`'s driver. The S3 driver and its minio client are loaded only when asked
 * for: the embedded portal stores on local disk and has no use for them in memory.
 */
export async function createStorage(config: StorageConfig): Promise<Storage> {
  switch (config.driver) {
    case 'local':
      return new LocalStorage(config);
    case 's3': {
      const { S3Storage } = await import('./drivers/s3.ts');
      return new S3Storage(config);
    }
  }
}
