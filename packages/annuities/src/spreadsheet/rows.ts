import type { Day } from '../calendar.ts';
import { fail, ok, type ReasonCode, type Result } from '../reasons.ts';
import { cellDate, cellInteger, cellText, matchColumns, type CellValue, type ColumnMap, type Field } from './columns.ts';

/** One data row, typed. Built from fixed keys only: nothing read from the file becomes a property name (UP-13). */
export interface SheetRow {
  readonly sheet: string;
  /** 1-based row number in the sheet, for messages. */
  readonly rowNumber: number;
  /** The row's cells in header order, as read, for the export. */
  readonly cells: readonly CellValue[];
  readonly publication: string | null;
  readonly application: string | null;
  readonly reference: string | null;
  readonly title: string | null;
  readonly country: string | null;
  readonly payer: string | null;
  readonly comment: string | null;
  readonly origin: string | null;
  readonly filingDate: Day | null;
  readonly grantDate: Day | null;
  readonly lastPaid: number | null;
  /** Cells present but unreadable (a date that is not a date, a last-paid that is not 0-20). */
  readonly issues: readonly ReasonCode[];
}

export interface SheetInfo {
  readonly name: string;
  readonly headers: readonly string[];
  readonly columns: ColumnMap;
}

export interface RowVisitor {
  /** Called once before the first sheet with the rows the inspection expects (progress totals). */
  expected?(rows: number): void | Promise<void>;
  sheet(info: SheetInfo): void | Promise<void>;
  row(row: SheetRow): void | Promise<void>;
}

export interface ReadStats {
  readonly format: 'xlsx' | 'xls';
  readonly sheets: number;
  readonly rows: number;
  readonly skippedSheets: readonly string[];
}

/** Rows above the header that are tolerated (titles, blank lines). */
const HEADER_SEARCH_ROWS = 10;

/**
 * Turns raw rows of one sheet into typed rows: finds the header row, then types each data row.
 * Shared by the xlsx and xls readers.
 */
export class SheetAssembler {
  private info: SheetInfo | null = null;
  private seen = 0;

  constructor(
    readonly name: string,
    private readonly date1904: boolean,
  ) {}

  get headerFound(): boolean {
    return this.info !== null;
  }

  /** Returns the typed row, the sheet info when this row was the header, or null for a skipped row. */
  accept(rowNumber: number, cells: readonly CellValue[]): { sheet: SheetInfo } | { row: SheetRow } | null | 'no_header' {
    if (this.info === null) {
      this.seen++;
      const headers = cells.map((c) => cellText(c) ?? '');
      const columns = matchColumns(headers);
      if (columns !== null) {
        this.info = { name: this.name, headers, columns };
        return { sheet: this.info };
      }
      return this.seen >= HEADER_SEARCH_ROWS ? 'no_header' : null;
    }
    if (cells.every((c) => c === null || cellText(c) === null)) return null;
    return { row: this.typeRow(rowNumber, cells, this.info.columns) };
  }

  private typeRow(rowNumber: number, cells: readonly CellValue[], columns: ColumnMap): SheetRow {
    const issues: ReasonCode[] = [];
    const lastPaidCell = cellOf(cells, columns, 'lastPaid');
    let lastPaid = lastPaidCell === null ? null : cellInteger(lastPaidCell);
    if (lastPaidCell !== null && cellText(lastPaidCell) !== null && (lastPaid === null || lastPaid < 0 || lastPaid > 20)) {
      issues.push('invalid_last_paid');
      lastPaid = null;
    }
    return {
      sheet: this.name,
      rowNumber,
      cells,
      publication: textOf(cells, columns, 'publication'),
      application: textOf(cells, columns, 'application'),
      reference: textOf(cells, columns, 'reference'),
      title: textOf(cells, columns, 'title'),
      country: textOf(cells, columns, 'country'),
      payer: textOf(cells, columns, 'payer'),
      comment: textOf(cells, columns, 'comment'),
      origin: textOf(cells, columns, 'origin'),
      filingDate: this.dateOf(cells, columns, 'filingDate', issues),
      grantDate: this.dateOf(cells, columns, 'grantDate', issues),
      lastPaid,
      issues,
    };
  }

  /** The row's date of `field`: null when blank, null with `invalid_date` in `issues` when it is no date. */
  private dateOf(cells: readonly CellValue[], columns: ColumnMap, field: Field, issues: ReasonCode[]): Day | null {
    const value = cellOf(cells, columns, field);
    if (value === null || cellText(value) === null) return null;
    const day = cellDate(value, this.date1904);
    if (day === null) issues.push('invalid_date');
    return day;
  }
}

/*
 * A row's cells by field, as functions of the module rather than closures of each row: the built server keeps
 * function names (esbuild's keepNames), which costs a call and a property definition per closure made, three per row
 * of a 100,000-row workbook (issue 28).
 */
function cellOf(cells: readonly CellValue[], columns: ColumnMap, field: Field): CellValue {
  const index = columns.get(field);
  return index === undefined ? null : (cells[index] ?? null);
}

function textOf(cells: readonly CellValue[], columns: ColumnMap, field: Field): string | null {
  return cellText(cellOf(cells, columns, field));
}

export type AssemblerOutcome = ReturnType<SheetAssembler['accept']>;

/**
 * The workbook-level bookkeeping both readers share: hands assembled rows to the visitor, counts
 * sheets and rows, enforces the row cap, remembers sheets without a header, and builds the stats.
 */
export class WorkbookFeed {
  private sheets = 0;
  private rows = 0;
  private readonly skipped: string[] = [];

  constructor(
    private readonly visitor: RowVisitor,
    private readonly maxRows: number,
  ) {}

  /** 'skip_sheet' when the sheet has no header; a failure once past the row cap. */
  async dispatch(outcome: AssemblerOutcome): Promise<'next' | 'skip_sheet' | Result<never>> {
    if (outcome === null) return 'next';
    if (outcome === 'no_header') return 'skip_sheet';
    if ('sheet' in outcome) {
      this.sheets++;
      await this.visitor.sheet(outcome.sheet);
      return 'next';
    }
    this.rows++;
    if (this.rows > this.maxRows) return fail('too_many_rows', `more than ${this.maxRows} rows`);
    await this.visitor.row(outcome.row);
    return 'next';
  }

  endSheet(assembler: SheetAssembler): void {
    if (!assembler.headerFound) this.skipped.push(assembler.name);
  }

  get sheetCount(): number {
    return this.sheets;
  }

  finish(format: ReadStats['format']): Result<ReadStats> {
    if (this.sheets === 0) return fail('headers_not_found');
    return ok({ format, sheets: this.sheets, rows: this.rows, skippedSheets: this.skipped });
  }
}
