import type { Writable } from 'node:stream';
import { neutralise, XlsxStreamWriter, type OutCell } from '@portal/xlsx';
import type { LedesSummary, LineSink } from '../check.ts';
import type { LineRef, ResolvedFinding } from '../findings.ts';
import { parseDecimal, pow10, toString } from '../money.ts';
import { ruleOf } from '../rules/catalogue.ts';

export type Lang = 'fr' | 'en';

const NUMBER = /^-?\d+(\.\d+)?$/;

const TEXT = {
  en: {
    lines: 'Lines', file: 'File and invoices', line: 'Line', status: 'Status', findings: 'Findings', fields: 'Fields',
    code: 'Code', severity: 'Severity', label: 'Label', ok: 'OK', error: 'Error', warning: 'Warning',
    fileLine: 'file', headerLine: 'header', verdict: 'Verdict', accepted: 'Accepted', refused: 'Refused',
    found: 'Found', expected: 'Expected', difference: 'Difference', field: 'Field',
    over: 'Total over the cap', reference: 'Guideline',
  },
  fr: {
    lines: 'Lignes', file: 'Fichier et factures', line: 'Ligne', status: 'Statut', findings: 'Anomalies', fields: 'Champs',
    code: 'Code', severity: 'Gravité', label: 'Libellé', ok: 'Conforme', error: 'Erreur', warning: 'Avertissement',
    fileLine: 'fichier', headerLine: 'en-tête', verdict: 'Verdict', accepted: 'Accepté', refused: 'Refusé',
    found: 'Trouvé', expected: 'Attendu', difference: 'Écart', field: 'Champ',
    over: 'Total au-delà du plafond', reference: 'Directive',
  },
} as const;

export { neutralise };

/** The decimals of a plain decimal number ("87.63": 2), or undefined for anything else. */
function decimalsOf(value: string | undefined): number | undefined {
  if (value === undefined || !NUMBER.test(value)) return undefined;
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/**
 * A finding's values at the invoice's own precision: the found amount's decimals (an expected 38.584350 computed
 * from units × rate is 38.58 beside a found 87.63), rounded half away from zero, exactly (no binary float).
 */
export function atPrecision(value: string | undefined, decimals: number | undefined): string | undefined {
  const own = decimalsOf(value);
  if (value === undefined || own === undefined || decimals === undefined || own <= decimals) return value;
  const parsed = parseDecimal(value);
  if (!parsed.ok) return value;
  const drop = pow10(own - decimals);
  const units = parsed.value.units;
  const magnitude = units < 0n ? -units : units;
  const rounded = (magnitude + drop / 2n) / drop;
  return toString({ units: units < 0n ? -rounded : rounded, scale: decimals });
}

/** A number as its reader writes it: a decimal comma in French ("87,63"); anything else as it is. */
export function inReadersFormat(value: string, lang: Lang): string {
  return lang === 'fr' && NUMBER.test(value) ? value.replace('.', ',') : value;
}

export interface TreatedWorkbook extends LineSink {
  /** Resolves once the xlsx is completely written to the stream (and the stream ended). */
  readonly done: Promise<void>;
  /**
   * Resolves once the rows given so far are handed to the compressor; rejects with the writer's
   * error. The engine's sink is synchronous: the feeder awaits this between input chunks, so the
   * workbook never runs ahead of the output in memory.
   */
  drained(): Promise<void>;
  /**
   * `onLine` for a line given as the text its fields were split from on `|` (`[]` left out) and
   * their count, or null and -1 for a line without fields: what a thread that receives lines as
   * text (not as arrays of fields) hands over. A text that does not split into `fieldCount` fields
   * throws instead of shifting columns.
   */
  onRow(line: number, body: string | null, fieldCount: number, findings: readonly ResolvedFinding[]): void;
}

/**
 * The "treated file": every line with its status and findings in `lang`, followed by its raw
 * fields. Rows are appended synchronously as the engine checks them and streamed out through the
 * shared xlsx writer (inline strings, fast deflate), so the workbook never grows in memory. Findings
 * known only at the end (file, header, invoice totals) go to a second sheet.
 */
export function createTreatedWorkbook(stream: Writable, lang: Lang): TreatedWorkbook {
  const t = TEXT[lang];
  // A LEDES file repeats the same dates, ids, names and statuses on every line: shared strings make
  // the sheet XML several times smaller. 100,000 distinct texts bound the table's memory.
  const xlsx = new XlsxStreamWriter(stream, [], { sharedStrings: 100_000 });
  // Every write to the output goes through this chain, in order; the first failure is kept and
  // reported by drained() / onEnd, never left as an unhandled rejection.
  let resolveDone!: () => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  // The same error reaches the engine through drained() or onEnd: `done` failing unobserved is not a crash.
  done.catch(() => {});
  let failure: { error: unknown } | null = null;
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => {
    chain = chain.then(() => (failure ? undefined : step())).catch((error: unknown) => {
      failure ??= { error };
      rejectDone(error);
    });
  };
  const drained = async () => {
    await chain;
    if (failure) throw failure.error;
  };
  // Started now, not at the chain's next turn: the sheet takes rows as soon as this returns.
  const sheet = xlsx.startSheet(t.lines, { freezeHeader: true });
  sheet.catch(() => {});
  enqueue(() => sheet);

  /** The finding's values in words, in the reader's format: "found 715.50, expected 705.00, difference 10.50" ("trouvé 715,50…"). */
  const valuesText = (f: ResolvedFinding): string => {
    const v = f.values;
    if (!v) return '';
    const decimals = decimalsOf(v.found);
    const word = (label: string, value: string | undefined) =>
      value === undefined ? null : `${label.toLowerCase()} ${inReadersFormat(atPrecision(value, decimals)!, lang)}`;
    const parts = [word(t.found, v.found), word(t.expected, v.expected), word(t.difference, v.difference), word(t.over, v.over)].filter((p) => p !== null);
    // The client's rule the finding comes from, as the client wrote it (a reference, not a number).
    if (v.reference !== undefined) parts.push(`${t.reference.toLowerCase()} ${v.reference}`);
    return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
  };
  const describe = (f: ResolvedFinding): string => {
    const rule = ruleOf(f.code);
    return `${f.code} [${f.champ}] ${lang === 'fr' ? rule.fr : rule.en}${valuesText(f)}`;
  };
  const lineLabel = (line: LineRef): string | number =>
    line === 'file' ? t.fileLine : line === 'header' ? t.headerLine : line + 1;
  const text = (value: string): string | null => (value === '' ? null : neutralise(value));
  /** Amounts and counts as numbers (a column a reader can sum and sort), anything else as text. */
  const valueCell = (value: string | undefined): OutCell => {
    if (value === undefined) return null;
    const n = NUMBER.test(value) ? Number(value) : Number.NaN;
    return Number.isFinite(n) && String(n).replace(/^-/, '').length <= 15 ? n : text(value);
  };
  /** A line's first cells: its number, its status and its findings in words. */
  const leadCells = (line: number, findings: readonly ResolvedFinding[]): OutCell[] => {
    if (findings.length === 0) return [line + 1, t.ok, null];
    return [line + 1, findings.some((f) => f.severity === 'error') ? t.error : t.warning, neutralise(findings.map(describe).join('\n'))];
  };
  const add = (cells: readonly OutCell[]) => {
    if (xlsx.addRow(cells)) enqueue(() => xlsx.flush());
  };

  return {
    done,
    drained,
    onStart({ fieldNames }) {
      add([t.line, t.status, t.findings, ...(fieldNames.length > 0 ? fieldNames : [t.fields])]);
    },
    onLine(line, fields, findings) {
      const cells = leadCells(line, findings);
      if (fields) for (const field of fields) cells.push(text(field));
      add(cells);
    },
    onRow(line, body, fieldCount, findings) {
      const lead = leadCells(line, findings);
      if (body === null) add(lead);
      else {
        // The fields straight from their line: the same cells as onLine's from `body.split('|')`, without making the strings.
        const written = xlsx.addDelimitedRow(lead, body, '|');
        if (written !== fieldCount) throw new Error(`line ${line + 1}: ${fieldCount} fields expected, ${written} written`);
        if (xlsx.wantsFlush) enqueue(() => xlsx.flush());
      }
    },
    async onEnd(late: readonly ResolvedFinding[], summary: LedesSummary) {
      try {
        await drained();
        await xlsx.startSheet(t.file, { freezeHeader: false });
        await xlsx.row([t.verdict, summary.accepted ? t.accepted : t.refused]);
        await xlsx.row([t.line, t.code, t.severity, t.field, t.label, t.found, t.expected, t.difference, t.over, t.reference]);
        for (const f of late) {
          const rule = ruleOf(f.code);
          // Numbers are cells (the reader's spreadsheet shows them in its own format), at the invoice's precision.
          const decimals = decimalsOf(f.values?.found);
          const v = f.values && {
            found: f.values.found,
            expected: atPrecision(f.values.expected, decimals),
            difference: atPrecision(f.values.difference, decimals),
            over: atPrecision(f.values.over, decimals),
          };
          await xlsx.row([
            lineLabel(f.line),
            f.code,
            f.severity === 'error' ? t.error : t.warning,
            text(f.champ),
            lang === 'fr' ? rule.fr : rule.en,
            valueCell(v?.found),
            valueCell(v?.expected),
            valueCell(v?.difference),
            valueCell(v?.over),
            f.values?.reference === undefined ? null : text(f.values.reference),
          ]);
        }
        await xlsx.finish();
        await new Promise<void>((resolve, reject) => {
          stream.once('error', reject);
          stream.end(() => resolve());
        });
        resolveDone();
      } catch (e) {
        rejectDone(e);
        throw e;
      }
    },
  };
}
