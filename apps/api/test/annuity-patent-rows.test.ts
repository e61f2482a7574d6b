import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annuityPatents, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { toPatentDto } from '@portal/jobs';
import { patentsByKeys } from '../src/modules/annuities/patent-rows.ts';
import { fillAnnuityFile } from './support/annuity-scale.ts';

/**
 * A page's rows built as one JSON text by the database (decision 210) are the DTOs the rows give through Drizzle
 * and `toPatentDto`, field for field (nulls, booleans, arrays, numbers, text with quotes and accents, the annuity
 * range by office and origin), in the order of the keys asked, on both databases.
 */
describe.each(testDatabaseKinds())('a page of patents as one JSON text (%s)', (kind) => {
  let handle: DatabaseHandle;
  let fileId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const owner = await handle.db.execute(sql`insert into users (company_agent, email) values ('Rows', 'rows@example.test') returning id`);
    const ownerId = (owner as { rows: Array<{ id: string }> }).rows[0]!.id;
    fileId = await fillAnnuityFile(handle.db, ownerId, 300);
    // The fields the scale fixture leaves constant, varied: lapsed rows, flags, comments, edits, offices and origins.
    await handle.db.execute(sql`update annuity_patents set
        dechu = row_index % 4 = 1, expired = row_index % 5 = 2, in_grace_with_surcharge = row_index % 6 = 3,
        missed_number = case when row_index % 4 = 1 then 3 + row_index % 10 end,
        missed_lost_after = case when row_index % 4 = 1 then '2025-03-31' end,
        flags = case when row_index % 3 = 0 then array['fee_unknown', 'late'] else '{}'::text[] end,
        commentaire = case when row_index % 2 = 0 then 'Note «' || row_index || '» "quoted" \\ back' || chr(10) || 'é' end,
        edited = row_index % 7 = 0,
        office = (array['FR', 'DE', 'GB', 'IT', 'NL', 'EP', 'US'])[1 + row_index % 7],
        origin = (array['national', 'unitary', 'ep_validated'])[1 + row_index % 3],
        fee = case when row_index % 8 = 0 then null else fee end
      where file_id = ${fileId}`);
    await handle.db.execute(sql`update annuity_patents set office = null, origin = null where file_id = ${fileId} and row_index % 11 = 0`);
  }, 120_000);
  afterAll(() => handle?.close());

  it('gives the same DTOs as the rows through toPatentDto, in the order of the keys', async () => {
    const rows = await handle.db.select().from(annuityPatents).where(eq(annuityPatents.fileId, fileId));
    const byRow = new Map(rows.map((r) => [r.rowIndex, r]));
    // Out of file order, with a key the file does not have (left out).
    const keys = Array.from({ length: 300 }, (_, i) => (i * 7919) % 300);
    const got = await patentsByKeys(handle.db, fileId, [...keys.slice(0, 150), 999_999, ...keys.slice(150)]);
    expect(got).toEqual(keys.map((k) => toPatentDto(byRow.get(k)!)));
    // Field for field, in the contract's order (the answer's bytes are those of the DTO).
    expect(JSON.stringify(got[0])).toBe(JSON.stringify(toPatentDto(byRow.get(keys[0]!)!)));
  });

  it('gives nothing for no keys or keys the file does not have', async () => {
    expect(await patentsByKeys(handle.db, fileId, [])).toEqual([]);
    expect(await patentsByKeys(handle.db, fileId, [400_000, 400_001])).toEqual([]);
    const [one] = await handle.db.select().from(annuityPatents).where(and(eq(annuityPatents.fileId, fileId), eq(annuityPatents.rowIndex, 17)));
    expect(await patentsByKeys(handle.db, fileId, [17])).toEqual([toPatentDto(one!)]);
  });
});
