import { PassThrough } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';

import { ledesFindings, ledesInvoices, ledesProfiles, ledesRuns, users, type Database } from '@portal/db';
import type { LedesProfile, ResolvedFinding } from '@portal/ledes';
import type { Logger } from '@portal/logger';
import type { Processor } from '@portal/queue';
import { UnrecoverableJobError } from '@portal/queue';
import type { RealtimePublisher } from '@portal/realtime';
import type { Storage } from '@portal/storage';
import { runEngineInThread, type LedesEngine } from '../ledes/engine.ts';
import { lineToDb, loadRun, toRunDto, type LedesRunRow } from '../ledes/runs.ts';

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
}

const FINDINGS_BATCH = 1000;
const MAX_PENDING_BATCHES = 4;
const PROGRESS_INTERVAL_MS = 500;

/** Publishes a run's new state to its owner and to the admins. */
export function publishRun(realtime: RealtimePublisher, run: LedesRunRow): void {
  const dto = toRunDto(run);
  realtime.toUser(run.ownerId, 'ledes:run', dto);
  realtime.toAdmins('ledes:run', dto);
}

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
    if (run.state !== 'in_progress') return;

    const [profileRow] = await deps.db
      .select({ profile: ledesProfiles.profile })
      .from(ledesProfiles)
      .where(and(eq(ledesProfiles.office, run.office), eq(ledesProfiles.type, run.type)));
    if (!profileRow) throw new UnrecoverableJobError(`no LEDES profile for ${run.office}/${run.type}`);
    const profile = profileRow.profile as unknown as LedesProfile;
    const [owner] = await deps.db.select({ langue: users.langue }).from(users).where(eq(users.id, run.ownerId));

    await deps.db.transaction(async (tx) => {
      await tx.delete(ledesFindings).where(eq(ledesFindings.runId, run.id));
      await tx.delete(ledesInvoices).where(eq(ledesInvoices.runId, run.id));
      await tx.update(ledesRuns).set({ startedAt: now(), attempts: sql`${ledesRuns.attempts} + 1`, linesChecked: 0, updatedAt: now() }).where(eq(ledesRuns.id, run.id));
    });

    // Findings are written in batches while the file streams, so memory stays flat on huge files.
    let batch: Array<typeof ledesFindings.$inferInsert> = [];
    let writes = Promise.resolve();
    let pendingBatches = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      pendingBatches++;
      writes = writes.then(async () => {
        await deps.db.insert(ledesFindings).values(rows).onConflictDoNothing();
        pendingBatches--;
      });
    };
    const record = (findings: readonly ResolvedFinding[]) => {
      for (const f of findings) {
        if (f.severity !== 'error' && f.severity !== 'warning') continue;
        batch.push({ runId: run.id, line: lineToDb(f.line), code: f.code, champ: f.champ, severity: f.severity });
      }
      if (batch.length >= FINDINGS_BATCH) flush();
    };

    const treatedKey = run.originalKey.replace(/^ledes\/original\//, 'ledes/treated/').replace(/\.[^./]*$/, '') + '.xlsx';
    const workbookStream = new PassThrough();
    const treatedUpload = deps.storage.put(treatedKey, workbookStream, {
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });

    const stored = await deps.storage.get(run.originalKey);
    // Backpressure: the next chunk is read only once the database has caught up with the findings.
    async function* source() {
      for await (const chunk of stored as AsyncIterable<Uint8Array>) {
        while (pendingBatches > MAX_PENDING_BATCHES) await writes;
        yield chunk;
      }
    }
    const engine = deps.engine ?? runEngineInThread;
    const outcome = await engine(source(), {
      filename: run.originalName,
      profile,
      now: now(),
      workbook: { out: workbookStream, lang: owner?.langue ?? 'en' },
      onFindings: record,
      progressIntervalMs: PROGRESS_INTERVAL_MS,
      acceptedInvoices: async (invoiceNumber, clientId) => {
        const [hit] = await deps.db
          .select({ runId: ledesInvoices.runId })
          .from(ledesInvoices)
          .innerJoin(ledesRuns, eq(ledesRuns.id, ledesInvoices.runId))
          .where(and(eq(ledesInvoices.invoiceNumber, invoiceNumber), eq(ledesInvoices.clientId, clientId), sql`${ledesRuns.id} <> ${run.id}`))
          .limit(1);
        return hit !== undefined;
      },
      onProgress: (linesChecked) => {
        void job.updateProgress(linesChecked).catch(() => {});
        deps.realtime.toUser(run.ownerId, 'ledes:run', { ...toRunDto(run), lines_checked: linesChecked });
      },
    });
    flush();
    await writes;
    await treatedUpload;

    const { summary } = outcome;
    let deliveredKey: string | null = null;
    if (summary.accepted && run.sendServer) {
      deliveredKey = `${deps.outboundPrefix ?? 'outbound/step2'}/${run.originalKey.split('/').slice(2).join('/')}`;
      await deps.storage.copy(run.originalKey, deliveredKey);
    }

    const finished = await deps.db.transaction(async (tx) => {
      if (summary.accepted) {
        const invoices = summary.invoices.filter((i) => i.invoice_number && i.client_id);
        if (invoices.length > 0) {
          await tx
            .insert(ledesInvoices)
            .values(invoices.map((i) => ({ runId: run.id, clientId: i.client_id, invoiceNumber: i.invoice_number, total: i.total })))
            .onConflictDoNothing();
        }
      }
      const [updated] = await tx
        .update(ledesRuns)
        .set({
          state: 'Done',
          accepted: summary.accepted,
          format: summary.format,
          linesChecked: summary.linesChecked,
          treatedKey,
          deliveredKey,
          deliveredAt: deliveredKey ? now() : null,
          finishedAt: now(),
          updatedAt: now(),
        })
        .where(and(eq(ledesRuns.id, run.id), eq(ledesRuns.state, 'in_progress')))
        .returning();
      return updated;
    });
    if (finished) {
      publishRun(deps.realtime, finished);
      deps.logger.info({ event: 'ledes_checked', runId: run.id, accepted: summary.accepted, lines: summary.linesChecked, attempt: job.attempt }, 'ledes run done');
    }
  };
}

/** After the last attempt of an infrastructure failure: the run ends as Error, and the user sees it. */
export async function markLedesRunFailed(deps: Pick<CheckLedesDeps, 'db' | 'realtime' | 'clock'>, runId: string, errorCode: string): Promise<void> {
  const now = deps.clock?.now() ?? new Date();
  const [failed] = await deps.db
    .update(ledesRuns)
    .set({ state: 'Error', errorCode, finishedAt: now, updatedAt: now })
    .where(and(eq(ledesRuns.id, runId), eq(ledesRuns.state, 'in_progress')))
    .returning();
  if (failed) publishRun(deps.realtime, failed);
}

