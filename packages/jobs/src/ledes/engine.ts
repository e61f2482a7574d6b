import type { Writable } from 'node:stream';
import { checkLedes, type CheckOptions, type LedesSummary, type LineSink, type ResolvedFinding } from '@portal/ledes';
import { createTreatedWorkbook, type Lang } from '@portal/ledes/report';

/** What a LEDES check needs besides its input bytes; everything but the callbacks crosses a thread as is. */
export interface EngineOptions extends Pick<CheckOptions, 'filename' | 'profile' | 'acceptedInvoices' | 'maxLineBytes' | 'onProgress' | 'progressIntervalMs'> {
  /** The run's instant: read once, so the check gives the same findings wherever it runs. */
  readonly now: Date;
  /** The treated workbook's destination (ended once the workbook is complete) and language. */
  readonly workbook: { readonly out: Writable; readonly lang: Lang };
  /** Every finding, line findings as they come then the late ones, in the engine's order. */
  readonly onFindings: (findings: readonly ResolvedFinding[]) => void;
}

/**
 * Runs the CPU-heavy part of a LEDES run (the engine and the treated workbook): both in this thread
 * (`runEngineInThread`), or each in a worker thread of its own (`createThreadEngine`), with the same
 * result byte for byte.
 */
export type LedesEngine = (source: AsyncIterable<Uint8Array>, options: EngineOptions) => Promise<{ summary: LedesSummary }>;

/** What receives the engine's lines: the treated workbook itself, or a forwarder to the workbook's thread. */
export interface RowSink extends LineSink {
  drained(): Promise<void>;
}

/** The engine alone, its lines given to `rows` and its findings to `options.onFindings`, in the engine's order. */
export async function runChecks(source: AsyncIterable<Uint8Array>, options: Omit<EngineOptions, 'workbook'>, rows: RowSink): Promise<{ summary: LedesSummary }> {
  const { summary } = await checkLedes(source, {
    filename: options.filename,
    profile: options.profile,
    clock: () => options.now,
    acceptedInvoices: options.acceptedInvoices,
    maxLineBytes: options.maxLineBytes,
    onProgress: options.onProgress,
    progressIntervalMs: options.progressIntervalMs,
    collect: false,
    sink: {
      onStart: (info) => rows.onStart?.(info),
      onLine: (line, fields, findings, body) => {
        if (findings.length > 0) options.onFindings(findings);
        rows.onLine(line, fields, findings, body);
      },
      onEnd: async (late, summary) => {
        if (late.length > 0) options.onFindings(late);
        await rows.onEnd(late, summary);
      },
      drained: () => rows.drained(),
    },
  });
  return { summary };
}

export const runEngineInThread: LedesEngine = async (source, options) => {
  const workbook = createTreatedWorkbook(options.workbook.out, options.workbook.lang);
  const result = await runChecks(source, options, workbook);
  await workbook.done;
  return result;
};
