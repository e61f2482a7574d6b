import { z } from 'zod';

/**
 * Characters no field of ours ever carries: NUL and the other C0 controls except tab, LF and CR,
 * DEL, U+FFFD (what a decoder leaves of invalid UTF-8) and the noncharacters U+FFFE/U+FFFF.
 */
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD\uFFFE\uFFFF]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (invalid UTF-16). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string is well-formed Unicode text without control characters. */
export function isCleanText(value: string): boolean {
  return !FORBIDDEN_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/**
 * The one string schema of every request field (path, query, JSON body, multipart text): a plain
 * `z.string()` with the clean-text rule first, so NUL bytes, lone surrogates and decoding leftovers
 * are a 400 `validation_failed` before any other rule or any database sees them. The `error` option
 * is the code used when the value is not a string at all.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isCleanText, { error: 'validation_failed', abort: true });
}
