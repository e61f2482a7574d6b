import { patentImports } from '@portal/db';
import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { toImportDto } from '../patents/imports.ts';
import { createImportPatentsProcessor, type ImportPatentsDeps } from '../processors/import-patents.ts';
import { defineRunKind } from '../run-kind.ts';

/**
 * Portfolio imports as a run kind (`patent_imports`). A running import touches its row with every
 * progress update (every 0.5 s), so ten minutes of silence means nobody works on it.
 */
export const patentImportRunKind = defineRunKind({
  kind: 'patent-import',
  queue: 'patent-import',
  table: patentImports,
  tableName: 'patent_imports',
  idOf: ({ importId }) => importId,
  payloadOf: (importId) => ({ importId }),
  timeoutMs: 10 * 60_000,
  errorCodes: { failed: 'processing_failed', interrupted: 'interrupted' },
  toDto: toImportDto,
  event: 'patents:import:updated',
  ownerOf: (row) => row.uploadedBy,
  progressToAdmins: false,
  processor: (ports: ImportPatentsDeps) => createImportPatentsProcessor(ports),
});

/** The `patent-import` queue: upserts one uploaded portfolio file (`import-patents.ts`), under the run kind's lease. */
export const patentImportJob = defineJob<'patent-import', ImportPatentsDeps>({
  queue: 'patent-import',
  timeoutMs: patentImportRunKind.timeoutMs,
  retry: DEFAULT_RETRY,
  concurrency: 1,
  processor: (ports) => patentImportRunKind.process(ports),
  onFinalFailure: (ports) => patentImportRunKind.onFinalFailure(ports),
});

/** Moves to Error ("interrupted") the started imports silent for the queue's timeout, unless their job waits its turn or their lease is held. */
export function closeSilentPatentImports(ports: Pick<ImportPatentsDeps, 'db' | 'realtime'>, isQueued: (importId: string) => Promise<boolean>, now: Date, timeoutMs = patentImportJob.timeoutMs): Promise<number> {
  return patentImportRunKind.closeSilent(ports, isQueued, now, timeoutMs);
}
