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

/** A version under edit: in force for every invoice, whatever its billing period. */
const PREVIEW_VERSION = { id: '00000000-0000-0000-0000-000000000000', version: 0, effective_from: '00000000' } as const;

const isGuideline = (f: ResolvedFinding) => f.code.startsWith('GDL-1');

/**
 * "What would this version have refused?" (issue 31 §1): the client's last `last` checked files go through the engine
 * again with the rules as edited, each with the firm's history as it stood when the file was uploaded. Nothing is
 * written; only the guideline findings are kept. The files are read from storage one after the other.
 */
export async function previewGuidelines(
  deps: { db: Executor; storage: Storage; engine?: LedesEngine },
  idClient: string,
  rules: readonly GuidelineRule[],
  last: number,
  maxFindings: number,
): Promise<GuidelinePreviewRun[]> {
  const runs = await deps.db
    .select()
    .from(ledesRuns)
    .where(and(eq(ledesRuns.idClient, idClient), eq(ledesRuns.state, 'Done')))
    .orderBy(desc(ledesRuns.createdAt), desc(ledesRuns.id))
    .limit(last);
  const profiles = new Map<string, LedesProfile>();
  const out: GuidelinePreviewRun[] = [];
  for (const run of runs) {
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
    await (deps.engine ?? runEngineInThread)(stored as AsyncIterable<Uint8Array>, {
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
    findings.sort((a, b) => lineRank(a.line) - lineRank(b.line));
    out.push({ runId: run.id, filename: run.originalName, created: run.createdAt, acceptedThen: run.accepted, errors, warnings, findings });
  }
  return out;
}

function lineRank(line: ResolvedFinding['line']): number {
  return line === 'file' ? -2 : line === 'header' ? -1 : line;
}
