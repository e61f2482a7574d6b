import { PassThrough } from 'node:stream';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';

import { afterBulkWrite, driverOf, ledesFindings, ledesGuidelineIndex, ledesInvoices, ledesProfiles, ledesRuns, users, type Database, type Executor } from '@portal/db';
import type { FindingValues, LedesProfile, ResolvedFinding, RuleCode } from '@portal/ledes';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import { runEngineInThread, type LedesEngine } from '../ledes/engine.ts';
import { nextTask } from '../next-task.ts';
import { lineToDb, loadRun, toRunDto, type LedesRunRow } from '../ledes/runs.ts';
import { insertFindings, storeFindingsSummary } from '../ledes/findings.ts';
import { acceptedInvoiceLookup, storeAcceptedInvoices } from '../ledes/invoices.ts';
import type { SpendSummary } from '../ledes/spend.ts';
import { storeSpend } from '../ledes/spend-store.ts';
import { recordLedesNotice } from '../ledes/notifications.ts';
import { loadGuidelineVersions, recheckGuidelineHistory, runHistoryLookup, storeGuidelineIndex } from '../ledes/guidelines.ts';
import { enqueueCommittedMails } from '../mails.ts';
import { ledesRunKind, publishRun } from '../kinds/ledes.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

export { publishRun } from '../kinds/ledes.ts';

export interface CheckLedesDeps {
  db: Database;
  storage: Storage;
  realtime: RealtimePublisher;
  logger: Logger;
  clock?: { now(): Date };
  /** Where accepted files with send_server go ("step 2"): an outbound prefix in storage by default. */
  outboundPrefix?: string;
  /** Where the engine and the treated workbook run: this thread by default, a worker thread in the embedded mode. */
  engine?: LedesEngine;
  /**
   * Finding rows per insert statement: FINDINGS_BATCH by default. On PGlite a statement runs on the
   * API's own thread and nothing else is answered meanwhile, so the embedded portal writes smaller
   * ones (EMBEDDED_FINDINGS_PER_STATEMENT: ~15 ms each rather than ~50, issue 28).
   */
  findingsPerStatement?: number;
  /** The portal's public address, for the links of the opted-in mails (issue 31 §3); none without it. */
  publicUrl?: string;
  /** Hands a committed mail to the mail queue at once; without it (or when it fails) the mail sweep does. */
  enqueueMail?: (mailId: string) => Promise<void>;
}

const FINDINGS_BATCH = 1000;
/** The embedded portal's statement size (`findingsPerStatement`): a quarter of the rows, a quarter of the time the event loop waits. */
export const EMBEDDED_FINDINGS_PER_STATEMENT = 250;
/** Finding rows written and not yet stored before the file's next chunk is read. */
const MAX_PENDING_ROWS = 4 * FINDINGS_BATCH;
const PROGRESS_INTERVAL_MS = 500;


/**
 * Checks one uploaded LEDES file: streams it from storage through the engine, stores findings as they
 * come, writes the treated workbook, delivers accepted files, then moves the run to Done.
 * Re-running a run (a redelivery after a crash) starts over: its findings are replaced, never doubled.
 * An unreadable file is a refused result with findings, not a failure; only infrastructure faults throw.
 */
export function createCheckLedesProcessor(deps: CheckLedesDeps): Processor<'ledes'> {
  const now = () => deps.clock?.now() ?? new Date();
  return async ({ runId }, job) => {
    const run = await loadRun(deps.db, runId);
    if (!run) throw new UnrecoverableJobError(`ledes run ${runId} does not exist`);
    // Done already (a second execution, or a retry after a failure past the commit): only what the
    // first one left undone after its commit remains, keyed by the run, so nothing happens twice.
    if (run.state !== 'in_progress') {
      const delivered = await deliverOnce(deps, run);
      if (delivered) publishRun(deps.realtime, delivered);
      const treated = await writeTreatedOnce(deps, delivered ?? run, job.signal);
      if (treated) publishRun(deps.realtime, treated);
      return;
    }

    const profile = await profileOf(deps.db, run);
    // The client's billing guidelines, every version: the engine checks each invoice against the one in force.
    const versions = await loadGuidelineVersions(deps.db, run.idClient);
    // The firms' history the cross-invoice rules ask, with the epoch it was asked at (decision 221).
    const history = versions.length > 0 ? runHistoryLookup(deps.db, run.id) : undefined;
    // The check's instant, kept as the run's started_at: the treated workbook's pass (decision 182) checks with the same one.
    const checkedAt = now();

    await deps.db.transaction(async (tx) => {
      await tx.delete(ledesFindings).where(eq(ledesFindings.runId, run.id));
      await tx.delete(ledesInvoices).where(eq(ledesInvoices.runId, run.id));
      await tx.delete(ledesGuidelineIndex).where(eq(ledesGuidelineIndex.runId, run.id));
      await tx.update(ledesRuns).set({ startedAt: checkedAt, attempts: sql`${ledesRuns.attempts} + 1`, linesChecked: 0, updatedAt: now() }).where(eq(ledesRuns.id, run.id));
    });

    // The count of lines checked is kept on the row as it grows, as the other kinds keep theirs: a screen
    // opened (or reloaded) during the run reads it from the API instead of 0 until the next event.
    const progress = persistedProgress(deps, run.id);

    // Findings are written in batches while the file streams, so memory stays flat on huge files.
    let batch: Array<typeof ledesFindings.$inferInsert> = [];
    let writes = Promise.resolve();
    let pendingRows = 0;
    const perStatement = deps.findingsPerStatement ?? FINDINGS_BATCH;
    let writeError: Error | undefined;
    const flush = () => {
      // One message of the engine may carry many findings (a file's duplicate invoices): they are
      // written `perStatement` rows at a time, each statement from a task of its own. On the embedded
      // portal PGlite runs it on this thread; chained as bare promise callbacks, the statements
      // followed each other inside one task and HTTP and socket.io waited (issue 26).
      for (let from = 0; from < batch.length; from += perStatement) {
        const rows = batch.slice(from, from + perStatement);
        pendingRows += rows.length;
        // The chain is always awaited below, but it may reject while the engine still runs: its
        // failure is kept and rethrown by `settleWrites`, never left as an unhandled rejection.
        writes = writes.then(nextTask).then(async () => {
          if (writeError) return;
          await insertFindings(deps.db, rows);
          pendingRows -= rows.length;
        }).catch((error: unknown) => {
          writeError ??= error instanceof Error ? error : new Error(String(error));
        });
      }
      batch = [];
    };
    const settleWrites = async () => {
      await writes;
      if (writeError) throw writeError;
    };
    const record = (findings: readonly ResolvedFinding[]) => {
      for (const f of findings) {
        if (f.severity !== 'error' && f.severity !== 'warning') continue;
        batch.push({
          runId: run.id,
          line: lineToDb(f.line),
          code: f.code,
          champ: f.champ,
          severity: f.severity,
          found: f.values?.found ?? null,
          expected: f.values?.expected ?? null,
          difference: f.values?.difference ?? null,
          over: f.values?.over ?? null,
          reference: f.values?.reference ?? null,
        });
      }
      if (batch.length >= FINDINGS_BATCH) flush();
    };

    // Everything started here (the findings chain) is awaited on every path, failures included.
    let outcome: Awaited<ReturnType<LedesEngine>>;
    try {
    const stored = await deps.storage.get(run.originalKey);
    // Backpressure: the next chunk is read only once the database has caught up with the findings.
    // A shutdown (`job.signal`) stops the read: the job is handed back and run again from the start.
    async function* source() {
      for await (const chunk of stored as AsyncIterable<Uint8Array>) {
        job.signal.throwIfAborted();
        while (pendingRows > MAX_PENDING_ROWS) await settleWrites();
        yield chunk;
      }
    }
    const engine = deps.engine ?? runEngineInThread;
    outcome = await engine(source(), {
      filename: run.originalName,
      profile,
      now: checkedAt,
      onFindings: record,
      progressIntervalMs: PROGRESS_INTERVAL_MS,
      acceptedInvoices: acceptedInvoiceLookup(deps.db, run),
      ...(history ? { guidelines: { versions, history } } : {}),
      onProgress: (linesChecked) => {
        void job.updateProgress(linesChecked).catch(() => {});
        deps.realtime.toUser(run.ownerId, 'ledes:run', { ...toRunDto(run), lines_checked: linesChecked });
        progress.record(linesChecked);
      },
    });
    flush();
    await settleWrites();
    } catch (error) {
      await Promise.allSettled([writes, progress.settled()]);
      throw error;
    }
    await progress.settled();

    const { summary } = outcome;
    let deliveredKey: string | null = null;
    if (summary.accepted && run.sendServer) {
      // Recorded with the commit below, delivered after it (deliverOnce): a failure before the
      // commit delivers nothing, and only the execution that commits Done delivers.
      deliveredKey = `${deps.outboundPrefix ?? 'outbound/step2'}/${run.originalKey.split('/').slice(2).join('/')}`;
    }

    // The move to Done gates the rest: a second execution of the run (a lock lost during a Redis
    // outage) finds it done and stores nothing twice.
    let notices: string[] = [];
    // The verdict may still turn at commit: a run of the same firm committed since the check (decision 220).
    let accepted = summary.accepted;
    const finished = await deps.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(ledesRuns)
        .set({
          state: 'Done',
          accepted: summary.accepted,
          format: summary.format,
          linesChecked: summary.linesChecked,
          // Set once the workbook is stored, right after (writeTreatedOnce): the download is offered when it exists.
          treatedKey: null,
          deliveredKey,
          deliveredAt: null,
          guidelineVersions: [...(summary.guidelineVersions ?? [])],
          finishedAt: now(),
          updatedAt: now(),
        })
        .where(and(eq(ledesRuns.id, run.id), eq(ledesRuns.state, 'in_progress')))
        .returning();
      if (!updated) return undefined;
      let done = updated;
      // Decision 220: the firms' history asked again under a per-firm lock, before this run's entries join it.
      const missed = summary.accepted ? await recheckGuidelineHistory(tx, run.id, summary.guidelineProbes, history?.epoch()) : [];
      if (missed.length > 0) {
        await insertFindings(tx, missed.map((f) => ({ runId: run.id, line: lineToDb(f.line), code: f.code, champ: f.champ, severity: f.severity ?? 'error', found: f.values?.found ?? null, expected: f.values?.expected ?? null, difference: f.values?.difference ?? null, over: f.values?.over ?? null, reference: f.values?.reference ?? null })));
        if (missed.some((f) => f.severity !== 'warning')) {
          accepted = false;
          const [refused] = await tx.update(ledesRuns).set({ accepted: false, deliveredKey: null }).where(eq(ledesRuns.id, run.id)).returning();
          done = refused ?? done;
        }
      }
      if (accepted) {
        await storeAcceptedInvoices(tx, run, summary.invoices);
        await storeGuidelineIndex(tx, run.id, summary.guidelineIndex);
      }
      await storeFindingsSummary(tx, run.id, summary.linesChecked);
      await storeSpend(tx, run.id, accepted, (summary as SpendSummary).spend);
      // The refused notice with the transition (once per run), after the summary it counts the lines of.
      notices = accepted ? [] : await recordLedesNotice(tx, run.id, 'refused', deps);
      return done;
    });
    await enqueueCommittedMails(deps, notices, 'ledes notice');
    if (finished) {
      deps.logger.info({ event: 'ledes_checked', runId: run.id, accepted, lines: summary.linesChecked, attempt: job.attempt }, 'ledes run done');
      let delivered: LedesRunRow | undefined;
      try {
        delivered = await deliverOnce(deps, finished);
      } finally {
        publishRun(deps.realtime, delivered ?? finished); // one transition event, delivered or not
      }
      // Then the treated workbook, from a second pass over the stored file (decision 182): the run is
      // Done for its owner meanwhile; a failure here is retried, and the sweep enqueues a Done run
      // left without its workbook (the job's attempts spent, a crash).
      const treated = await writeTreatedOnce(deps, delivered ?? finished, job.signal);
      if (treated) publishRun(deps.realtime, treated);
    }
    if (finished) await afterBulkWrite(deps.db, { ledes_findings: summary.linesChecked, ledes_invoices: summary.invoices.length }, deps.logger);
  };
}

/**
 * The run's `lines_checked` written as the engine reports it: one statement at a time, the latest
 * count when the previous one is stored (counts in between are skipped), only while the run is in
 * progress. The heartbeat (`withHeartbeat`) stays the one writer of `updated_at`. A failed write is only
 * logged: the count is written again at the next report and with the run's end.
 */
function persistedProgress(deps: CheckLedesDeps, runId: string): { record(lines: number): void; settled(): Promise<void> } {
  let latest = 0;
  let written = 0;
  let writing: Promise<void> | null = null;
  const write = async () => {
    while (written !== latest) {
      const lines = latest;
      await deps.db
        .update(ledesRuns)
        .set({ linesChecked: lines })
        .where(and(eq(ledesRuns.id, runId), eq(ledesRuns.state, 'in_progress')));
      written = lines;
    }
  };
  return {
    record(lines) {
      latest = lines;
      writing ??= write()
        .catch((error: unknown) => deps.logger.warn({ err: error, runId }, 'ledes progress update failed'))
        .finally(() => (writing = null));
    },
    settled: () => writing ?? Promise.resolve(),
  };
}

async function profileOf(db: Database, run: Pick<LedesRunRow, 'office' | 'type'>): Promise<LedesProfile> {
  const [profileRow] = await db
    .select({ profile: ledesProfiles.profile })
    .from(ledesProfiles)
    .where(and(eq(ledesProfiles.office, run.office), eq(ledesProfiles.type, run.type)));
  if (!profileRow) throw new UnrecoverableJobError(`no LEDES profile for ${run.office}/${run.type}`);
  return profileRow.profile as unknown as LedesProfile;
}

/** The codes whose findings depend on other runs: the workbook's pass takes them from the stored result. */
const CROSS_RUN_CODES = ['CON-007', 'GDL-102', 'GDL-111'] as const;

/** A stored finding's values, as the engine gave them (absent ones left out). */
function storedValues(f: typeof ledesFindings.$inferSelect): { values?: FindingValues } {
  const values = Object.fromEntries(
    Object.entries({ found: f.found, expected: f.expected, difference: f.difference, over: f.over, reference: f.reference }).filter(([, v]) => v !== null),
  ) as FindingValues;
  return Object.keys(values).length === 0 ? {} : { values };
}

/** Where a run's treated workbook is stored: beside its original, under `ledes/treated/`. */
export function treatedKeyOf(run: Pick<LedesRunRow, 'originalKey'>): string {
  return run.originalKey.replace(/^ledes\/original\//, 'ledes/treated/').replace(/\.[^./]*$/, '') + '.xlsx';
}

/**
 * Writes a Done run's treated workbook if it has none yet (decision 182): the stored file goes
 * through the engine once more, with the check's instant, into the workbook, and the sheet of the
 * file's findings takes the verdict and the duplicate-invoice findings from the stored result (the
 * only findings that depend on other runs, so the pass runs without the lookup). One execution
 * writes it: the phase is leased (the run kind's `leasedWhenFinished`), so a second job waits out a
 * live holder and ends; a takeover after the holder died finds an object it stored but did not
 * record by its key (`stat`). The key is recorded once. Returns the updated row, or undefined when
 * there was nothing to do.
 */
async function writeTreatedOnce(deps: CheckLedesDeps, run: LedesRunRow, signal: AbortSignal): Promise<LedesRunRow | undefined> {
  if (run.state !== 'Done' || run.treatedKey) return undefined;
  const treatedKey = treatedKeyOf(run);
  // Stored by an earlier execution whose record of it was lost (the database down right after the upload, the worker
  // stopped between the two): the key is the run's own and a put is whole or absent (S3; the local driver renames),
  // so it is recorded, not written again.
  if (!(await deps.storage.stat(treatedKey))) {
    // The run names the key before the object exists (decision 212): whenever the object is stored, a row points to
    // it, whatever stops this execution between the put and the record below.
    const [pending] = await deps.db
      .update(ledesRuns)
      .set({ treatedPendingKey: treatedKey })
      .where(and(eq(ledesRuns.id, run.id), eq(ledesRuns.state, 'Done'), isNull(ledesRuns.treatedKey)))
      .returning({ id: ledesRuns.id });
    if (!pending) return undefined; // recorded meanwhile (or the run is gone): nothing to store
    await writeTreated(deps, run, treatedKey, signal);
  }
  const at = deps.clock?.now() ?? new Date();
  // Recorded once; the lease of the workbook's phase ends with it (nothing is left to lease on the run).
  const [updated] = await deps.db
    .update(ledesRuns)
    .set({ treatedKey, treatedPendingKey: null, updatedAt: at, leaseHolder: null, leaseExpiresAt: null })
    .where(and(eq(ledesRuns.id, run.id), eq(ledesRuns.state, 'Done'), isNull(ledesRuns.treatedKey)))
    .returning();
  return updated;
}

/** The run's treated workbook, from a second pass over its stored file, uploaded to `treatedKey`. */
async function writeTreated(deps: CheckLedesDeps, run: LedesRunRow, treatedKey: string, signal: AbortSignal): Promise<void> {
  const profile = await profileOf(deps.db, run);
  const [owner] = await deps.db.select({ langue: users.langue }).from(users).where(eq(users.id, run.ownerId));
  // The findings that depend on other runs (duplicate invoices, and the guidelines across invoices: units per day,
  // lines billed before), as the check stored them: the pass runs without their lookups.
  const duplicates = await deps.db
    .select()
    .from(ledesFindings)
    .where(and(eq(ledesFindings.runId, run.id), inArray(ledesFindings.code, [...CROSS_RUN_CODES])))
    .orderBy(asc(ledesFindings.line));
  const versions = await loadGuidelineVersions(deps.db, run.idClient);
  const out = new PassThrough();
  const upload = deps.storage.put(treatedKey, out, { contentType: XLSX_CONTENT_TYPE });
  // A failed upload stops the workbook's pass (its output would otherwise wait for a reader forever).
  const uploaded = upload.then(
    () => undefined,
    (error: unknown) => {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    },
  );
  uploaded.catch(() => {}); // awaited below on every path
  out.on('error', () => {}); // the upload's failure, reported by `uploaded`; the pass fails on the destroyed output
  try {
    const stored = await deps.storage.get(run.originalKey);
    async function* source() {
      for await (const chunk of stored as AsyncIterable<Uint8Array>) {
        signal.throwIfAborted();
        yield chunk;
      }
    }
    await (deps.engine ?? runEngineInThread)(source(), {
      filename: run.originalName,
      profile,
      now: run.startedAt ?? run.createdAt,
      ...(versions.length > 0 ? { guidelines: { versions, history: false as const } } : {}),
      workbook: {
        out,
        lang: owner?.langue ?? 'en',
        amend: {
          accepted: run.accepted ?? false,
          late: duplicates.map((f) => ({ line: f.line, code: f.code as RuleCode, champ: f.champ, severity: f.severity, ...storedValues(f) })),
        },
      },
      onFindings: () => {},
    });
    await uploaded;
  } catch (error) {
    out.destroy(); // stops the upload; its outcome is awaited, not left dangling
    // The upload's own failure, when it came first, is the reason (the pass only saw its output destroyed).
    await uploaded;
    throw error;
  }
}

/**
 * Delivers a Done run's accepted file to step 2 if its commit recorded a delivery not yet made.
 * One execution delivers: the run's row is locked while its copy is made, so a second execution
 * (a lock lost during a Redis outage, a retry after a failure past the commit) waits for the first
 * and then finds `delivered_at` set. (Without the lock both could find no copy in storage and copy:
 * the side-effects test saw two deliveries now and then.) The key is the run's own, so a copy that was
 * made but not recorded (the database down before `delivered_at` was written) is found in storage by
 * the retry and not made again.
 */
async function deliverOnce(deps: CheckLedesDeps, run: LedesRunRow): Promise<LedesRunRow | undefined> {
  if (run.state !== 'Done' || !run.deliveredKey || run.deliveredAt) return undefined;
  if (driverOf(deps.db) === 'pglite') return underDeliveryLock(run.id, () => deliverEmbedded(deps, run));
  let notices: string[] = [];
  const recorded = await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(ledesRuns).where(eq(ledesRuns.id, run.id)).for('update');
    if (!current || current.state !== 'Done' || !current.deliveredKey || current.deliveredAt) return undefined;
    if (!(await deps.storage.stat(current.deliveredKey))) await deps.storage.copy(current.originalKey, current.deliveredKey);
    const marked = await markDelivered(tx, deps, run.id);
    notices = marked.notices;
    return marked.delivered;
  });
  await enqueueCommittedMails(deps, notices, 'ledes notice');
  return recorded;
}

/** In the delivery's transaction: `delivered_at` written once, and the uploader's notice recorded with it. */
async function markDelivered(tx: Executor, deps: CheckLedesDeps, runId: string) {
  const at = deps.clock?.now() ?? new Date();
  const [delivered] = await tx
    .update(ledesRuns)
    .set({ deliveredAt: at, updatedAt: at })
    .where(and(eq(ledesRuns.id, runId), isNull(ledesRuns.deliveredAt)))
    .returning();
  const notices = delivered ? await recordLedesNotice(tx, runId, 'delivered', deps) : [];
  return { delivered, notices };
}

/** Embedded: the deliveries under way in this process, by run (each waits for the one before it). */
const deliveryLocks = new Map<string, Promise<void>>();

/** Runs `work` once no other delivery of the run is under way in this process. */
async function underDeliveryLock<T>(runId: string, work: () => Promise<T>): Promise<T> {
  const before = deliveryLocks.get(runId) ?? Promise.resolve();
  let release = () => {};
  const mine = before.then(() => new Promise<void>((resolve) => (release = resolve)));
  deliveryLocks.set(runId, mine);
  await before;
  try {
    return await work();
  } finally {
    release();
    if (deliveryLocks.get(runId) === mine) deliveryLocks.delete(runId);
  }
}

/**
 * The delivery on the embedded database (issue 28, decision 211): the copy of the file (27 MiB for 200,000 lines)
 * is made outside any transaction, since a transaction holds PGlite's one connection and every request waited for
 * the copy (1.7 s at load 50, the probe's worst wait). The database is this process's alone, so the row lock that
 * makes one execution copy is a lock of this process, held across the copy; the transaction writes `delivered_at`
 * and the notice only.
 */
async function deliverEmbedded(deps: CheckLedesDeps, run: LedesRunRow): Promise<LedesRunRow | undefined> {
  const [current] = await deps.db.select().from(ledesRuns).where(eq(ledesRuns.id, run.id));
  if (!current || current.state !== 'Done' || !current.deliveredKey || current.deliveredAt) return undefined;
  if (!(await deps.storage.stat(current.deliveredKey))) await deps.storage.copy(current.originalKey, current.deliveredKey);
  const { delivered, notices } = await deps.db.transaction((tx) => markDelivered(tx, deps, run.id));
  await enqueueCommittedMails(deps, notices, 'ledes notice');
  return delivered;
}

/** After the last attempt of an infrastructure failure: the run ends as Error, and the user sees it (the run kind's transition). */
export async function markLedesRunFailed(deps: Pick<CheckLedesDeps, 'db' | 'realtime' | 'clock'>, runId: string, errorCode: string): Promise<void> {
  await ledesRunKind.fail(deps as CheckLedesDeps, runId, errorCode);
}
