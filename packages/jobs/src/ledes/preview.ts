import { and, desc, eq } from 'drizzle-orm';
import { ledesProfiles, ledesRuns, type Executor } from '@portal/db';
import type { GuidelineRule, LedesProfile, ResolvedFinding } from '@portal/ledes';
import type { Storage } from '@portal/storage';
import { runEngineInThread, type LedesEngine } from './engine.ts';
import { guidelineHistoryLookup } from './guidelines.ts';

export interface GuidelinePreviewRun {
  readonly runId: string;
  readonly filename: string;
  readonly created: Date;
  readonly acceptedThen: boolean | null;
  readonly errors: number;
  readonly warnings: number;
  /** The guideline findings (GDL-1xx) in the engine's order, at most `maxFindings`. */
  readonly findings: readonly ResolvedFinding[];
}

/**
 * How long a preview may keep the engine: the files are checked newest first until this budget is spent; a file
 * still being read then is stopped and left out with the older ones (`unchecked`). A request never holds the
 * engine thread (shared with the embedded portal's checks) for more than this, whatever the files' sizes.
 */
export const GUIDELINE_PREVIEW_BUDGET_MS = 10_000;

export interface GuidelinePreview {
  readonly runs: GuidelinePreviewRun[];
  /** Files of the `last` asked for that the budget left unchecked (the oldest ones). */
  readonly unchecked: number;
}

class BudgetSpent extends Error {}

/** A version under edit: in force for every invoice, whatever its billing period. */
const PREVIEW_VERSION = { id: '00000000-0000-0000-0000-000000000000', version: 0, effective_from: '00000000' } as const;

const isGuideline = (f: ResolvedFinding) => f.code.startsWith('GDL-1');

/**
 * "What would this version have refused?" (issue 31 §1): the client's last `last` checked files go through the engine
 * again with the rules as edited, each with the firm's history as it stood when the file was uploaded. Nothing is
 * written; only the guideline findings are kept. The files are read from storage one after the other, within
 * `budgetMs` (GUIDELINE_PREVIEW_BUDGET_MS): what the budget leaves is counted, not checked.
 */
export async function previewGuidelines(
  deps: { db: Executor; storage: Storage; engine?: LedesEngine; now?: () => number },
  idClient: string,
  rules: readonly GuidelineRule[],
  last: number,
  maxFindings: number,
  budgetMs: number = GUIDELINE_PREVIEW_BUDGET_MS,
): Promise<GuidelinePreview> {
  const now = deps.now ?? (() => performance.now());
  const deadline = now() + budgetMs;
  const runs = await deps.db
    .select()
    .from(ledesRuns)
    .where(and(eq(ledesRuns.idClient, idClient), eq(ledesRuns.state, 'Done')))
    .orderBy(desc(ledesRuns.createdAt), desc(ledesRuns.id))
    .limit(last);
  const profiles = new Map<string, LedesProfile>();
  const out: GuidelinePreviewRun[] = [];
  for (const [index, run] of runs.entries()) {
    if (now() >= deadline) return { runs: out, unchecked: runs.length - index };
    const profileKey = `${run.office}/${run.type}`;
    let profile = profiles.get(profileKey);
    if (!profile) {
      const [row] = await deps.db.select({ profile: ledesProfiles.profile }).from(ledesProfiles).where(and(eq(ledesProfiles.office, run.office), eq(ledesProfiles.type, run.type)));
      if (!row) continue;
      profile = row.profile as unknown as LedesProfile;
      profiles.set(profileKey, profile);
    }
    const findings: ResolvedFinding[] = [];
    let errors = 0;
    let warnings = 0;
    const stored = await deps.storage.get(run.originalKey);
    // The budget is looked at between chunks: a file past it stops there, and is left out.
    async function* source() {
      for await (const chunk of stored as AsyncIterable<Uint8Array>) {
        if (now() >= deadline) throw new BudgetSpent();
        yield chunk;
      }
    }
    try {
    await (deps.engine ?? runEngineInThread)(source(), {
      filename: run.originalName,
      profile,
      now: run.startedAt ?? run.createdAt,
      guidelines: { versions: [{ ...PREVIEW_VERSION, rules }], history: guidelineHistoryLookup(deps.db, run.id, run.createdAt) },
      onFindings: (batch) => {
        for (const f of batch) {
          if (!isGuideline(f)) continue;
          if (f.severity === 'error') errors++;
          else warnings++;
          if (findings.length < maxFindings) findings.push(f);
        }
      },
    });
    } catch (error) {
      if (!(error instanceof BudgetSpent)) throw error;
      const stream = stored as { destroy?: () => void };
      stream.destroy?.();
      return { runs: out, unchecked: runs.length - index };
    }
    findings.sort((a, b) => lineRank(a.line) - lineRank(b.line));
    out.push({ runId: run.id, filename: run.originalName, created: run.createdAt, acceptedThen: run.accepted, errors, warnings, findings });
  }
  return { runs: out, unchecked: 0 };
}

function lineRank(line: ResolvedFinding['line']): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}
