/**
 * Thrown by a processor for failures a retry cannot fix (malformed LEDES file, corrupt workbook):
 * the job fails at once. Maps to BullMQ's UnrecoverableError.
 */
export class UnrecoverableJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The payload does not match `JOB_PAYLOADS[queue]`: refused at enqueue, unrecoverable at processing. */
export class InvalidJobPayloadError extends UnrecoverableJobError {
  constructor(
    readonly queue: string,
    readonly issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  ) {
    super(`Invalid payload for queue "${queue}": ${issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  }
}

/** Redis is unreachable: the producer fails fast so the API can answer 503 instead of hanging. */
export class QueueUnavailableError extends Error {
  constructor(message = 'Job queue unavailable', options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** `closeGracefully` ran out of time; `pending` is the index of the closer still running. */
export class ShutdownTimeoutError extends Error {
  constructor(readonly timeoutMs: number, readonly pending: number) {
    super(`Graceful shutdown exceeded ${timeoutMs} ms (closer #${pending} still running)`);
    this.name = new.target.name;
  }
}
