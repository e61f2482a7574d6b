export { checkLedes, DEFAULT_MAX_LINE_BYTES } from './check.ts';
export type { CheckOptions, CheckOutcome, LedesSummary, LineSink } from './check.ts';
export type { Finding, FindingValues, LineRef, ResolvedFinding } from './findings.ts';
export type { LedesFileResult, LedesItem, LedesLine } from './result.ts';
// The workers rebuild a stored run's entity from its findings with the engine's own builder.
export { ResultBuilder } from './result.ts';
export { RULES, RULE_BY_CODE, ruleOf } from './rules/catalogue.ts';
export type { RuleCode, RuleDefinition, Severity } from './rules/catalogue.ts';
export type { AcceptedInvoiceBatchLookup, AcceptedInvoiceLookup } from './rules/consistency.ts';
export { DEFAULT_OFFICES, DEFAULT_PROFILES, defaultProfile, INVOICE_TYPES } from './profiles.ts';
export type { InvoiceType, LedesOffice, LedesProfile } from './profiles.ts';
export { CODE_SETS, ISO_4217, TIMEKEEPER_CLASSIFICATIONS_2014, TIMEKEEPER_CLASSIFICATIONS_LEGACY } from './codesets.ts';
export type { CodeSet, CodeSetId } from './codesets.ts';
export { PIPE_FORMATS } from './formats/pipe.ts';
export type { FormatId, PipeFormat } from './formats/pipe.ts';
export type { ByteSource, Encoding } from './stream/lines.ts';
export { lineKey, unitsKey, versionInForce } from './guidelines.ts';
export type {
  GuidelineHistoryAnswer,
  GuidelineHistoryLookup,
  GuidelineIndex,
  GuidelineOptions,
  GuidelineProbes,
  GuidelineRule,
  GuidelineRuleKind,
  GuidelineVersion,
} from './guidelines.ts';
export { countTasks, daysBetween, recheckHistory } from './rules/client-guidelines.ts';
