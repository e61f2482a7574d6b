import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { annuityPatents, cabinets, patentRecords, userCabinets } from '@portal/db';
import { writeLedger } from '@portal/jobs';
import { eq } from 'drizzle-orm';
import { ENGLISH_HEADERS, xlsxBuffer, type Cell } from '../../../packages/annuities/test/support/workbooks.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/**
 * Issue 29, decision 214: the patents of an annuity file read the payment ledger. A file's row that is a portfolio
 * patent (same office, same number once normalised) whose next annuity the ledger holds paid or confirmed says paid,
 * with its evidence; lapsed is never due. The ledger of a patent the reader may not read says nothing.
 *
 * Every row: filed 2016-03-15, last annuity paid 9, so the engine's next is 10, due 2025-03-31: past, in its grace
 * period on 2025-06-10, `nok` by the dates.
 */
const HEADERS = [...ENGLISH_HEADERS, 'Origin'];
const TODAY = '2025-06-10';
const FILING = '2016-03-15';

async function settled(client: TestClient, id: string, timeoutMs = 60_000): Promise<AnnuityFileDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get('/api/annuite/files?limit=100');
    const file = (res.body.data as AnnuityFileDto[]).find((f) => f._id === id);
    if (file && file.is_done !== 'in_progress' && !file.export_stale) return file;
    if (Date.now() > deadline) throw new Error(`file ${id} still ${file?.is_done}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(databaseKinds())('annuity file colours read the ledger (%s)', (kind) => {
  let t: TestPortal;
  let owner: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let file: AnnuityFileDto;

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_RATE_LIMIT: '1000' });
    const realNow = t.clock.now().getTime();
    t.clock.advance(Date.parse(`${TODAY}T12:00:00Z`) - realNow);
    owner = await t.loginAs('user_annuites');
    admin = await t.loginAs('admin');
    const db = t.portal.ctx.db;
    const [mine] = await db.insert(cabinets).values({ name: 'Ledger colours, mine' }).returning();
    const [theirs] = await db.insert(cabinets).values({ name: 'Ledger colours, theirs' }).returning();
    await db.insert(userCabinets).values({ userId: owner.id, cabinetId: mine!.id });
    const record = async (values: Partial<typeof patentRecords.$inferInsert>) =>
      (await db.insert(patentRecords).values({ idagenda: `LC-${values.idbrevet}`, cabinetId: mine!.id, clientCode: 'LC', quantieme: 10, dateEcheance: '2025-03-31', pays: 'FR', ...values }).returning())[0]!;
    const paid = await record({ idbrevet: 'LC-PAID', numeroPublication: 'FR 3 000 001' });
    const lapsed = await record({ idbrevet: 'LC-LAPSED', numeroPublication: 'FR3000002', instructionId: 2 });
    // The EP patent validated in GB: the national record names the EP publication, the file row too (with its kind code).
    const validated = await record({ idbrevet: 'LC-EPGB', pays: 'GB', origine: 'ep_validated', numeroPublication: 'EP1000000' });
    const other = await record({ idbrevet: 'LC-OTHER', numeroPublication: 'FR3000004', cabinetId: theirs!.id, clientCode: 'OTHER' });
    await db.transaction(async (tx) => {
      const at = t.clock.now();
      await writeLedger(tx, [{ recordId: paid.id, event: { kind: 'office_payment', source: 'sync', paidOn: '2025-03-20' } }], { at });
      await writeLedger(tx, [{ recordId: lapsed.id, event: { kind: 'register', state: 'lapsed' } }], { at });
      await writeLedger(tx, [{ recordId: validated.id, event: { kind: 'register', state: 'confirmed' } }], { at });
      await writeLedger(tx, [{ recordId: other.id, event: { kind: 'office_payment', source: 'sync', paidOn: '2025-03-20' } }], { at });
    });
    const rows: Cell[][] = [
      ['FR3000001', null, 'LC-1', 'Paid', 'FR', null, FILING, null, 9, null, null],
      ['FR3000002', null, 'LC-2', 'Lapsed', 'FR', null, FILING, null, 9, null, null],
      ['EP 1 000 000 B1', null, 'LC-3', 'EP validated in GB', 'GB', null, FILING, null, 9, null, 'EP validated'],
      ['FR3000004', null, 'LC-4', 'Another client', 'FR', null, FILING, null, 9, null, null],
      ['FR3000005', null, 'LC-5', 'Not in the portfolio', 'FR', null, FILING, null, 9, null, null],
    ];
    const res = await owner.client.upload('/api/brevets/annuite', [{ filename: 'ledger.xlsx', content: await xlsxBuffer([{ name: 'S', headers: HEADERS, rows }]) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    file = await settled(owner.client, res.body._id as string);
    expect(file.is_done).toBe('Done');
  }, 180_000);
  afterAll(async () => t?.close());

  const listed = async (client: TestClient, query = 'limit=30') => {
    const res = await client.get(`/api/brevets/file/${file._id}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return new Map((res.body.patents as AnnuityPatentDto[]).map((p) => [p.reference, p]));
  };

  it('the check links the rows that are portfolio patents (office and normalised number), the others stay unlinked', async () => {
    const stored = await t.portal.ctx.db.select({ reference: annuityPatents.reference, key: annuityPatents.patentKey, colour: annuityPatents.colour, next: annuityPatents.nextNumber }).from(annuityPatents).where(eq(annuityPatents.fileId, file._id));
    expect(new Map(stored.map((r) => [r.reference, [r.key, r.colour, r.next]]))).toEqual(
      new Map([
        ['LC-1', ['LC-PAID', 'nok', 10]],
        ['LC-2', ['LC-LAPSED', 'nok', 10]],
        ['LC-3', ['LC-EPGB', 'nok', 10]],
        ['LC-4', ['LC-OTHER', 'nok', 10]],
        ['LC-5', [null, 'nok', 10]],
      ]),
    );
  });

  it('a paid or confirmed year says paid with its evidence; a lapsed one is never due; another client’s ledger says nothing', async () => {
    for (const query of ['limit=30', 'limit=all', 'limit=30&sort=reference&order=desc']) {
      const rows = await listed(owner.client, query);
      expect(rows.get('LC-1'), query).toMatchObject({ colour: 'ok', ledger: { state: 'paid', year: 10, paid_on: '2025-03-20', source: 'sync', receipt_id: null, receipt_file: null } });
      expect(rows.get('LC-1')!.flags).not.toContain('payment_unknown');
      expect(rows.get('LC-2'), query).toMatchObject({ colour: 'orange', ledger: { state: 'lapsed', year: 10 } });
      expect(rows.get('LC-3'), query).toMatchObject({ colour: 'ok', ledger: { state: 'confirmed', year: 10, source: 'register' } });
      expect(rows.get('LC-4'), query).toMatchObject({ colour: 'nok', ledger: null });
      expect(rows.get('LC-5'), query).toMatchObject({ colour: 'nok', ledger: null });
    }
    // An admin reads every patent: the other client's payment shows.
    expect((await listed(admin.client)).get('LC-4')).toMatchObject({ colour: 'ok', ledger: { state: 'paid', year: 10 } });
  });
});
