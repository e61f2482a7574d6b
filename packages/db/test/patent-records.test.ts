import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { cabinets, patentInstructionEvents, patentRecords, paymentInstructions, type DatabaseHandle } from '../src/index.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

/** Migration 0007: the portfolio's tables, their seeded instructions and the columns PostgreSQL keeps. */
describe.each(testDatabaseKinds())('patent records (%s)', (kind) => {
  let handle: DatabaseHandle;
  let cabinetId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [cabinet] = await handle.db.insert(cabinets).values({ name: `Cabinet ${kind}` }).returning();
    cabinetId = cabinet!.id;
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('seeds the four payment instructions in French and English, the third completed with a year at read time', async () => {
    const rows = await handle.db.select().from(paymentInstructions).orderBy(asc(paymentInstructions.id));
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(rows[2]).toMatchObject({ titleFr: 'Paiement par un tiers seulement pour', titleEn: 'Payment by a third party only for', appendsNextYear: true });
    expect(rows.filter((r) => r.appendsNextYear)).toHaveLength(1);
    for (const row of rows) for (const value of [row.titleFr, row.titleEn, row.tooltipFr, row.tooltipEn]) expect(value).not.toContain(':');
  });

  it('keeps dates as dates, cost as an exact decimal, the tab flag and the search text up to date', async () => {
    const [row] = await handle.db
      .insert(patentRecords)
      .values({ idagenda: 'A-1', cabinetId, clientCode: 'C1', pays: 'EP', referenceClient: 'Ref-ABC', numeroDepot: 'EP123', dateEcheance: '2027-03-31', cost: '1234.50' })
      .returning();
    expect(row).toMatchObject({ dateEcheance: '2027-03-31', cost: '1234.50', hasInstruction: false, instructionStatus: 'unprocessed', version: 1 });
    expect(row!.searchText.split('\u001f').slice(0, 2)).toEqual(['ref-abc', 'ep123']);
    const [paid] = await handle.db.update(patentRecords).set({ datePaiementClient: '2026-01-02' }).where(eq(patentRecords.id, row!.id)).returning();
    expect(paid!.hasInstruction).toBe(true);
    const [instructed] = await handle.db.update(patentRecords).set({ datePaiementClient: null, instructionId: 2 }).where(eq(patentRecords.id, row!.id)).returning();
    expect(instructed!.hasInstruction).toBe(true);
  });

  it('refuses a second idagenda, an unknown instruction, a status or a source outside the lists', async () => {
    const base = { cabinetId, clientCode: 'C1', pays: 'FR' };
    await handle.db.insert(patentRecords).values({ ...base, idagenda: 'B-1' });
    await expect(handle.db.insert(patentRecords).values({ ...base, idagenda: 'B-1' })).rejects.toThrow();
    await expect(handle.db.insert(patentRecords).values({ ...base, idagenda: 'B-2', instructionId: 5 })).rejects.toThrow();
    await expect(handle.db.execute(sql`insert into patent_records (idagenda, cabinet_id, client_code, pays, instruction_status) values ('B-3', ${cabinetId}, 'C1', 'FR', 'done')`)).rejects.toThrow();
    const [patent] = await handle.db.select().from(patentRecords).where(eq(patentRecords.idagenda, 'B-1'));
    await handle.db.insert(patentInstructionEvents).values({ patentId: patent!.id, newInstructionId: 1, oldStatus: 'unprocessed', newStatus: 'processed', source: 'screen' });
    await expect(
      handle.db.execute(sql`insert into patent_instruction_events (patent_id, old_status, new_status, source) values (${patent!.id}, 'unprocessed', 'processed', 'mail')`),
    ).rejects.toThrow();
  });
});
