import { eq } from 'drizzle-orm';
import type { PatentImportDto } from '@portal/contracts';
import { patentImports, type Executor } from '@portal/db';

export type PatentImportRow = typeof patentImports.$inferSelect;

export function toImportDto(row: PatentImportRow): PatentImportDto {
  return {
    _id: row.id,
    name: row.originalName,
    size: row.size,
    state: row.state,
    error_code: row.errorCode,
    rows_total: row.rowsTotal,
    rows_done: row.rowsDone,
    inserted: row.inserted,
    updated: row.updated,
    unchanged: row.unchanged,
    rejected: row.rejected,
    flagged: row.flagged,
    rejections: row.rejections as PatentImportDto['rejections'],
    uploaded_by: row.uploadedBy,
    created: row.createdAt.toISOString(),
    finished: row.finishedAt?.toISOString() ?? null,
  };
}

export async function loadImport(db: Executor, id: string): Promise<PatentImportRow | undefined> {
  const [row] = await db.select().from(patentImports).where(eq(patentImports.id, id));
  return row;
}

