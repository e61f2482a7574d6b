import { ERROR_CODES, type ErrorCode, type RefusedInstructionRow } from '@portal/contracts';

// The errors services throw: module-neutral, so no service imports the HTTP layer. The error middleware
// (`http/errors.ts`) renders them as the spec's envelope.

/** A row a bulk update refused; its reason is translated when the envelope is rendered. */
export type RefusedRow = Omit<RefusedInstructionRow, 'code' | 'reason'> & { code: ErrorCode };

/** An expected failure: it becomes the spec's envelope with a translated message and never a stack trace. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: { status?: number; fields?: Record<string, string>; detail?: string; retryAfterSeconds?: number; notUpdated?: RefusedRow[]; params?: MessageParams } = {},
  ) {
    super(options.detail ?? code);
    this.status = options.status ?? ERROR_CODES[code];
    this.fields = options.fields;
    this.params = options.params;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.notUpdated = options.notUpdated;
  }
  readonly fields: Record<string, string> | undefined;
  /**
   * Values this refusal's message quotes, over ERROR_MESSAGE_PARAMS: the office's range of
   * `annuity_number_out_of_range`; the failing field (wire name) and limit of `text_too_long`.
   */
  readonly params: MessageParams | undefined;
  /** The refused rows of a bulk instruction update (`instructions_refused`), each with its reason's code. */
  readonly notUpdated: RefusedRow[] | undefined;
  /** When a refusal for rate (429) lifts: sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;
}


/** Values a message quotes; `field` is a wire name, shown by its label (`api:fields.<name>`). */
export type MessageParams = Readonly<Record<string, number | string>> & { readonly field?: string; readonly max?: number };
