import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { patentImports } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { publishImport } from '../patents/imports.ts';
import { createImportPatentsProcessor, markImportFailed, PATENT_IMPORT_ERROR_CODES, type ImportPatentsDeps } from '../processors/import-patents.ts';

/**
 * The `patent-import` queue: upserts one uploaded portfolio file (`import-patents.ts`). A running
 * import touches its row with every progress update (every 0.5 s), so ten minutes of silence means
 * nobody works on it.
 */
export const patentImportJob = defineJob<'patent-import', ImportPatentsDeps>({
  queue: 'patent-import',
  timeoutMs: 10 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => createImportPatentsProcessor(ports),
  onFinalFailure: (ports) => async ({ importId }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, importId, attemptsMade }, 'patent import failed for good');
    await markImportFailed(ports, importId, PATENT_IMPORT_ERROR_CODES.failed);
  },
});

/** Moves to Error ("interrupted") the started imports silent for the queue's timeout, unless their job waits its turn. */
export async function closeSilentPatentImports(
  ports: Pick<ImportPatentsDeps, 'db' | 'realtime'>,
  isQueued: (importId: string) => Promise<boolean>,
  now: Date,
  timeoutMs = patentImportJob.timeoutMs,
): Promise<number> {
  const cutoff = new Date(now.getTime() - timeoutMs);
  const silent = await ports.db
    .select({ id: patentImports.id })
    .from(patentImports)
    .where(and(eq(patentImports.state, 'in_progress'), isNotNull(patentImports.startedAt), lt(patentImports.updatedAt, cutoff)))
    .limit(500);
  const abandoned: string[] = [];
  for (const { id } of silent) if (!(await isQueued(id))) abandoned.push(id);
  if (abandoned.length === 0) return 0;
  const closed = await ports.db
    .update(patentImports)
    .set({ state: 'Error', errorCode: PATENT_IMPORT_ERROR_CODES.interrupted, finishedAt: now, updatedAt: now })
    .where(and(inArray(patentImports.id, abandoned), eq(patentImports.state, 'in_progress'), lt(patentImports.updatedAt, cutoff)))
    .returning();
  for (const row of closed) publishImport(ports.realtime, row, { admins: true });
  return closed.length;
}
