import type { ResolvedFinding } from '@portal/ledes';

/**
 * The engine's lines on their way to the treated workbook's thread, a batch per input chunk.
 *
 * Posting each line's fields as an array of strings would clone ~25 strings a line; instead a
 * batch is one string: the lines the fields were split from (the engine's `body`, `[]` terminator
 * left out) joined with `\n`. Lossless because of how the engine makes fields: they are the pieces
 * of `body.split('|')`, and a line never holds `\n` (lines are split on it). The field count
 * travels beside each line, so a line that broke this rule fails loudly on the other side instead
 * of shifting columns. XML items have no fields (null).
 */
export interface RowBatch {
  /** Per line: its number, then its field count (-1: no fields). */
  readonly meta: Int32Array;
  readonly text: string;
  /** Lines with findings: the line's position in the batch, then its findings. */
  readonly findings: readonly (readonly [number, readonly ResolvedFinding[]])[];
}

const NO_FINDINGS: readonly ResolvedFinding[] = Object.freeze([]);

export class RowEncoder {
  private meta: number[] = [];
  private parts: string[] = [];
  private findings: [number, readonly ResolvedFinding[]][] = [];

  /** `body`: the text `fields` were split from on `|`, when the caller has it (else they are joined again). */
  add(line: number, fields: readonly string[] | null, findings: readonly ResolvedFinding[], body?: string): void {
    if (findings.length > 0) this.findings.push([this.parts.length, findings]);
    this.meta.push(line, fields ? fields.length : -1);
    this.parts.push(fields ? (body ?? fields.join('|')) : '');
  }

  /** The lines added since the last call, or null if there were none. */
  take(): RowBatch | null {
    if (this.parts.length === 0) return null;
    const batch: RowBatch = { meta: Int32Array.from(this.meta), text: this.parts.join('\n'), findings: this.findings };
    this.meta = [];
    this.parts = [];
    this.findings = [];
    return batch;
  }
}

/**
 * Calls `visit` for each line of the batch, in order: its number, the text its fields come from and
 * their count (null and -1: no fields), its findings. The text is not split here: the treated
 * workbook reads the fields from it in place and checks their count (`TreatedWorkbook.onRow`).
 */
export function forEachRow(batch: RowBatch, visit: (line: number, body: string | null, fieldCount: number, findings: readonly ResolvedFinding[]) => void): void {
  const lines = batch.meta.length / 2;
  const texts = batch.text.split('\n');
  if (texts.length !== lines) throw new Error(`row batch of ${lines} lines holds ${texts.length}`);
  let next = 0;
  for (let i = 0; i < lines; i++) {
    const count = batch.meta[2 * i + 1]!;
    let findings = NO_FINDINGS;
    if (next < batch.findings.length && batch.findings[next]![0] === i) findings = batch.findings[next++]![1];
    visit(batch.meta[2 * i]!, count >= 0 ? texts[i]! : null, count, findings);
  }
}
