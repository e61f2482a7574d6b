/** Bounds applied before and while parsing an uploaded workbook (reliability-security.md §2.2 thresholds). */
export interface SpreadsheetLimits {
  /** Upload size. */
  readonly maxBytes: number;
  /** Zip entries, read from the central directory before inflating anything. */
  readonly maxEntries: number;
  /** Sum of inflated bytes over all entries. */
  readonly maxInflatedBytes: number;
  /** Inflated bytes of one entry. */
  readonly maxEntryBytes: number;
  /** Inflated size of xl/sharedStrings.xml, which the streaming reader caches whole. */
  readonly maxSharedStringsBytes: number;
  /** Data rows over all sheets. */
  readonly maxRows: number;
  readonly maxColumns: number;
  /** Merged ranges, and cells covered by them, per workbook. */
  readonly maxMergedRanges: number;
  readonly maxMergedCells: number;
}

export const DEFAULT_LIMITS: SpreadsheetLimits = {
  maxBytes: 25 * 1024 * 1024,
  maxEntries: 1_000,
  maxInflatedBytes: 200 * 1024 * 1024,
  maxEntryBytes: 100 * 1024 * 1024,
  maxSharedStringsBytes: 64 * 1024 * 1024,
  maxRows: 200_000,
  maxColumns: 200,
  maxMergedRanges: 1_000,
  maxMergedCells: 100_000,
};
