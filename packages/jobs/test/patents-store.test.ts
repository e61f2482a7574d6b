import { asc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annuityFiles, annuityPatents, users, type DatabaseHandle } from '@portal/db';
import { openTestDatabase, testDatabaseKinds } from '@portal/db/testing';
import { storePatents } from '../src/annuities/patents.ts';
import type { PatentRecord } from '../src/annuities/protocol.ts';

const kinds = testDatabaseKinds();

function record(rowIndex: number, overrides: Partial<PatentRecord> = {}): PatentRecord {
  return {
    rowIndex,
    sheet: 'Brevets',
    rowNumber: rowIndex + 2,
    numPublication: `EP${1_000_000 + rowIndex}`,
    numDepot: null,
    reference: `REF-${rowIndex}`,
    nom: 'Brevet « été »; l’essai, "quoted" \\ back\\slash {braces},',
    pays: 'FR',
    payeur: null,
    url: null,
    publie: null,
    office: 'FR',
    origin: 'national',
    dechu: rowIndex % 2 === 0,
    missedNumber: rowIndex % 2 === 0 ? 7 : null,
    missedLostAfter: rowIndex % 2 === 0 ? '2025-09-30' : null,
    expired: false,
    inGraceWithSurcharge: true,
    dateDepot: '2019-03-15',
    moisDateDepot: 3,
    datePrecedenteAnnuite: null,
    quantPrecedent: null,
    dateProchaineAnnuite: '2027-03-31',
    nextNumber: 9,
    instructionLimit: '2027-03-24',
    limiteDateProchaineAnnuite: '2027-09-30',
    fee: '120.00',
    currency: 'EUR',
    colour: 'ok',
    reasons: ['filing_date_text', 'office_from_country'],
    flags: [],
    commentaire: null,
    searchText: `ep${1_000_000 + rowIndex}\u0001ref-${rowIndex}`,
    ...overrides,
  };
}

describe.each(kinds)('storing annuity patents (%s)', (kind) => {
  let handle: DatabaseHandle;
  let fileId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const [owner] = await handle.db.insert(users).values({ companyAgent: 'Firm', email: `patents-${kind}@portal.test` }).returning();
    const [file] = await handle.db
      .insert(annuityFiles)
      .values({ ownerId: owner!.id, importName: 'a.xlsx', exportName: 'a.xlsx', importKey: `k/${crypto.randomUUID()}`, size: 1, sha256: 'x' })
      .returning();
    fileId = file!.id;
  });
  afterAll(async () => {
    await handle.close();
  });

  const stored = () => handle.db.select().from(annuityPatents).where(eq(annuityPatents.fileId, fileId)).orderBy(asc(annuityPatents.rowIndex));

  it('stores every field as given: nulls, booleans, numbers, lists (empty too) and text with quotes, commas and braces', async () => {
    const rows = [record(0), record(1, { reasons: [], flags: ['expired'], colour: 'orange', nom: null, quantPrecedent: 6, datePrecedenteAnnuite: '2026-03-31' })];
    await storePatents(handle.db, fileId, rows);
    const back = await stored();
    expect(back).toHaveLength(2);
    for (const [i, row] of back.entries()) {
      const { id: _id, fileId: storedFile, edited, patentKey, ...fields } = row;
      expect(storedFile).toBe(fileId);
      expect(edited).toBe(false);
      // The portfolio link is the check's last step, at Done (decision 214), never a stored batch's.
      expect(patentKey).toBeNull();
      expect(fields).toEqual(rows[i]);
    }
  });

  it('stores text an array literal could misread as it is: the word NULL, an empty text, spaces around, a lone quote or backslash, separators', async () => {
    const odd = ['NULL', '', '  padded  ', '"', '\\', '{}', 'a,b', 'x"y\\z', '\u0001'];
    const rows = odd.map((nom, i) => record(500 + i, { nom, reference: nom, commentaire: nom, reasons: nom === '' ? [] : [nom] }));
    await storePatents(handle.db, fileId, rows);
    const back = (await stored()).filter((r) => r.rowIndex >= 500);
    expect(back.map((r) => [r.nom, r.reference, r.commentaire, r.reasons])).toEqual(odd.map((nom) => [nom, nom, nom, nom === '' ? [] : [nom]]));
    await handle.db.delete(annuityPatents).where(gte(annuityPatents.rowIndex, 500));
  });

  it('a batch stored again (a second execution of the job) replaces its rows, never doubles them', async () => {
    await storePatents(handle.db, fileId, [record(0, { colour: 'nok', reasons: ['late'] }), record(2)]);
    const back = await stored();
    expect(back.map((r) => r.rowIndex)).toEqual([0, 1, 2]);
    expect(back[0]).toMatchObject({ colour: 'nok', reasons: ['late'] });
  });

  it('stores a thousand rows in one statement', async () => {
    await storePatents(handle.db, fileId, Array.from({ length: 1000 }, (_, i) => record(100 + i)));
    expect((await stored()).length).toBe(1003);
  });
});
