import type { LedesProfile } from './profiles.ts';
import { ruleOf, type RuleCode, type Severity } from './rules/catalogue.ts';

/**
 * Where a finding sits. A number is the 0-based data-line index (0 = first record after
 * the header line); 'file' is the file as a whole or its format token, 'header' its header record.
 */
export type LineRef = number | 'file' | 'header';

export interface Finding {
  readonly line: LineRef;
  readonly code: RuleCode;
  /** The actual field concerned (e.g. INVOICE_TOTAL), or the catalogue's pseudo-field. */
  readonly champ: string;
  /** Only for E/W rules whose instance takes the rule's alternate severity. */
  readonly severity?: Severity;
}

export interface ResolvedFinding extends Finding {
  readonly severity: Severity;
}

/** Profile override > the instance's severity > the catalogue default. */
export function resolveSeverity(f: Finding, profile: LedesProfile): Severity {
  return profile.severityOverrides[f.code] ?? f.severity ?? ruleOf(f.code).severity;
}
