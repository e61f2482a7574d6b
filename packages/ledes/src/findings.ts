import type { LedesProfile } from './profiles.ts';
import { ruleOf, type RuleCode, type Severity } from './rules/catalogue.ts';

/**
 * Where a finding sits. A number is the 0-based data-line index (0 = first record after
 * the header line); 'file' is the file as a whole or its format token, 'header' its header record.
 */
export type LineRef = number | 'file' | 'header';

/**
 * The values that decided a finding, as text (amounts exactly as computed, codes and tokens as found):
 * what the file holds, what was expected, and for amounts the difference (found − expected).
 */
export interface FindingValues {
  readonly found?: string;
  readonly expected?: string;
  readonly difference?: string;
  /** Client guidelines: the total over the cap (difference × units). */
  readonly over?: string;
  /** Client guidelines: the rule's reference in the client's set ("§4.2"). */
  readonly reference?: string;
}

export interface Finding {
  readonly line: LineRef;
  readonly code: RuleCode;
  /** The actual field concerned (e.g. INVOICE_TOTAL), or the catalogue's pseudo-field. */
  readonly champ: string;
  /** Only for E/W rules whose instance takes the rule's alternate severity. */
  readonly severity?: Severity;
  /** Only where a value decides (totals, counts, lengths, unknown codes and tokens). */
  readonly values?: FindingValues;
}

/** Longest value a finding quotes; a longer one is cut (with …): a finding explains, it does not copy the file. */
export const QUOTED_VALUE_MAX = 80;

export function quoted(value: string): string {
  return value.length > QUOTED_VALUE_MAX ? `${value.slice(0, QUOTED_VALUE_MAX - 1)}…` : value;
}

export interface ResolvedFinding extends Finding {
  readonly severity: Severity;
}

/** Profile override > the instance's severity > the catalogue default. */
export function resolveSeverity(f: Finding, profile: LedesProfile): Severity {
  return profile.severityOverrides[f.code] ?? f.severity ?? ruleOf(f.code).severity;
}
