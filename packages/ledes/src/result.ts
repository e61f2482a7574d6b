import type { LineRef, ResolvedFinding } from './findings.ts';
import { ruleOf } from './rules/catalogue.ts';

/** One finding as stored and shown (spec entity "Ledes result per file"). */
export interface LedesItem {
  /** Deterministic: `${line}:${code_ledes}:${champ}`, so a re-run upserts the same ids. */
  readonly _id: string;
  readonly code_ledes: string;
  /** ISO timestamp of the check, from the caller's clock. */
  readonly created: string;
  readonly libelle_en: string;
  readonly libelle_fr: string;
  readonly champ: string;
  /** The values that decided the finding, when one did (see `FindingValues`). */
  readonly found?: string;
  readonly expected?: string;
  readonly difference?: string;
  readonly over?: string;
  readonly reference?: string;
}

export interface LedesLine {
  /** 0-based data-line index (the UI shows line + 1), or 'file' / 'header'. */
  readonly line: LineRef;
  readonly items: readonly LedesItem[];
}

export interface LedesFileResult {
  readonly filename: string;
  /** Data lines without any error (they may carry warnings); items is empty. */
  readonly format_ok: readonly LedesLine[];
  readonly errors: readonly LedesLine[];
  readonly warnings: readonly LedesLine[];
}

const NO_ITEMS: readonly LedesItem[] = Object.freeze([]);

function rank(line: LineRef): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}

function toItem(f: ResolvedFinding, created: string): LedesItem {
  const rule = ruleOf(f.code);
  return {
    _id: `${f.line}:${f.code}:${f.champ}`,
    code_ledes: f.code,
    created,
    libelle_en: rule.en,
    libelle_fr: rule.fr,
    champ: f.champ,
    ...f.values,
  };
}

/**
 * Collects findings during the check and builds the entity at the end. Lines without
 * findings cost nothing until `build`, where they become `format_ok` entries. Public so a
 * caller that stored resolved findings can rebuild the same entity (labels from the catalogue).
 */
export class ResultBuilder {
  private readonly byLine = new Map<LineRef, ResolvedFinding[]>();
  private dataLines = 0;

  addLine(): void {
    this.dataLines++;
  }

  add(f: ResolvedFinding): void {
    const list = this.byLine.get(f.line);
    if (list) list.push(f);
    else this.byLine.set(f.line, [f]);
  }

  build(filename: string, created: string): LedesFileResult {
    const errors: LedesLine[] = [];
    const warnings: LedesLine[] = [];
    const lines = [...this.byLine.keys()].sort((a, b) => rank(a) - rank(b));
    const refused = new Set<LineRef>();
    for (const line of lines) {
      const seen = new Set<string>();
      const errs: LedesItem[] = [];
      const warns: LedesItem[] = [];
      for (const f of this.byLine.get(line)!) {
        const item = toItem(f, created);
        if (seen.has(item._id)) continue;
        seen.add(item._id);
        (f.severity === 'error' ? errs : warns).push(item);
      }
      if (errs.length > 0) {
        errors.push({ line, items: errs });
        refused.add(line);
      }
      if (warns.length > 0) warnings.push({ line, items: warns });
    }
    const format_ok: LedesLine[] = [];
    for (let line = 0; line < this.dataLines; line++) {
      if (!refused.has(line)) format_ok.push({ line, items: NO_ITEMS });
    }
    return { filename, format_ok, errors, warnings };
  }
}
