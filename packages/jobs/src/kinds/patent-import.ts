import { patentImports } from '@portal/db';
import type { RealtimePublisher } from '@portal/realtime';
import { toImportDto, type PatentImportRow } from '../patents/imports.ts';
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
});

/** Progress to the uploader; a new import and its transitions also to the admins (who see every import). */
export function publishImport(realtime: RealtimePublisher, row: PatentImportRow, options: { admins: boolean }): void {
  patentImportRunKind.publish(realtime, row, { transition: options.admins });
}
