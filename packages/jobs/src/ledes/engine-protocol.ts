import type { MessagePort } from 'node:worker_threads';
import type { LedesProfile, LedesSummary, ResolvedFinding } from '@portal/ledes';
import type { Lang } from '@portal/ledes/report';

/** The part of a run's options that is plain data; sent with the run's own message port. */
export interface ThreadRunRequest {
  readonly port: MessagePort;
  readonly filename: string;
  readonly profile: LedesProfile;
  readonly now: Date;
  readonly lang: Lang;
  readonly maxLineBytes?: number;
  readonly progressIntervalMs?: number;
  /**
   * A set of known invoice numbers goes as is; a per-invoice function (`callback`) or a batched
   * lookup (`batch`, with its batch size) is called back on the main thread, which owns the database.
   */
  readonly acceptedInvoices: 'none' | 'callback' | { readonly batch: number | undefined } | ReadonlySet<string>;
}

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** Thread → main thread, on the run's port. */
export type FromThread =
  | { readonly type: 'pull' }
  | { readonly type: 'findings'; readonly findings: readonly ResolvedFinding[] }
  | { readonly type: 'xlsx'; readonly chunk: Uint8Array }
  | { readonly type: 'progress'; readonly linesChecked: number }
  | { readonly type: 'lookup'; readonly id: number; readonly args: readonly unknown[] }
  | { readonly type: 'done'; readonly summary: LedesSummary }
  | { readonly type: 'failed'; readonly error: SerializedError };

/** Main thread → thread, on the run's port. */
export type ToThread =
  | { readonly type: 'chunk'; readonly chunk: Uint8Array }
  | { readonly type: 'end' }
  | { readonly type: 'xlsx-ack'; readonly bytes: number }
  | { readonly type: 'lookup-result'; readonly id: number; readonly value?: unknown; readonly error?: SerializedError }
  | { readonly type: 'abort'; readonly error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) };
}

export function deserializeError(e: SerializedError, prefix = ''): Error {
  const error = new Error(`${prefix}${e.message}`);
  error.name = e.name;
  if (e.stack) error.stack = `${prefix}${e.stack}`;
  return error;
}
