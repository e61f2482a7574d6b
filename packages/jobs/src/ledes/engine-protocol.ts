import type { MessagePort } from 'node:worker_threads';
import type { FormatId, GuidelineVersion, LedesProfile, LedesSummary, ResolvedFinding } from '@portal/ledes';
import type { Lang } from '@portal/ledes/report';
import type { WorkbookAmend } from './engine.ts';
import type { RowBatch } from './rows.ts';

/**
 * A threaded run has three parties: the main thread (input, findings, lookups, the workbook's
 * destination), the engine thread (the check) and the writer thread (the treated workbook). The
 * engine sends its lines to the writer directly, on a port of their own (`rows`).
 */

/** The part of a run's options that is plain data; sent to the engine thread with the run's own message ports. */
export interface ThreadRunRequest {
  readonly port: MessagePort;
  /** To the writer thread: `RowsMessage`s, each batch acked (`RowsAck`) once written. None: the check alone, no workbook. */
  readonly rows?: MessagePort;
  readonly filename: string;
  readonly profile: LedesProfile;
  readonly now: Date;
  readonly maxLineBytes?: number;
  readonly progressIntervalMs?: number;
  /**
   * A set of known invoice numbers goes as is; a per-invoice function (`callback`) or a batched
   * lookup (`batch`, with its batch size) is called back on the main thread, which owns the database.
   */
  readonly acceptedInvoices: 'none' | 'callback' | { readonly batch: number | undefined } | ReadonlySet<string>;
  /**
   * The client's guideline versions; their history of earlier invoices is asked of the main thread (a lookup
   * whose first argument is GUIDELINE_LOOKUP), `false` when the run's check takes none (the workbook's pass).
   */
  readonly guidelines?: { readonly versions: readonly GuidelineVersion[]; readonly history: false | { readonly batch: number | undefined } | 'none' };
}

/** The first argument of a lookup asking the main thread for the guidelines' history (not the invoice numbers). */
export const GUIDELINE_LOOKUP = 'guideline-history';

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** Sent to the writer thread with the run's ports. */
export interface WriterRunRequest {
  readonly port: MessagePort;
  readonly rows: MessagePort;
  readonly lang: Lang;
  readonly amend?: WorkbookAmend;
}

/** Engine thread → writer thread, on `rows`. */
export type RowsMessage =
  | { readonly type: 'start'; readonly info: { readonly format: FormatId | null; readonly fieldNames: readonly string[] } }
  | { readonly type: 'rows'; readonly batch: RowBatch }
  | { readonly type: 'end'; readonly late: readonly ResolvedFinding[]; readonly summary: LedesSummary };

/** Writer thread → engine thread, on `rows`: one batch written. */
export interface RowsAck {
  readonly type: 'ack';
}

/** Writer thread → main thread: the workbook's bytes, then its end. */
export type FromWriter =
  | { readonly type: 'xlsx'; readonly chunk: Uint8Array }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly error: SerializedError };

/** Main thread → writer thread. */
export type ToWriter = { readonly type: 'xlsx-ack'; readonly bytes: number } | { readonly type: 'abort'; readonly error: SerializedError };

/** Engine thread → main thread, on the run's port. */
export type FromThread =
  | { readonly type: 'pull' }
  | { readonly type: 'findings'; readonly findings: readonly ResolvedFinding[] }
  | { readonly type: 'progress'; readonly linesChecked: number }
  | { readonly type: 'lookup'; readonly id: number; readonly args: readonly unknown[] }
  | { readonly type: 'done'; readonly summary: LedesSummary }
  | { readonly type: 'failed'; readonly error: SerializedError };

/** Main thread → engine thread, on the run's port. */
export type ToThread =
  | { readonly type: 'chunk'; readonly chunk: Uint8Array }
  | { readonly type: 'end' }
  | { readonly type: 'lookup-result'; readonly id: number; readonly value?: unknown; readonly error?: SerializedError }
  | { readonly type: 'abort'; readonly error: SerializedError };

/**
 * A thread's failure because the other thread of the run stopped (its port closed mid-run). The
 * other side reports the cause itself (its error, or its thread's crash), so the main thread waits
 * for that report instead of failing the run with this echo.
 */
export const PEER_STOPPED = 'LedesPeerStopped';

export function peerStopped(message: string): Error {
  const error = new Error(message);
  error.name = PEER_STOPPED;
  return error;
}

export function serializeError(error: unknown): SerializedError {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { name: 'Error', message: String(error) };
}

export function deserializeError(e: SerializedError, prefix = ''): Error {
  const error = new Error(`${prefix}${e.message}`);
  error.name = e.name;
  if (e.stack) error.stack = `${prefix}${e.stack}`;
  return error;
}
