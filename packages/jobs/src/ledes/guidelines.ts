import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { ledesGuidelines, type Database, type Executor } from '@portal/db';
import { rowsOf } from '../patents/rows.ts';
import { recheckHistory, type Finding, type GuidelineHistoryLookup, type GuidelineIndex, type GuidelineProbes, type GuidelineRule, type GuidelineVersion } from '@portal/ledes';

/** Keys per history query (each a probe of `ledes_guideline_index_key_idx`). */
export const GUIDELINE_LOOKUP_BATCH = 1000;
/** Rows per index insert: three array parameters each, whatever the batch. */
const INDEX_INSERT_BATCH = 5000;

type GuidelineRow = typeof ledesGuidelines.$inferSelect;

/** '2025-01-31' → '20250131' (the engine's dates are LEDES's). */
export function toLedesDay(isoDay: string): string {
  return isoDay.replaceAll('-', '');
}

export function toVersion(row: GuidelineRow): GuidelineVersion {
  return { id: row.id, version: row.version, effective_from: toLedesDay(row.effectiveFrom), rules: row.rules as unknown as GuidelineRule[] };
}

/** Every version of a client's set, oldest first; none for a run without a client. */
export async function loadGuidelineVersions(db: Executor, idClient: string | null): Promise<GuidelineVersion[]> {
  if (!idClient) return [];
  const rows = await db.select().from(ledesGuidelines).where(eq(ledesGuidelines.idClient, idClient)).orderBy(asc(ledesGuidelines.effectiveFrom), asc(ledesGuidelines.version));
  return rows.map(toVersion);
}

/**
 * The firms' history for a run's check: units already billed per firm, timekeeper and day, and the lines already
 * billed, by the accepted runs other than this one. One query per batch of keys, each key an index probe.
 */
export function guidelineHistoryLookup(db: Executor, runId: string | null, before?: Date): GuidelineHistoryLookup {
  // A preview of a past file counts only what was accepted before it.
  const earlier = before ? sql` and exists (select 1 from ledes_runs r where r.id = i.run_id and r.created_at < ${before.toISOString()}::timestamptz)` : sql``;
  return {
    batchSize: GUIDELINE_LOOKUP_BATCH,
    lookup: (unitKeys, lineKeys) => askHistory(db, runId, earlier, unitKeys, lineKeys),
  };
}

async function askHistory(db: Executor, runId: string | null, earlier: SQL, unitKeys: readonly string[], lineKeys: readonly string[]) {
  const [units, lines] = await Promise.all([
    unitKeys.length === 0
      ? { rows: [] }
      : db.execute(sql`
          select k.key, sum(i.units::numeric)::text as units
          from unnest(${sql.param([...unitKeys])}::text[]) as k(key)
          join ledes_guideline_index i on i.kind = 'u' and i.key_hash = md5(k.key)
          where ${runId === null ? sql`true` : sql`i.run_id <> ${runId}::uuid`}${earlier}
          group by k.key`),
    lineKeys.length === 0
      ? { rows: [] }
      : db.execute(sql`
          select distinct k.key
          from unnest(${sql.param([...lineKeys])}::text[]) as k(key)
          join ledes_guideline_index i on i.kind = 'd' and i.key_hash = md5(k.key)
          where ${runId === null ? sql`true` : sql`i.run_id <> ${runId}::uuid`}${earlier}`),
  ]);
  return {
    units: rowsOf<{ key: string; units: string }>(units).map((r) => [r.key, r.units] as [string, string]),
    lines: rowsOf<{ key: string }>(lines).map((r) => r.key),
  };
}

/** The history lookup of a run's check, with the epoch it asked at (decision 221). */
export interface RunHistoryLookup extends GuidelineHistoryLookup {
  /** The lowest `ledes_guideline_epoch` read while asking; undefined when nothing was asked. */
  readonly epoch: () => string | undefined;
}

/** The transaction lock of a firm's history: exclusive to add to it (at commit), shared to ask it with its epoch. */
const firmLock = (firm: string) => sql`hashtextextended(${`ledes-guidelines\u001f${firm}`}, 0)`;
/** The LAW_FIRM_ID a history key starts with (engine's `unitsKey`/`lineKey`). */
const firmOf = (key: string) => key.slice(0, Math.max(0, key.indexOf('\u001f')));

/** How many commits have added to the history (0 before the first). */
async function currentEpoch(tx: Executor): Promise<string> {
  const [row] = rowsOf<{ epoch: string }>(await tx.execute(sql`select (case when is_called then last_value else 0 end)::text as epoch from ledes_guideline_epoch`));
  return row?.epoch ?? '0';
}

/**
 * A run's history lookup that also notes the epoch (decision 221): each batch asks under its firms' shared locks, so
 * no commit of those firms is half done while it asks, and reads the epoch there. A commit of those firms after the
 * batch takes its next value later: the epoch at this run's commit differs from the lowest noted, and only then is
 * the history asked again (decision 220).
 */
export function runHistoryLookup(db: Database, runId: string): RunHistoryLookup {
  let lowest: bigint | undefined;
  return {
    batchSize: GUIDELINE_LOOKUP_BATCH,
    epoch: () => lowest?.toString(),
    lookup: (unitKeys, lineKeys) =>
      db.transaction(async (tx) => {
        const firms = [...new Set([...unitKeys, ...lineKeys].map(firmOf))].sort();
        for (const firm of firms) await tx.execute(sql`select pg_advisory_xact_lock_shared(${firmLock(firm)})`);
        const epoch = BigInt(await currentEpoch(tx));
        if (lowest === undefined || epoch < lowest) lowest = epoch;
        return askHistory(tx, runId, sql``, unitKeys, lineKeys);
      }),
  };
}

/** Stores what an accepted file adds to its firms' history, in bounded batches of unnest arrays. */
export async function storeGuidelineIndex(tx: Executor, runId: string, index: GuidelineIndex | undefined): Promise<void> {
  if (!index) return;
  if (index.units.length > 0 || index.lines.length > 0) {
    // Under the firms' locks (taken by recheckGuidelineHistory in the same transaction): a check that asked before
    // this commit sees the epoch move (decision 221).
    await tx.execute(sql`select nextval('ledes_guideline_epoch')`);
  }
  const rows: { kind: 'u' | 'd'; key: string; units: string | null }[] = [
    ...index.units.map(([key, units]) => ({ kind: 'u' as const, key, units })),
    ...index.lines.map((key) => ({ kind: 'd' as const, key, units: null })),
  ];
  for (let start = 0; start < rows.length; start += INDEX_INSERT_BATCH) {
    const batch = rows.slice(start, start + INDEX_INSERT_BATCH);
    await tx.execute(sql`
      insert into ledes_guideline_index (run_id, kind, key_hash, units)
      select ${runId}::uuid, k, md5(key), u
      from unnest(${sql.param(batch.map((r) => r.kind))}::text[], ${sql.param(batch.map((r) => r.key))}::text[], ${sql.param(batch.map((r) => r.units))}::text[]) as x(k, key, u)`);
  }
}

/**
 * Decision 220: the cross-invoice guidelines asked the firms' history while the file was checked, but two uploads
 * of one firm checked at the same moment do not see each other (the index is written at Done). In the transaction
 * that moves an accepted run to Done, before its index entries are written, this takes a transaction lock per firm
 * (sorted: two runs never wait on each other in opposite orders) and asks the history again: a run committed since
 * the check is now visible, and the findings the check missed are returned (none when nothing changed). The second
 * of two concurrent runs of a firm therefore sees the first, and the first never sees the second before it.
 */
export async function recheckGuidelineHistory(tx: Executor, runId: string, probes: GuidelineProbes | undefined, askedAt?: string): Promise<Finding[]> {
  if (!probes || probes.firms.length === 0) return [];
  for (const firm of probes.firms) await tx.execute(sql`select pg_advisory_xact_lock(${firmLock(firm)})`);
  if (probes.units.length === 0 && probes.lines.length === 0) return [];
  // Nothing added to any firm's history since the check asked (decision 221): its answer stands.
  if (askedAt !== undefined && (await currentEpoch(tx)) === askedAt) return [];
  const lookup = guidelineHistoryLookup(tx, runId);
  const units: [string, string][] = [];
  const lines: string[] = [];
  const unitKeys = probes.units.map((p) => p.key);
  const lineKeys = probes.lines.map((p) => p.key);
  for (let from = 0; from < Math.max(unitKeys.length, lineKeys.length); from += GUIDELINE_LOOKUP_BATCH) {
    const answer = await lookup.lookup(unitKeys.slice(from, from + GUIDELINE_LOOKUP_BATCH), lineKeys.slice(from, from + GUIDELINE_LOOKUP_BATCH));
    for (const u of answer.units as readonly (readonly [string, string])[]) units.push([u[0], u[1]]);
    for (const k of answer.lines) lines.push(k);
  }
  return recheckHistory(probes, { units, lines });
}
