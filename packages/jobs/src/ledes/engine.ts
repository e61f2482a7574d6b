import type { Writable } from 'node:stream';
import { checkLedes, type CheckOptions, type LedesSummary, type LineSink, type ResolvedFinding } from '@portal/ledes';
import { createTreatedWorkbook, type Lang } from '@portal/ledes/report';
import { SpendAccumulator, type SpendSummary } from './spend.ts';

/** What a LEDES check needs besides its input bytes; everything but the callbacks crosses a thread as is. */
export interface EngineOptions extends Pick<CheckOptions, 'filename' | 'profile' | 'acceptedInvoices' | 'maxLineBytes' | 'onProgress' | 'progressIntervalMs' | 'guidelines'> {
  /** The run's instant: read once, so the check gives the same findings wherever it runs. */
  readonly now: Date;
  /**
   * The treated workbook's destination (ended once the workbook is complete) and language; none: the
   * check alone (a run's first pass, decision 182). `amend` corrects the workbook's last sheet: the
   * verdict and the late findings the run stored (see `amendEnd`).
   */
  readonly workbook?: { readonly out: Writable; readonly lang: Lang; readonly amend?: WorkbookAmend };
  /** Every finding, line findings as they come then the late ones, in the engine's order. */
  readonly onFindings: (findings: readonly ResolvedFinding[]) => void;
}

/**
 * What the treated workbook of a run written after its check (decision 182) takes from the stored
 * result rather than from its own pass: the verdict, and the duplicate-invoice findings (CON-007),
 * which depend on what other runs had accepted when the run was checked. Its own pass runs without
 * the duplicate lookup, so its late findings are the check's without those, which came last.
 */
export interface WorkbookAmend {
  readonly accepted: boolean;
  /** Appended to the pass's late findings, in line order (the engine's order: invoices by first line). */
  readonly late: readonly ResolvedFinding[];
}

/** The end of a workbook's pass, with the stored verdict and late findings when amended. */
export function amendEnd(late: readonly ResolvedFinding[], summary: LedesSummary, amend: WorkbookAmend | undefined): [readonly ResolvedFinding[], LedesSummary] {
  if (!amend) return [late, summary];
  return [[...late, ...amend.late], { ...summary, accepted: amend.accepted }];
}

/** A line sink that drops the lines: the check alone. */
export const NO_ROWS: RowSink = {
  onLine() {},
  onEnd() {},
  drained: () => Promise.resolve(),
};

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
export async function runChecks(source: AsyncIterable<Uint8Array>, options: Omit<EngineOptions, 'workbook'>, rows: RowSink): Promise<{ summary: SpendSummary }> {
  // The spend analytics' rollup of the lines (decision 206), attached to the summary: it crosses threads with it.
  const spend = new SpendAccumulator();
  const { summary } = await checkLedes(source, {
    filename: options.filename,
    profile: options.profile,
    clock: () => options.now,
    acceptedInvoices: options.acceptedInvoices,
    maxLineBytes: options.maxLineBytes,
    onProgress: options.onProgress,
    progressIntervalMs: options.progressIntervalMs,
    ...(options.guidelines ? { guidelines: options.guidelines } : {}),
    collect: false,
    sink: {
      onStart: (info) => {
        // An XML file's items are rolled up as the 98B records the engine reads them as (issue 31 §2).
        spend.onStart(info.itemFieldNames ?? info.fieldNames);
        rows.onStart?.(info);
      },
      onLine: (line, fields, findings, body, item) => {
        spend.onLine(fields ?? item ?? null, findings);
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
  return { summary: { ...summary, spend: spend.result() } };
}

export const runEngineInThread: LedesEngine = async (source, options) => {
  if (!options.workbook) return runChecks(source, options, NO_ROWS);
  const { out, lang, amend } = options.workbook;
  const workbook = createTreatedWorkbook(out, lang);
  const rows: RowSink = {
    onStart: (info) => workbook.onStart?.(info),
    onLine: (line, fields, findings, body) => workbook.onLine(line, fields, findings, body),
    onEnd: (late, summary) => workbook.onEnd(...amendEnd(late, summary, amend)),
    drained: () => workbook.drained(),
  };
  const result = await runChecks(source, options, rows);
  await workbook.done;
  return result;
};
