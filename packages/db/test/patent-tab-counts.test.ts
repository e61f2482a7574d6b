import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { cabinets, patentRecords, type DatabaseHandle } from '../src/index.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

/**
 * `patent_tab_counts` gives the patent lists their totals without counting rows (decision 174): it must
 * equal the counts of the patents themselves after every kind of write, or the pages would be wrong.
 */
describe.each(testDatabaseKinds())('per (cabinet, code, tab) patent counts kept by triggers (%s)', (kind) => {
  let handle: DatabaseHandle;
  let seq = 0;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    // The instructions the rows name (seeded by the migrations where they exist).
    await handle.db.execute(sql`insert into payment_instructions (id, title_fr, title_en, tooltip_fr, tooltip_en) values (1, 'a', 'a', 'a', 'a') on conflict do nothing`);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const patent = (cabinetId: string, clientCode: string, extra: Partial<typeof patentRecords.$inferInsert> = {}) => {
    seq++;
    return { idagenda: `C-${kind}-${seq}`, cabinetId, clientCode, pays: 'FR', numeroDepot: `FR${seq}`, numeroPublication: `P${seq}`, referenceClient: `R${seq}`, ...extra };
  };

  async function expectCountsTrue() {
    const actual: unknown = await handle.db.execute(sql`
      select cabinet_id::text, client_code, has_instruction, count(*)::integer as patents,
        (count(*) filter (where instruction_status = 'processed'))::integer as processed,
        (count(*) filter (where coalesce(numero_depot, '') = '' or coalesce(numero_publication, '') = '' or coalesce(reference_client, '') = ''))::integer as missing
      from patent_records group by 1, 2, 3 order by 1, 2, 3`);
    const kept: unknown = await handle.db.execute(sql`
      select cabinet_id::text, client_code, has_instruction, patents, processed, missing from patent_tab_counts
      where patents <> 0 or processed <> 0 or missing <> 0 order by 1, 2, 3`);
    expect((kept as { rows: unknown[] }).rows).toEqual((actual as { rows: unknown[] }).rows);
  }

  it('match the rows after bulk inserts, instruction and treatment-date changes, status, number, cabinet and code changes, deletes and a truncate', async () => {
    const [a, b] = await handle.db.insert(cabinets).values([{ name: `A-${kind}` }, { name: `B-${kind}` }]).returning({ id: cabinets.id });
    await handle.db.insert(patentRecords).values([patent(a!.id, 'X'), patent(a!.id, 'X'), patent(a!.id, 'Y', { numeroDepot: null }), patent(b!.id, 'X'), patent(b!.id, 'Z', { referenceClient: ' ' })]);
    await expectCountsTrue();
    const rows = await handle.db.select({ id: patentRecords.id }).from(patentRecords).orderBy(patentRecords.idagenda);
    const ids = rows.map((r) => r.id);
    // An instruction given moves a patent to the other tab; a treatment date too; clearing it moves it back.
    await handle.db.update(patentRecords).set({ instructionId: 1, instructionStatus: 'processed' }).where(eq(patentRecords.id, ids[0]!));
    await expectCountsTrue();
    await handle.db.update(patentRecords).set({ dateAcquit: '2026-01-01' }).where(eq(patentRecords.id, ids[3]!));
    await expectCountsTrue();
    await handle.db.update(patentRecords).set({ instructionStatus: 'validated' }).where(eq(patentRecords.id, ids[0]!));
    await expectCountsTrue();
    await handle.db.update(patentRecords).set({ instructionId: null, instructionStatus: 'unprocessed' }).where(eq(patentRecords.id, ids[0]!));
    await expectCountsTrue();
    // Missing information filled, a number emptied, a patent moved to another cabinet and code.
    await handle.db.update(patentRecords).set({ numeroDepot: 'FR-filled' }).where(eq(patentRecords.id, ids[2]!));
    await handle.db.update(patentRecords).set({ numeroPublication: '' }).where(eq(patentRecords.id, ids[1]!));
    await expectCountsTrue();
    await handle.db.update(patentRecords).set({ cabinetId: b!.id, clientCode: 'W' }).where(inArray(patentRecords.id, [ids[1]!, ids[2]!]));
    await expectCountsTrue();
    // An update of everything that changes nothing counted (the import's upsert of unchanged rows).
    await handle.db.update(patentRecords).set({ version: sql`version + 1` });
    await expectCountsTrue();
    await handle.db.delete(patentRecords).where(inArray(patentRecords.id, [ids[0]!, ids[4]!]));
    await expectCountsTrue();
    await handle.db.execute(sql`truncate patent_records cascade`);
    await expectCountsTrue();
    await handle.db.insert(patentRecords).values([patent(a!.id, 'X', { instructionId: 1 }), patent(b!.id, 'Y')]);
    await expectCountsTrue();
  });

  it('concurrent inserts and updates into one (cabinet, code, tab) all count', async () => {
    const [c] = await handle.db.insert(cabinets).values({ name: `C-${kind}` }).returning({ id: cabinets.id });
    await Promise.all(Array.from({ length: 20 }, () => handle.db.insert(patentRecords).values(patent(c!.id, 'Q'))));
    const rows = await handle.db.select({ id: patentRecords.id }).from(patentRecords).where(eq(patentRecords.cabinetId, c!.id));
    await Promise.all(rows.slice(0, 10).map((r) => handle.db.update(patentRecords).set({ instructionId: 1, instructionStatus: 'processed' }).where(eq(patentRecords.id, r.id))));
    await expectCountsTrue();
  });
});
