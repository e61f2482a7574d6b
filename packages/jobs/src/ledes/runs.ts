import { and, asc, count, eq, gte, inArray } from 'drizzle-orm';
import { FIRST_RESULT_LINE, type LedesRunDto } from '@portal/contracts';
import { ledesFindings, ledesRuns, type Executor } from '@portal/db';
import { ResultBuilder, type FindingValues, type LedesFileResult, type LineRef, type ResolvedFinding, type RuleCode } from '@portal/ledes';

export type LedesRunRow = typeof ledesRuns.$inferSelect;

/** A stored finding's values, without the ones it has not. */
function valuesOf(row: { found: string | null; expected: string | null; difference: string | null; over: string | null; reference: string | null }): FindingValues {
  return {
    ...(row.found === null ? {} : { found: row.found }),
    ...(row.expected === null ? {} : { expected: row.expected }),
    ...(row.difference === null ? {} : { difference: row.difference }),
    ...(row.over === null ? {} : { over: row.over }),
    ...(row.reference === null ? {} : { reference: row.reference }),
  };
}

/** Lines -2 and -1 in the database are the engine's 'file' and 'header'. */
export function lineToDb(line: LineRef): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}
function lineFromDb(line: number): LineRef {
  return line === -2 ? 'file' : line === -1 ? 'header' : line;
}

export function toRunDto(run: LedesRunRow): LedesRunDto {
  return {
    _id: run.id,
    name: run.name,
    filename: run.originalName,
    state: run.state,
    accepted: run.accepted,
    lines_checked: run.linesChecked,
    office: run.office,
    type: run.type,
    owner_id: run.ownerId,
    created: run.createdAt.toISOString(),
    finished: run.finishedAt?.toISOString() ?? null,
    delivered: run.deliveredAt !== null,
    treated: run.treatedKey !== null,
    error_code: run.errorCode,
    ...(run.guidelineVersions.length > 0
      ? { guidelines: run.guidelineVersions.map((v) => ({ id: v.id, version: v.version, effective_from: `${v.effective_from.slice(0, 4)}-${v.effective_from.slice(4, 6)}-${v.effective_from.slice(6, 8)}` })) }
      : {}),
  };
}

/** The result entity beyond which `format_ok` is not spelled out line by line. */
export const FORMAT_OK_LIMIT = 10_000;
/** Finding rows one result page reads at most; a page always ends on a whole line. */
export const RESULT_PAGE_FINDINGS = 50_000;

/** The whole run's counts, the same on every page. */
export interface ResultTotals {
  errors: number;
  warnings: number;
  refused_lines: number;
}

/** Where a result page starts, and where the next one does (null: this page ends the file). */
export interface ResultPage {
  from_line: number;
  next_line: number | null;
}

/**
 * Rebuilds one page of the spec's result entity from the stored findings, with the engine's own
 * builder and catalogue (labels are never stored): the findings of the lines from `fromLine` on,
 * at most RESULT_PAGE_FINDINGS rows, cut at a line boundary; `format_ok` spells out at most
 * FORMAT_OK_LIMIT of the page's lines. A million-line file stays readable, page after page.
 */
export async function loadResult(
  db: Executor,
  run: LedesRunRow,
  fromLine = FIRST_RESULT_LINE,
  pageFindings = RESULT_PAGE_FINDINGS,
): Promise<LedesFileResult & { format_ok_total: number; page: ResultPage; totals: ResultTotals }> {
  const rows = await db
    .select()
    .from(ledesFindings)
    .where(and(eq(ledesFindings.runId, run.id), gte(ledesFindings.line, fromLine)))
    .orderBy(asc(ledesFindings.line), asc(ledesFindings.code), asc(ledesFindings.champ))
    .limit(pageFindings + 1);
  let shown = rows;
  let nextLine: number | null = null;
  if (rows.length > pageFindings) {
    nextLine = rows[pageFindings]!.line;
    shown = rows.filter((r) => r.line < nextLine!);
    // A single line with more findings than a page (not seen in practice) still moves the pages on.
    if (shown.length === 0) [shown, nextLine] = [rows.slice(0, pageFindings), nextLine + 1];
  }
  // The page holds the whole run: count its rows. Otherwise count the run's error findings (its
  // warnings and refused lines are on the run row, written when it finished).
  const whole = fromLine <= FIRST_RESULT_LINE && nextLine === null;
  const errors = whole
    ? shown.filter((r) => r.severity === 'error').length
    : ((await db.select({ n: count() }).from(ledesFindings).where(and(eq(ledesFindings.runId, run.id), eq(ledesFindings.severity, 'error'))))[0]?.n ?? 0);
  const totals: ResultTotals = { errors, warnings: run.warningCount, refused_lines: run.refusedLineCount };
  const builder = new ResultBuilder();
  const refused = new Set<number>();
  for (const row of shown) {
    const values = row.found === null && row.expected === null && row.difference === null && row.reference === null ? undefined : valuesOf(row);
    builder.add({ line: lineFromDb(row.line), code: row.code as RuleCode, champ: row.champ, severity: row.severity, ...(values ? { values } : {}) } satisfies ResolvedFinding);
    if (row.severity === 'error' && row.line >= 0) refused.add(row.line);
  }
  const created = (run.finishedAt ?? run.createdAt).toISOString();
  const result = builder.build(run.originalName, created);
  // Only lines whose findings this page holds in full can be called correct.
  const first = Math.max(0, fromLine);
  const end = Math.min(run.linesChecked, first + FORMAT_OK_LIMIT, nextLine ?? Number.POSITIVE_INFINITY);
  const format_ok: Array<LedesFileResult['format_ok'][number]> = [];
  for (let line = first; line < end; line++) if (!refused.has(line)) format_ok.push({ line, items: [] });
  return {
    ...result,
    format_ok,
    format_ok_total: Math.max(0, run.linesChecked - run.refusedLineCount),
    page: { from_line: fromLine, next_line: nextLine },
    totals,
  };
}

export async function loadRuns(db: Executor, ids: string[]): Promise<LedesRunRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(ledesRuns).where(inArray(ledesRuns.id, ids));
}

export async function loadRun(db: Executor, id: string, ownerId?: string): Promise<LedesRunRow | undefined> {
  const [run] = await db
    .select()
    .from(ledesRuns)
    .where(ownerId ? and(eq(ledesRuns.id, id), eq(ledesRuns.ownerId, ownerId)) : eq(ledesRuns.id, id));
  return run;
}
