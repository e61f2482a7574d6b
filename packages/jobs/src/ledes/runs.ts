import { and, eq, inArray } from 'drizzle-orm';
import type { LedesRunDto } from '@portal/contracts';
import { ledesFindings, ledesRuns, type Executor } from '@portal/db';
import { ResultBuilder, type LedesFileResult, type LineRef, type ResolvedFinding, type RuleCode } from '@portal/ledes';

export type LedesRunRow = typeof ledesRuns.$inferSelect;

/** Lines -2 and -1 in the database are the engine's 'file' and 'header'. */
export function lineToDb(line: LineRef): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}
export function lineFromDb(line: number): LineRef {
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
    error_code: run.errorCode,
  };
}

/** The result entity beyond which `format_ok` is not spelled out line by line. */
export const FORMAT_OK_LIMIT = 10_000;

/**
 * Rebuilds the spec's result entity from the stored findings, with the engine's own builder and
 * catalogue (labels are never stored). `format_ok` is capped: a million-line file stays readable.
 */
export async function loadResult(db: Executor, run: LedesRunRow): Promise<LedesFileResult & { format_ok_total: number }> {
  const rows = await db.select().from(ledesFindings).where(eq(ledesFindings.runId, run.id));
  const builder = new ResultBuilder();
  const shown = Math.min(run.linesChecked, FORMAT_OK_LIMIT);
  for (let i = 0; i < shown; i++) builder.addLine();
  const refused = new Set<number>();
  for (const row of rows) {
    builder.add({ line: lineFromDb(row.line), code: row.code as RuleCode, champ: row.champ, severity: row.severity } satisfies ResolvedFinding);
    if (row.severity === 'error' && row.line >= 0) refused.add(row.line);
  }
  const created = (run.finishedAt ?? run.createdAt).toISOString();
  const result = builder.build(run.originalName, created);
  return { ...result, format_ok_total: Math.max(0, run.linesChecked - refused.size) };
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
