import { asc, eq } from 'drizzle-orm';
import type { PatentRecordDto } from '@portal/contracts';
import { cabinets, patentInstructionEvents, patentRecords } from '@portal/db';
import { startTestPortal, type DatabaseKind, type TestPortal } from './portal.ts';

/** A patent row to insert: cabinet A, client code CODE-A and office EP unless given. */
export type Seed = Partial<typeof patentRecords.$inferInsert> & { idagenda: string };

export interface PatentWorld {
  t: TestPortal;
  cabinetA: string;
  cabinetB: string;
  /** Patent ids by idagenda, for every seeded row. */
  ids: Record<string, string>;
  seed(rows: Seed[]): Promise<void>;
  /** The stored row of a patent. */
  row(idagenda: string): Promise<typeof patentRecords.$inferSelect>;
  /** A patent's audit trail, oldest first. */
  trail(idagenda: string): Promise<(typeof patentInstructionEvents.$inferSelect)[]>;
}

/**
 * The patent tests' common ground: a portal whose clock reads `today` at noon (limit dates are judged
 * against it) and two cabinets named `<name> A` / `<name> B`; users, links and rows are each test's own.
 */
export async function startPatentWorld(kind: DatabaseKind, today: string, name: string, env: Record<string, string> = {}): Promise<PatentWorld> {
  const t = await startTestPortal(kind, env);
  t.clock.advance(Date.parse(`${today}T12:00:00Z`) - t.clock.now().getTime());
  const db = t.portal.ctx.db;
  const [cabinetA, cabinetB] = (await db.insert(cabinets).values([{ name: `${name} A ${kind}` }, { name: `${name} B ${kind}` }]).returning()).map((c) => c.id) as [string, string];
  const ids: Record<string, string> = {};
  return {
    t,
    cabinetA,
    cabinetB,
    ids,
    async seed(rows) {
      const inserted = await db
        .insert(patentRecords)
        .values(rows.map((r) => ({ cabinetId: cabinetA, clientCode: 'CODE-A', pays: 'EP', ...r })))
        .returning({ id: patentRecords.id, idagenda: patentRecords.idagenda });
      for (const r of inserted) ids[r.idagenda] = r.id;
    },
    async row(idagenda) {
      return (await db.select().from(patentRecords).where(eq(patentRecords.idagenda, idagenda)))[0]!;
    },
    async trail(idagenda) {
      return db.select().from(patentInstructionEvents).where(eq(patentInstructionEvents.patentId, ids[idagenda]!)).orderBy(asc(patentInstructionEvents.createdAt));
    },
  };
}

export const agendas = (list: PatentRecordDto[]) => list.map((p) => p.idagenda);
