import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '@portal/contracts';
import { AppError } from './errors.ts';

function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

/**
 * Parses untrusted input with a zod schema. Field errors that name one of our codes (the contracts
 * use them as messages) become the envelope's code; anything else is a plain validation failure.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  let first: ErrorCode | undefined;
  let params: { field: string; max?: number } | undefined;
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    const code = isErrorCode(issue.message) ? issue.message : 'validation_failed';
    fields[field] ??= code;
    if (!first && code !== 'validation_failed') {
      first = code;
      // The message names the field, and a length's limit (`text_too_long`).
      params = issue.code === 'too_big' && typeof issue.maximum === 'number' ? { field, max: issue.maximum } : { field };
    }
  }
  throw new AppError(first ?? 'validation_failed', { status: 400, fields, ...(params ? { params } : {}) });
}
