import { asc, count, desc, eq, max, sql } from 'drizzle-orm';
import type { GuidelineRuleDto, GuidelineVersionBody, GuidelineVersionDto } from '@portal/contracts';
import { isUniqueViolation, ledesGuidelines } from '@portal/db';
import type { GuidelineRule } from '@portal/ledes';
import { previewGuidelines, sharedThreadEngine, type GuidelinePreview } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';

type Row = typeof ledesGuidelines.$inferSelect;

export function toVersionDto(row: Row): GuidelineVersionDto {
  return {
    id: row.id,
    id_client: row.idClient,
    version: row.version,
    effective_from: row.effectiveFrom,
    rules: row.rules as unknown as GuidelineRuleDto[],
    note: row.note,
    created: row.createdAt.toISOString(),
  };
}

/** The API's ISO days → the engine's YYYYMMDD, rule by rule. */
export function toEngineRules(rules: readonly GuidelineRuleDto[]): GuidelineRule[] {
  return rules.map((r) => (r.kind === 'max_rate' ? { ...r, ...(r.from ? { from: r.from.replaceAll('-', '') } : {}), ...(r.to ? { to: r.to.replaceAll('-', '') } : {}) } : r) as GuidelineRule);
}

/**
 * What the schema cannot say about one rule alone: two rules that would decide the same line differently. Returns
 * the index of the first conflicting rule, or -1.
 */
export function conflictingRule(rules: readonly GuidelineRuleDto[]): number {
  const seen = new Set<string>();
  const rates: { classification: string; from: string; to: string }[] = [];
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    let key: string | undefined;
    switch (r.kind) {
      case 'max_units_per_day':
      case 'block_billing':
      case 'max_billing_period':
      case 'max_upload_delay':
      case 'duplicate_line':
        key = r.kind;
        break;
      case 'code':
        key = `code:${r.code}`;
        break;
      case 'expense_cap':
      case 'receipt':
        key = `${r.kind}:${r.code}`;
        break;
      case 'max_rate': {
        const from = r.from ?? '0000-00-00';
        const to = r.to ?? '9999-99-99';
        if (from > to) return i;
        if (rates.some((o) => o.classification === r.classification && o.from <= to && from <= o.to)) return i;
        rates.push({ classification: r.classification, from, to });
        break;
      }
    }
    if (key !== undefined) {
      if (seen.has(key)) return i;
      seen.add(key);
    }
  }
  return -1;
}

export async function listClients(ctx: AppContext) {
  const rows = await ctx.db
    .select({ idClient: ledesGuidelines.idClient, versions: count(), latest: max(ledesGuidelines.effectiveFrom) })
    .from(ledesGuidelines)
    .groupBy(ledesGuidelines.idClient)
    .orderBy(asc(ledesGuidelines.idClient));
  return rows.map((r) => ({ id_client: r.idClient, versions: r.versions, latest_effective_from: r.latest! }));
}

/** A client's versions, newest first (the history the screen shows). */
export async function listVersions(ctx: AppContext, idClient: string): Promise<GuidelineVersionDto[]> {
  const rows = await ctx.db.select().from(ledesGuidelines).where(eq(ledesGuidelines.idClient, idClient)).orderBy(desc(ledesGuidelines.version));
  return rows.map(toVersionDto);
}

/** A new version (versions are never edited: a run names the one it was checked against). */
export async function createVersion(ctx: AppContext, idClient: string, body: GuidelineVersionBody, createdBy: string): Promise<GuidelineVersionDto> {
  if (conflictingRule(body.rules) >= 0) throw new AppError('guideline_rules_conflict');
  return ctx.db.transaction(async (tx) => {
    // Versions of one client are numbered one after the other: concurrent saves queue on the client's lock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ledes-guidelines:${idClient}`}))`);
    const [taken] = await tx
      .select({ id: ledesGuidelines.id })
      .from(ledesGuidelines)
      .where(sql`${ledesGuidelines.idClient} = ${idClient} and ${ledesGuidelines.effectiveFrom} = ${body.effective_from}::date`);
    if (taken) throw new AppError('guideline_date_taken');
    const [last] = await tx.select({ v: max(ledesGuidelines.version) }).from(ledesGuidelines).where(eq(ledesGuidelines.idClient, idClient));
    try {
      const [row] = await tx
        .insert(ledesGuidelines)
        .values({ idClient, version: (last?.v ?? 0) + 1, effectiveFrom: body.effective_from, rules: body.rules, note: body.note ?? null, createdBy })
        .returning();
      return toVersionDto(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('guideline_date_taken');
      throw error;
    }
  });
}

export async function preview(ctx: AppContext, idClient: string, rules: readonly GuidelineRuleDto[], last: number, maxFindings: number): Promise<GuidelinePreview> {
  if (conflictingRule(rules) >= 0) throw new AppError('guideline_rules_conflict');
  // The engine in its worker thread: a preview of large files never blocks the API's event loop; the files are
  // checked within a time budget (GUIDELINE_PREVIEW_BUDGET_MS), the rest counted as unchecked.
  return previewGuidelines({ db: ctx.db, storage: ctx.storage, engine: sharedThreadEngine() }, idClient, toEngineRules(rules), last, maxFindings);
}
