import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { annuityFiles, annuityPatents, cabinets, patentLedger, patentRecords, userCabinets } from '@portal/db';
import { writeLedger } from '@portal/jobs';
import { and, eq, sql } from 'drizzle-orm';
import { colourReads, countsWith, fileColours, outdatedStatements, type FileColours } from '../src/modules/annuities/file-colours.ts';
import { ENGLISH_HEADERS, xlsxBuffer, type Cell } from '../../../packages/annuities/test/support/workbooks.ts';
import { downloadExport } from './support/annuity-exports.ts';
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
  let theirsCabinet: string;

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_RATE_LIMIT: '1000' });
    const realNow = t.clock.now().getTime();
    t.clock.advance(Date.parse(`${TODAY}T12:00:00Z`) - realNow);
    owner = await t.loginAs('user_annuites');
    admin = await t.loginAs('admin');
    const db = t.portal.ctx.db;
    const [mine] = await db.insert(cabinets).values({ name: 'Ledger colours, mine' }).returning();
    const [theirs] = await db.insert(cabinets).values({ name: 'Ledger colours, theirs' }).returning();
    theirsCabinet = theirs!.id;
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
    const [row] = await t.portal.ctx.db.select({ linked: annuityFiles.linkedRows }).from(annuityFiles).where(eq(annuityFiles.id, file._id));
    expect(row!.linked).toBe(4);
  });

  it('a file without linked rows asks the ledger nothing for its counts, filter and colour sort', async () => {
    const rows: Cell[][] = [['FR3999991', null, 'LC-U', 'Unlinked', 'FR', null, FILING, null, 9, null, null]];
    const res = await owner.client.upload('/api/brevets/annuite', [{ filename: 'unlinked.xlsx', content: await xlsxBuffer([{ name: 'S', headers: HEADERS, rows }]) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const unlinked = await settled(owner.client, res.body._id as string);
    const before = colourReads();
    for (const query of ['limit=30', 'limit=30&colour=nok', 'limit=30&sort=colour&order=desc']) {
      const page = await owner.client.get(`/api/brevets/file/${unlinked._id}?${query}`);
      expect(page.status).toBe(200);
      expect((page.body.file as AnnuityFileDto).counts, query).toEqual({ ok: 0, nok: 1, orange: 0, no_date: 0 });
    }
    expect(colourReads()).toBe(before);
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

  it('the annotated export says what the reader’s rows say: the ledger’s fill, colour and reason (decision 234)', async () => {
    const exported = async (client: TestClient) => {
      const ws = (await downloadExport(client, file)).worksheets[0]!;
      const colour = (ws.getRow(1).values as unknown[]).lastIndexOf('Couleur / Colour');
      const rows = new Map<string, { colour: unknown; reasons: unknown; fill: string | undefined }>();
      ws.eachRow((row, n) => {
        if (n === 1) return;
        const cell = row.getCell(colour);
        rows.set(String(row.getCell(3).value), { colour: cell.value, reasons: row.getCell(colour + 1).value, fill: (cell.fill as ExcelJS.FillPattern).fgColor?.argb });
      });
      return rows;
    };
    const GREEN = 'FFC6EFCE';
    const RED = 'FFFFC7CE';
    const ORANGE = 'FFFFD8A8';
    const mine = await exported(owner.client);
    expect(mine.get('LC-1')).toMatchObject({ colour: 'ok', fill: GREEN, reasons: expect.stringMatching(/ledger_paid$/) });
    expect(String(mine.get('LC-1')!.reasons)).not.toContain('payment_unknown');
    expect(mine.get('LC-2')).toMatchObject({ colour: 'orange', fill: ORANGE, reasons: expect.stringMatching(/ledger_lapsed$/) });
    expect(mine.get('LC-3')).toMatchObject({ colour: 'ok', fill: GREEN, reasons: expect.stringMatching(/ledger_paid$/) });
    // Another client's payment says nothing to this reader; a row outside the portfolio keeps the dates' colour.
    for (const ref of ['LC-4', 'LC-5']) {
      expect(mine.get(ref), ref).toMatchObject({ colour: 'nok', fill: RED });
      expect(String(mine.get(ref)!.reasons), ref).not.toContain('ledger_');
    }
    // An admin reads every patent: the other client's payment shows in the admin's download.
    expect((await exported(admin.client)).get('LC-4')).toMatchObject({ colour: 'ok', fill: GREEN, reasons: expect.stringMatching(/ledger_paid$/) });
    // The stored workbook itself is the dates' (one file for every reader): nothing was written back.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buffer(await t.portal.ctx.storage.get(file.path_export!))) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const colour = (ws.getRow(1).values as unknown[]).lastIndexOf('Couleur / Colour');
    for (let r = 2; r <= 6; r++) expect(ws.getRow(r).getCell(colour).value).toBe('nok');
  });

  // Decision 233: the counts, the colour filter, the colour sort and the bulk comment say what the rows say.
  const ownerCounts = { ok: 2, nok: 2, orange: 1, no_date: 0 };
  const adminCounts = { ok: 3, nok: 1, orange: 1, no_date: 0 };
  const references = async (client: TestClient, query: string) => {
    const res = await client.get(`/api/brevets/file/${file._id}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { refs: (res.body.patents as AnnuityPatentDto[]).map((p) => p.reference), total: res.body.meta.total as number, counts: (res.body.file as AnnuityFileDto).counts };
  };

  it('the per-colour counts are the ledger’s colours, for each reader, in the file list and beside the patents', async () => {
    for (const [client, counts] of [[owner.client, ownerCounts], [admin.client, adminCounts]] as const) {
      for (const query of ['limit=30', 'limit=30&colour=nok', 'limit=all&sort=colour', 'limit=30&search=lc-', 'limit=30&sort=nom&order=desc']) {
        expect((await references(client, query)).counts, query).toEqual(counts);
      }
      const list = await client.get('/api/annuite/files?limit=100');
      expect((list.body.data as AnnuityFileDto[]).find((f) => f._id === file._id)!.counts).toEqual(counts);
    }
  });

  it('the colour filter keeps the rows the ledger gives that colour, with every sort, search and window', async () => {
    const expected: Record<string, string[]> = { nok: ['LC-4', 'LC-5'], ok: ['LC-1', 'LC-3'], orange: ['LC-2'], no_date: [] };
    for (const [colour, refs] of Object.entries(expected)) {
      for (const query of [`limit=30&colour=${colour}`, `limit=all&colour=${colour}`, `limit=30&colour=${colour}&sort=colour`, `limit=30&colour=${colour}&search=lc-`, `limit=30&colour=${colour}&sort=reference`]) {
        const page = await references(owner.client, query);
        expect(page.refs, query).toEqual(refs);
        expect(page.total, query).toBe(refs.length);
      }
      for (const query of [`limit=30&colour=${colour}&order=desc`, `limit=30&colour=${colour}&sort=reference&order=desc`]) {
        expect((await references(owner.client, query)).refs, query).toEqual([...refs].reverse());
      }
    }
    // Sorted by name ('EP validated in GB' before 'Paid'), the column's order filtered by the ledger's colour.
    expect((await references(owner.client, 'limit=30&colour=ok&sort=nom')).refs).toEqual(['LC-3', 'LC-1']);
    // A search the ledger's colour narrows: one of the two rows due by the dates is paid.
    expect(await references(owner.client, 'limit=30&colour=ok&search=paid')).toMatchObject({ refs: ['LC-1'], total: 1 });
    expect(await references(owner.client, 'limit=30&colour=nok&search=paid')).toMatchObject({ refs: [], total: 0 });
    // The admin reads the other client's payment: its row is green for them.
    expect((await references(admin.client, 'limit=30&colour=nok')).refs).toEqual(['LC-5']);
    expect((await references(admin.client, 'limit=30&colour=ok')).refs).toEqual(['LC-1', 'LC-3', 'LC-4']);
  });

  it('the colour sort orders by the ledger’s colours (the file’s order within a colour), both ways', async () => {
    // The colours in the order of their names (the stored sort's): no_date, nok, ok, orange.
    expect((await references(owner.client, 'limit=30&sort=colour')).refs).toEqual(['LC-4', 'LC-5', 'LC-1', 'LC-3', 'LC-2']);
    expect((await references(owner.client, 'limit=all&sort=colour&order=desc')).refs).toEqual(['LC-2', 'LC-3', 'LC-1', 'LC-5', 'LC-4']);
    expect((await references(admin.client, 'limit=30&sort=colour')).refs).toEqual(['LC-5', 'LC-1', 'LC-3', 'LC-4', 'LC-2']);
  });

  it('kept colours are read again once the ledger or the reader’s scope changed, and not before', async () => {
    const db = t.portal.ctx.db;
    const paidYear = and(eq(patentLedger.patentKey, 'LC-PAID'), eq(patentLedger.annuityYear, 10));
    await references(owner.client, 'limit=30');
    const kept = colourReads();
    expect(await references(owner.client, 'limit=30&colour=nok')).toMatchObject({ refs: ['LC-4', 'LC-5'], counts: ownerCounts });
    expect(colourReads(), 'nothing changed: the kept colours').toBe(kept);
    await db.update(patentLedger).set({ state: 'due' }).where(paidYear);
    try {
      expect(await references(owner.client, 'limit=30&colour=nok')).toMatchObject({ refs: ['LC-1', 'LC-4', 'LC-5'], counts: { ...ownerCounts, ok: 1, nok: 3 } });
      expect(colourReads(), 'the ledger changed: read again').toBe(kept + 1);
    } finally {
      await db.update(patentLedger).set({ state: 'paid' }).where(paidYear);
    }
    expect((await references(owner.client, 'limit=30')).counts).toEqual(ownerCounts);
    // The reader's scope: in the other client's cabinet, its payment shows.
    await db.insert(userCabinets).values({ userId: owner.id, cabinetId: theirsCabinet });
    try {
      expect(await references(owner.client, 'limit=30&colour=ok')).toMatchObject({ refs: ['LC-1', 'LC-3', 'LC-4'], counts: adminCounts });
    } finally {
      await db.delete(userCabinets).where(and(eq(userCabinets.userId, owner.id), eq(userCabinets.cabinetId, theirsCabinet)));
    }
    expect((await references(owner.client, 'limit=30')).counts).toEqual(ownerCounts);
  });

  it('readers of a file at once share the kept colours’ checks (two statements for twenty), and a change committed before a request shows in its answer', async () => {
    const db = t.portal.ctx.db;
    const [row] = await db.select().from(annuityFiles).where(eq(annuityFiles.id, file._id));
    const reader = { isAdmin: false, userId: owner.id };
    const paidYear = and(eq(patentLedger.patentKey, 'LC-PAID'), eq(patentLedger.annuityYear, 10));
    const okOf = (colours: FileColours) => countsWith({ ok: 0, nok: 0, orange: 0, no_date: 0 }, colours).ok;
    const keptOk = okOf((await fileColours({ db }, reader, [row!])).get(file._id)!);
    const before = outdatedStatements(db);
    const answers = await Promise.all(Array.from({ length: 20 }, () => fileColours({ db }, reader, [row!])));
    expect(answers.map((a) => okOf(a.get(file._id)!))).toEqual(Array(20).fill(keptOk));
    expect(outdatedStatements(db) - before).toBeGreaterThanOrEqual(1);
    expect(outdatedStatements(db) - before).toBeLessThanOrEqual(2);
    // A check under way answers the readers who came before it; one who comes after a commit waits for the next check.
    const early = fileColours({ db }, reader, [row!]);
    await db.update(patentLedger).set({ state: 'due' }).where(paidYear);
    try {
      const late = await fileColours({ db }, reader, [row!]);
      expect(okOf(late.get(file._id)!), 'the change committed before the request').toBe(keptOk - 1);
      await early;
    } finally {
      await db.update(patentLedger).set({ state: 'paid' }).where(paidYear);
    }
    expect(okOf((await fileColours({ db }, reader, [row!])).get(file._id)!)).toBe(keptOk);
  });

  it.runIf(kind === 'postgres')('a change committed after the snapshot of kept colours shows, even when its transaction began before it', async () => {
    const db = t.portal.ctx.db;
    const paidYear = and(eq(patentLedger.patentKey, 'LC-PAID'), eq(patentLedger.annuityYear, 10));
    // A noted write: whatever was kept is read again, under the snapshot taken inside the transaction below.
    await db.update(patentLedger).set({ state: 'paid' }).where(paidYear);
    try {
      await db.transaction(async (tx) => {
        await tx.update(patentLedger).set({ state: 'due' }).where(paidYear);
        // A later transaction ends meanwhile (pool, another connection): the next snapshot lists this one as running
        // (in its `xip`) rather than beyond its `xmax`.
        await db.execute(sql`select pg_current_xact_id()`);
        const before = colourReads();
        // Another connection answers meanwhile: its snapshot does not see this transaction, its colours are kept.
        expect((await references(owner.client, 'limit=30')).counts).toEqual(ownerCounts);
        expect(colourReads()).toBe(before + 1);
      });
      expect((await references(owner.client, 'limit=30')).counts).toEqual({ ...ownerCounts, ok: 1, nok: 3 });
    } finally {
      await db.update(patentLedger).set({ state: 'paid' }).where(paidYear);
    }
  });

  it('the search across files colours its hits by the reader’s ledger too', async () => {
    const hits = async (client: TestClient) => {
      const res = await client.get('/api/annuite/research?q=lc-&limit=50');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new Map((res.body.data as Array<{ patent: AnnuityPatentDto }>).filter((h) => h.patent.file_id === file._id).map((h) => [h.patent.reference, h.patent]));
    };
    const mine = await hits(owner.client);
    expect(mine.get('LC-1')).toMatchObject({ colour: 'ok', ledger: { state: 'paid', year: 10 } });
    expect(mine.get('LC-2')).toMatchObject({ colour: 'orange', ledger: { state: 'lapsed' } });
    expect(mine.get('LC-4')).toMatchObject({ colour: 'nok', ledger: null });
    expect((await hits(admin.client)).get('LC-4')).toMatchObject({ colour: 'ok', ledger: { state: 'paid' } });
  });

  it('an edit’s answer, which replaces the row on screen, says what the ledger says', async () => {
    const paid = (await listed(owner.client)).get('LC-1')!;
    const res = await owner.client.put(`/api/brevets/annuite/${paid._id}`, { quant_precedent: 9 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.patent).toMatchObject({ reference: 'LC-1', next_number: 10, colour: 'ok', ledger: { state: 'paid', year: 10 } });
    expect((await references(owner.client, 'limit=30')).counts).toEqual(ownerCounts);
  });

  it('the bulk comment over a colour comments the rows the modal shows in it', async () => {
    const res = await owner.client.put(`/api/brevets/file/${file._id}/comment`, { colour: 'nok', except: [], comment: 'Due by the ledger too' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = await listed(owner.client);
    expect([...rows].filter(([, p]) => p.commentaire === 'Due by the ledger too').map(([ref]) => ref).sort()).toEqual(['LC-4', 'LC-5']);
  });
});
