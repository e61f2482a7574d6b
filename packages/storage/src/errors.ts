/** Base class so callers can `instanceof StorageError` once instead of listing every case. */
export class StorageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class StorageNotFoundError extends StorageError {
  constructor(readonly key: string, options?: ErrorOptions) {
    super(`Object not found: ${key}`, options);
  }
}

/** The body grew past `maxBytes`; the partial object has been discarded. */
export class StorageLimitError extends StorageError {
  constructor(readonly maxBytes: number) {
    super(`Object exceeds the limit of ${maxBytes} bytes`);
  }
}

/** The key failed `isValidKey`; nothing was read or written. The key is not echoed (it may be hostile). */
export class InvalidKeyError extends StorageError {
  constructor() {
    super('Invalid storage key');
  }
}
