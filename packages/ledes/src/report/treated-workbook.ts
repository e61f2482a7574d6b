import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { LedesSummary, LineSink } from '../check.ts';
import type { LineRef, ResolvedFinding } from '../findings.ts';
import { ruleOf } from '../rules/catalogue.ts';

export type Lang = 'fr' | 'en';

const TEXT = {
  en: {
    lines: 'Lines', file: 'File and invoices', line: 'Line', status: 'Status', findings: 'Findings', fields: 'Fields',
    code: 'Code', severity: 'Severity', label: 'Label', ok: 'OK', error: 'Error', warning: 'Warning',
    fileLine: 'file', headerLine: 'header', verdict: 'Verdict', accepted: 'Accepted', refused: 'Refused',
  },
  fr: {
    lines: 'Lignes', file: 'Fichier et factures', line: 'Ligne', status: 'Statut', findings: 'Anomalies', fields: 'Champs',
    code: 'Code', severity: 'Gravité', label: 'Libellé', ok: 'Conforme', error: 'Erreur', warning: 'Avertissement',
    fileLine: 'fichier', headerLine: 'en-tête', verdict: 'Verdict', accepted: 'Accepté', refused: 'Refusé',
  },
} as const;

/**
 * Spreadsheet apps run text starting with = + - @ (and TAB/CR, which some strip first) as a
 * formula: such text gets a leading apostrophe and is written as a plain string.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export interface TreatedWorkbook extends LineSink {
  /** Resolves once the xlsx is completely written to the stream. */
  readonly done: Promise<void>;
}

/**
 * The "treated file": every line with its status and findings in `lang`, followed by its raw
 * fields. Rows are committed as they arrive (exceljs streaming writer), so the engine can
 * feed it during the check without the workbook growing in memory. Findings known only at
 * the end (file, header, invoice totals) go to a second sheet.
 */
export function createTreatedWorkbook(stream: Writable, lang: Lang): TreatedWorkbook {
  const t = TEXT[lang];
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
  const lines = workbook.addWorksheet(t.lines);
  let resolveDone!: () => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });

  const describe = (f: ResolvedFinding): string => {
    const rule = ruleOf(f.code);
    return `${f.code} [${f.champ}] ${lang === 'fr' ? rule.fr : rule.en}`;
  };
  const lineLabel = (line: LineRef): string | number =>
    line === 'file' ? t.fileLine : line === 'header' ? t.headerLine : line + 1;

  return {
    done,
    onStart({ fieldNames }) {
      lines.addRow([t.line, t.status, t.findings, ...(fieldNames.length > 0 ? fieldNames : [t.fields])]).commit();
    },
    onLine(line, fields, findings) {
      const status = findings.some((f) => f.severity === 'error') ? t.error : findings.length > 0 ? t.warning : t.ok;
      const cells = fields ? fields.map(neutralise) : [];
      lines.addRow([line + 1, status, neutralise(findings.map(describe).join('\n')), ...cells]).commit();
    },
    async onEnd(late: readonly ResolvedFinding[], summary: LedesSummary) {
      try {
        lines.commit();
        const file = workbook.addWorksheet(t.file);
        file.addRow([t.verdict, summary.accepted ? t.accepted : t.refused]).commit();
        file.addRow([t.line, t.code, t.severity, 'champ', t.label]).commit();
        for (const f of late) {
          const rule = ruleOf(f.code);
          file.addRow([lineLabel(f.line), f.code, f.severity === 'error' ? t.error : t.warning, neutralise(f.champ), lang === 'fr' ? rule.fr : rule.en]).commit();
        }
        file.commit();
        await workbook.commit();
        resolveDone();
      } catch (e) {
        rejectDone(e);
        throw e;
      }
    },
  };
}
