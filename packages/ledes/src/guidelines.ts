/**
 * A client's billing guidelines (issue 31 §1), as plain data: a set of versions, each in force from its
 * effective date, each a flat list of rules. Every rule carries its severity (chosen per client) and its
 * reference in the client's own document ("§4.2"), which every finding it gives repeats.
 */
import type { Severity } from './rules/catalogue.ts';

interface RuleBase {
  /** The rule's reference in the client's guidelines, e.g. "§4.2"; shown with every finding it gives. */
  readonly ref: string;
  readonly severity: Severity;
}

/** A rate cap for one timekeeper classification, optionally only between two line dates (YYYYMMDD, inclusive). */
export interface MaxRateRule extends RuleBase {
  readonly kind: 'max_rate';
  readonly classification: string;
  readonly max: string;
  readonly from?: string;
  readonly to?: string;
}
/** Units one timekeeper may bill on one day, across every invoice of the same firm (LAW_FIRM_ID). */
export interface MaxUnitsPerDayRule extends RuleBase {
  readonly kind: 'max_units_per_day';
  readonly max: string;
}
/** A fee line whose description names `min_tasks` tasks or more (split on ";") and bills more than `min_units`. */
export interface BlockBillingRule extends RuleBase {
  readonly kind: 'block_billing';
  readonly min_tasks: number;
  readonly min_units: string;
}
/** A task, activity or expense code refused; with `matters`, allowed only on those CLIENT_MATTER_IDs. */
export interface CodeRule extends RuleBase {
  readonly kind: 'code';
  readonly code: string;
  readonly matters?: readonly string[];
}
/** The highest unit cost of an expense code (copies, mileage). */
export interface ExpenseCapRule extends RuleBase {
  readonly kind: 'expense_cap';
  readonly code: string;
  readonly max_unit_cost: string;
}
/** Expenses of this code above `above` (line total; 0 when absent) need a receipt sent with the invoice. */
export interface ReceiptRule extends RuleBase {
  readonly kind: 'receipt';
  readonly code: string;
  readonly above?: string;
}
/** The longest billing period, in days, start and end included. */
export interface BillingPeriodRule extends RuleBase {
  readonly kind: 'max_billing_period';
  readonly max_days: number;
}
/** The latest upload, in days after the end of the billing period. */
export interface UploadDelayRule extends RuleBase {
  readonly kind: 'max_upload_delay';
  readonly max_days: number;
}
/** The same line (timekeeper, date, units, description) billed twice, in this file or an earlier invoice of the firm. */
export interface DuplicateLineRule extends RuleBase {
  readonly kind: 'duplicate_line';
}

export type GuidelineRule =
  | MaxRateRule
  | MaxUnitsPerDayRule
  | BlockBillingRule
  | CodeRule
  | ExpenseCapRule
  | ReceiptRule
  | BillingPeriodRule
  | UploadDelayRule
  | DuplicateLineRule;

export type GuidelineRuleKind = GuidelineRule['kind'];

/** One version of a client's set. */
export interface GuidelineVersion {
  readonly id: string;
  readonly version: number;
  /** YYYYMMDD: in force for invoices whose billing period starts on or after this day (until the next version). */
  readonly effective_from: string;
  readonly rules: readonly GuidelineRule[];
}

/**
 * What earlier accepted invoices of the same firms hold, asked once per batch at the end of the pass (the
 * engine stays I/O-free). Keys are the engine's own (`unitsKey`, `lineKey`).
 */
export interface GuidelineHistoryLookup {
  readonly batchSize?: number;
  readonly lookup: (unitKeys: readonly string[], lineKeys: readonly string[]) => Promise<GuidelineHistoryAnswer> | GuidelineHistoryAnswer;
}

export interface GuidelineHistoryAnswer {
  /** Units key → units already billed (decimal text). */
  readonly units: ReadonlyMap<string, string> | readonly (readonly [string, string])[];
  /** Line keys already billed. */
  readonly lines: Iterable<string>;
}

export interface GuidelineOptions {
  /** Every version of the client's set, in any order; each invoice is checked against the one in force. */
  readonly versions: readonly GuidelineVersion[];
  /**
   * Earlier invoices of the firm. `false`: the cross-invoice findings (units per day, duplicates of earlier
   * invoices) are not made at all (the treated workbook's pass, which takes them from the stored result).
   */
  readonly history?: GuidelineHistoryLookup | false;
}

/** What an accepted file adds to the firm's history: units per timekeeper and day, and its line keys. */
export interface GuidelineIndex {
  readonly units: readonly (readonly [string, string])[];
  readonly lines: readonly string[];
}

/**
 * What a check asked of its firms' history and what it was told, kept for a re-check when the run commits: two
 * uploads of one firm checked at the same moment do not see each other's lines, so the commit (serialised per
 * firm) asks again and `recheckHistory` gives the findings the first answer missed (decision 220).
 */
export interface GuidelineProbes {
  /** The LAW_FIRM_IDs of the file's keys, sorted: the commit locks each firm's history. */
  readonly firms: readonly string[];
  /** Days under a daily cap: the file's own units, the cap, the units already billed at the check. */
  readonly units: readonly { readonly key: string; readonly units: string; readonly max: string; readonly prior: string; readonly line: number; readonly severity: Severity; readonly ref: string }[];
  /** Fee lines under a duplicate rule, and whether the check found them billed already. */
  readonly lines: readonly { readonly key: string; readonly seen: boolean; readonly line: number; readonly severity: Severity; readonly ref: string }[];
}

export function unitsKey(firm: string, timekeeper: string, date: string): string {
  return `${firm}\u001f${timekeeper}\u001f${date}`;
}

export function lineKey(firm: string, timekeeper: string, date: string, units: string, description: string): string {
  return `${firm}\u001f${timekeeper}\u001f${date}\u001f${units}\u001f${description.trim()}`;
}

/** The version in force on `day` (YYYYMMDD): the latest effective on or before it; undefined before the first. */
export function versionInForce(versions: readonly GuidelineVersion[], day: string): GuidelineVersion | undefined {
  let best: GuidelineVersion | undefined;
  for (const v of versions) {
    if (v.effective_from <= day && (!best || v.effective_from > best.effective_from || (v.effective_from === best.effective_from && v.version > best.version))) best = v;
  }
  return best;
}
