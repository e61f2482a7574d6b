import type { Writable } from 'node:stream';
import { checkLedes, type CheckOptions, type LedesSummary, type ResolvedFinding } from '@portal/ledes';
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
 * Runs the CPU-heavy part of a LEDES run (the engine and the treated workbook): in this thread
 * (`runEngineInThread`) or in a worker thread (`createThreadEngine`), with the same result.
 */
export type LedesEngine = (source: AsyncIterable<Uint8Array>, options: EngineOptions) => Promise<{ summary: LedesSummary }>;

export const runEngineInThread: LedesEngine = async (source, options) => {
  const workbook = createTreatedWorkbook(options.workbook.out, options.workbook.lang);
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
      onStart: (info) => workbook.onStart?.(info),
      onLine: (line, fields, findings) => {
        if (findings.length > 0) options.onFindings(findings);
        workbook.onLine(line, fields, findings);
      },
      onEnd: async (late, summary) => {
        if (late.length > 0) options.onFindings(late);
        await workbook.onEnd(late, summary);
      },
      drained: () => workbook.drained(),
    },
  });
  await workbook.done;
  return { summary };
};
