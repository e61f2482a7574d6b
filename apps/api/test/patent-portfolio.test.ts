import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { cabinets, currencyRates, mails, patentExportBatches, patentInstructionEvents, patentRecords, patentReminders, receiptUploads, receipts, userCabinets } from '@portal/db';
import { exportOneBatch, runPatentReminders, writeLedger } from '@portal/jobs';
import { xlsxBuffer } from '../../../packages/annuities/test/support/workbooks.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

const TODAY = '2027-03-01';
const SYNC_KEY = 'sync-key-for-tests-0123456789abcdefghijklmnop';
const HEADER = ['idagenda', 'idbrevet', 'code_client', 'cabinet', 'ReferenceClient', 'nosref', 'noDepot', 'NoPublication', 'Pays', 'Origine', 'Depot', 'Expiration', 'DateEcheance', 'Quantieme', 'cost', 'currency', 'TitreAnglais', 'TitreFrancais'];

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function csv(rows: Array<Array<string | number>>): string {
  return [HEADER, ...rows].map((r) => r.map((v) => (/[;"]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v))).join(';')).join('\r\n') + '\r\n';
}

/** The back office's export as a workbook (ExcelJS, another writer than ours). */
function xlsx(rows: Array<Array<string | number | null>>): Promise<Buffer> {
  return xlsxBuffer([{ name: 'portfolio', headers: HEADER, rows }]);
}

function upload(client: TestClient, filename: string, content: Buffer | string) {
  return client.upload('/api/patent_imports', [{ filename, content }]);
}

describe.each(databaseKinds())('patent portfolio back-office loop (%s)', (kind) => {
  let t: TestPortal;
  let admin: { client: TestClient; id: string };
  let agent: { client: TestClient; id: string; email: string };
  let events: Array<{ to: string; event: string; dto: any }>;
  const row = async (idagenda: string) => (await t.portal.ctx.db.select().from(patentRecords).where(eq(patentRecords.idagenda, idagenda)))[0];

  beforeAll(async () => {
    t = await startTestPortal(kind, { PATENT_SYNC_API_KEY: SYNC_KEY });
    t.clock.advance(Date.parse(`${TODAY}T12:00:00Z`) - t.clock.now().getTime());
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user_agent_annuites');
    await t.portal.ctx.db.insert(currencyRates).values([
      { currency: 'GBP', validFrom: '2026-01-01', eurPerUnit: '1.10000000' },
      { currency: 'GBP', validFrom: '2027-01-01', eurPerUnit: '1.20000000' },
      { currency: 'SEK', validFrom: '2020-01-01', eurPerUnit: '0.09000000' },
    ]);
    // The in-process publisher is what the inline jobs publish through: listen to it.
    events = [];
    const realtime = t.portal.ctx.realtime;
    const toUser = realtime.toUser.bind(realtime);
    const toAdmins = realtime.toAdmins.bind(realtime);
    realtime.toUser = ((userId: string, event: string, dto: unknown) => {
      events.push({ to: userId, event, dto });
      (toUser as (...args: unknown[]) => void)(userId, event, dto);
    });
    realtime.toAdmins = ((event: string, dto: unknown) => {
      events.push({ to: 'admins', event, dto });
      (toAdmins as (...args: unknown[]) => void)(event, dto);
    });
  }, 120_000);
  afterAll(async () => t?.close());

  const file = csv([
    ['A-1', 'B-1', 'C1', 'Cabinet Un', 'REF-1', 'N1', 'FR1000001', 'FR2000001', 'FR', 'national', '2019-05-10', '2039-05-10', '2027-05-31', 9, '136', 'EUR', 'Title', 'Titre'],
    // Due date, annuity number and fee computed by the engine from office, origin and filing date.
    ['A-2', '', 'C1', 'Cabinet Un', 'REF-2', '', 'DE102020004488', '', 'DE', '', '2020-06-15', '', '', '', '', '', '', ''],
    // A fee in pounds: converted with the rate valid on the due date (1.2 from 2027).
    ['A-3', '', 'C2', 'Cabinet Deux', 'REF-3', '', 'GB1800003', '', 'GB', 'national', '2018-01-01', '', '2027-06-30', 10, '100', 'GBP', '', ''],
    ['A-4', '', 'C2', 'Cabinet Deux', '', '', '', '', 'FR', '', '', '', '2027-06-30', 3, '50', 'XYZ', '', ''],
    ['A-5', '', '', 'Cabinet Deux', '', '', '', '', 'FR', '', '', '', '2027-06-30', 3, '50', 'EUR', '', ''],
    ['A-6', '', 'C2', 'Cabinet Deux', '', '', '', '', 'FR', '', '', '', '31/13/2027', 3, '50', 'EUR', '', ''],
    ['A-1', '', 'C1', 'Cabinet Un', '', '', '', '', 'FR', '', '', '', '2027-06-30', 3, '50', 'EUR', '', ''],
    // Issue 25 §3: a formula-prefixed identifier, a negative cost, a number outside the office's format are refused.
    ['A-7', '', 'C2', 'Cabinet Deux', '=HYPERLINK("x")', '', '', '', 'FR', '', '', '', '2027-06-30', 3, '50', 'EUR', '', ''],
    ['A-8', '', 'C2', 'Cabinet Deux', 'REF-8', '', '', '', 'FR', '', '', '', '2027-06-30', 3, '-50', 'EUR', '', ''],
    ['A-9', '', 'C2', 'Cabinet Deux', 'REF-9', '', 'FR12', '', 'FR', '', '', '', '2027-06-30', 3, '50', 'EUR', '', ''],
  ]);
  let firstImport: string;

  it('an admin imports a CSV: rows upserted by idagenda, missing fields computed, fees converted, refused rows counted with their reason', async () => {
    const res = await upload(admin.client, 'portfolio.csv', file);
    expect(res.status).toBe(200);
    expect(res.body.patent_import.state).toBe('in_progress');
    firstImport = res.body.patent_import._id;
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${firstImport}`);
    expect(done.status).toBe(200);
    expect(done.body.patent_import).toMatchObject({ state: 'Done', rows_total: 10, rows_done: 10, inserted: 3, updated: 0, unchanged: 0, rejected: 7 });
    expect(done.body.patent_import.rejections).toEqual([
      { row: 5, code: 'unknown_currency', field: 'currency' },
      { row: 6, code: 'missing_client_code' },
      { row: 7, code: 'invalid_date', field: 'DateEcheance' },
      { row: 8, code: 'duplicate_idagenda', field: 'idagenda' },
      { row: 9, code: 'formula_not_allowed', field: 'ReferenceClient' },
      { row: 10, code: 'invalid_cost', field: 'cost' },
      { row: 11, code: 'invalid_application_number', field: 'noDepot' },
    ]);
    expect(await row('A-7')).toBeUndefined();
    const a1 = (await row('A-1'))!;
    expect(a1).toMatchObject({ clientCode: 'C1', pays: 'FR', dateEcheance: '2027-05-31', quantieme: 9, cost: '136.00', version: 1, instructionStatus: 'unprocessed' });
    // DE, filed 2020-06-15: the engine's next annuity after 2027-03-01 is the 8th, due at the end of June 2027 (DE: month end), 280 €.
    const a2 = (await row('A-2'))!;
    expect(a2.dateEcheance).toBe('2027-06-30');
    expect(a2.quantieme).toBe(8);
    expect(a2.cost).toBe('280.00');
    expect((await row('A-3'))!.cost).toBe('120.00');
    // The unknown firm was created (decision 106).
    expect((await t.portal.ctx.db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Deux'))).length).toBe(1);
  });

  it('progress goes live to the uploader and the admins, with rows_done / rows_total', async () => {
    const mine = events.filter((e) => e.event === 'patents:import:updated' && e.dto._id === firstImport);
    expect(mine.some((e) => e.to === admin.id && e.dto.state === 'in_progress')).toBe(true);
    expect(mine.some((e) => e.to === 'admins' && e.dto.state === 'Done' && e.dto.rows_done === 10 && e.dto.rows_total === 10)).toBe(true);
    expect(mine.some((e) => e.to === admin.id && e.dto.state === 'Done')).toBe(true);
  });

  it('the same file again changes nothing: 0 inserted, 0 updated, no version bump', async () => {
    const before = await t.portal.ctx.db.select({ idagenda: patentRecords.idagenda, version: patentRecords.version, updatedAt: patentRecords.updatedAt }).from(patentRecords).orderBy(asc(patentRecords.idagenda));
    t.clock.advance(1000);
    const res = await upload(admin.client, 'portfolio-again.csv', file);
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${res.body.patent_import._id}`);
    expect(done.body.patent_import).toMatchObject({ state: 'Done', inserted: 0, updated: 0, unchanged: 3, rejected: 7 });
    const after = await t.portal.ctx.db.select({ idagenda: patentRecords.idagenda, version: patentRecords.version, updatedAt: patentRecords.updatedAt }).from(patentRecords).orderBy(asc(patentRecords.idagenda));
    expect(after).toEqual(before);
    const list = await admin.client.get('/api/patent_imports?limit=1');
    expect(list.body.patent_imports[0]._id).toBe(res.body.patent_import._id);
    expect(list.body.meta.total).toBe(2);
  });

  it('an xlsx import is read with the workbook reader; a changed row is updated and its version bumped', async () => {
    const bytes = await xlsx([
      ['A-1', 'B-1', 'C1', 'Cabinet Un', 'REF-1 changed', 'N1', 'FR1000001', 'FR2000001', 'FR', 'national', '2019-05-10', '2039-05-10', '2027-05-31', 9, 136, 'EUR', 'Title', 'Titre'],
      ['X-1', null, 'C3', 'Cabinet Un', 'REF-X', null, 'SE1500001', null, 'SE', null, '2015-03-31', null, null, null, null, null, null, null],
    ]);
    const res = await upload(admin.client, 'portfolio.xlsx', bytes);
    expect(res.status).toBe(200);
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${res.body.patent_import._id}`);
    expect(done.body.patent_import).toMatchObject({ state: 'Done', inserted: 1, updated: 1, unchanged: 0, rejected: 0 });
    expect((await row('A-1'))!).toMatchObject({ referenceClient: 'REF-1 changed', version: 2 });
    // SE fee in crowns, converted at 0.09.
    const x1 = (await row('X-1'))!;
    expect(x1.dateEcheance).not.toBeNull();
    expect(Number(x1.cost)).toBeGreaterThan(0);
  });

  it('a file that is not what its name says, or without an idagenda column, is refused', async () => {
    const pdf = await upload(admin.client, 'portfolio.xlsx', '%PDF-1.7 not a workbook');
    expect(pdf.status).toBe(415);
    expect(pdf.body.code).toBe('wrong_import_type');
    const noHeader = await upload(admin.client, 'other.csv', 'a;b;c\r\n1;2;3\r\n');
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${noHeader.body.patent_import._id}`);
    expect(done.body.patent_import).toMatchObject({ state: 'Error', error_code: 'headers_not_found' });
    // Issue 26: a 0-byte workbook or CSV is the receipts' "empty file", not a wrong type.
    for (const name of ['empty.xlsx', 'empty.csv']) {
      const empty = await upload(admin.client, name, Buffer.alloc(0));
      expect([empty.status, empty.body.code, empty.body.message]).toEqual([400, 'empty_file', 'The file is empty.']);
    }
    const txt = await upload(admin.client, 'portfolio.txt', 'idagenda\r\n');
    expect(txt.status).toBe(415);
    expect(txt.body.code).toBe('wrong_import_type');
    // A zip that is no workbook: read in the workbook thread, refused with the reader's reason, no retry.
    const broken = await upload(admin.client, 'broken.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    expect(broken.status).toBe(200);
    await t.drainQueue();
    const brokenDone = await admin.client.get(`/api/patent_imports/${broken.body.patent_import._id}`);
    expect(brokenDone.body.patent_import.state).toBe('Error');
    expect(brokenDone.body.patent_import.error_code).not.toBeNull();
  });

  it('imports: admins only; an unknown import is a 404', async () => {
    expect((await upload(agent.client, 'p.csv', file)).status).toBe(403);
    expect((await agent.client.get('/api/patent_imports')).status).toBe(403);
    expect((await t.client().get('/api/patent_imports')).status).toBe(401);
    expect((await admin.client.get('/api/patent_imports/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  const syncRow = { idagenda: 'S-1', code_client: 'C1', cabinet: 'Cabinet Un', Pays: 'EP', Origine: 'ep_application', Depot: '2018-02-01', DateEcheance: '2027-02-28', Quantieme: 10, cost: 1775 };

  it('sync: no key configured is a 404, a missing or wrong key a 401, the right key upserts without session or Origin', async () => {
    const machine = t.client({ origin: null });
    const config = t.portal.ctx.config.patentSync;
    config.apiKey = undefined;
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] }, { authorization: `Bearer ${SYNC_KEY}` })).status).toBe(404);
    config.apiKey = SYNC_KEY;
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] })).status).toBe(401);
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] }, { authorization: `Bearer ${SYNC_KEY}x` })).status).toBe(401);
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] }, { authorization: 'Basic abc' })).status).toBe(401);
    // An admin's session is not the integration's key.
    expect((await admin.client.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] })).status).toBe(401);
    const ok = await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow, { ...syncRow, idagenda: 'S-2', cost: 10, currency: 'XYZ' }] }, { authorization: `Bearer ${SYNC_KEY}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, inserted: 1, updated: 0, unchanged: 0, rejected: 1, flagged: 0, rejections: [{ row: 2, code: 'unknown_currency', field: 'currency' }] });
    const again = await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [syncRow] }, { authorization: `Bearer ${SYNC_KEY}` });
    expect(again.body).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    const tooMany = await machine.put('/api/brevet_eptane/sync', { brevet_eptane: Array.from({ length: 1001 }, (_v, i) => ({ ...syncRow, idagenda: `T-${i}` })) }, { authorization: `Bearer ${SYNC_KEY}` });
    expect(tooMany.status).toBe(400);
  });

  it('sync: an instruction the back office changes is audited with source sync; absent, the portal’s stays', async () => {
    const machine = t.client({ origin: null });
    const auth = { authorization: `Bearer ${SYNC_KEY}` };
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...syncRow, id_instruction: 2 }] }, auth)).body).toMatchObject({ updated: 1 });
    const s1 = (await row('S-1'))!;
    expect(s1).toMatchObject({ instructionId: 2, instructionStatus: 'processed', version: 2 });
    const trail = await t.portal.ctx.db.select().from(patentInstructionEvents).where(eq(patentInstructionEvents.patentId, s1.id));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ source: 'sync', oldInstructionId: null, newInstructionId: 2, oldStatus: 'unprocessed', newStatus: 'processed', userId: null });
    // Without id_instruction the row's other fields change and the instruction stays.
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...syncRow, ReferenceClient: 'NEW' }] }, auth)).body).toMatchObject({ updated: 1 });
    expect((await row('S-1'))!).toMatchObject({ instructionId: 2, referenceClient: 'NEW' });
    expect(await t.portal.ctx.db.select().from(patentInstructionEvents).where(eq(patentInstructionEvents.patentId, s1.id))).toHaveLength(1);
    const unknown = await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...syncRow, id_instruction: 9 }] }, auth);
    expect(unknown.body.rejections).toEqual([{ row: 1, code: 'unknown_instruction', field: 'id_instruction' }]);
  });

  it('sync is documented in OpenAPI with its bearer security scheme', async () => {
    const doc = await t.client().get('/api/openapi.json');
    expect(doc.body.components.securitySchemes.patentSync).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.body.paths['/api/brevet_eptane/sync'].put.security).toEqual([{ apiKey: [], patentSync: [] }]);
  });

  it('export: validated and not exported patents go to one batch (xlsx and csv), stamped once; an empty run writes nothing', async () => {
    const db = t.portal.ctx.db;
    await db.update(patentRecords).set({ instructionId: 1, instructionStatus: 'validated' }).where(inArray(patentRecords.idagenda, ['A-1', 'A-3']));
    // A formula stored before the import refused them (issue 25 §3) is still neutralised on the way out.
    await db.update(patentRecords).set({ referenceClient: '=HYPERLINK("x")' }).where(eq(patentRecords.idagenda, 'A-3'));
    // A-1's year is paid by a receipt (decision 198): the export carries the ledger's state, the day and the receipt.
    const a1 = (await row('A-1'))!;
    const [up] = await db.insert(receiptUploads).values({ ownerId: admin.id, originalName: 'r.pdf', storageKey: 'receipts/uploads/export-test.pdf', size: 1, sha256: 'x' }).returning();
    const [paidBy] = await db.insert(receipts).values({ uploadId: up!.id, entryIndex: 0, fileName: 'R-0001.pdf', storageKey: 'receipts/export-test-0.pdf', size: 1, source: 'none' }).returning();
    await db.transaction((tx) => writeLedger(tx, [{ recordId: a1.id, event: { kind: 'receipt', source: 'staff', receiptId: paidBy!.id, paidOn: '2027-02-12', amount: null, currency: null } }], { at: new Date() }));
    expect((await row('A-1'))!.ledgerState).toBe('paid');
    const res = await admin.client.post('/api/patent_exports', {});
    expect(res.status).toBe(200);
    await t.drainQueue();
    const list = await admin.client.get('/api/patent_exports');
    expect(list.body.patent_exports).toHaveLength(1);
    const batch = list.body.patent_exports[0];
    expect(batch.patent_count).toBe(2);
    expect(batch.name).toMatch(/^\d{4}-\d{2}-\d{2}_\d{6}-[0-9a-f-]{36}$/);
    const stamped = await db.select().from(patentRecords).where(isNotNull(patentRecords.exportedAt));
    expect(stamped.map((p) => p.idagenda).sort()).toEqual(['A-1', 'A-3']);
    expect(new Set(stamped.map((p) => p.exportBatchId))).toEqual(new Set([batch._id]));

    const csvFile = await admin.client.get(`/api/patent_exports/${batch._id}/download?format=csv`);
    expect(csvFile.status).toBe(200);
    expect(csvFile.headers.get('content-disposition')).toContain(`${batch.name}.csv`);
    expect(csvFile.text).toContain('A-1;B-1;C1;Cabinet Un;REF-1 changed');
    const csvRows = csvFile.text.replace(/^\ufeff/, '').split('\r\n');
    // The ledger's four columns end the file (after the cost parts, decision 199).
    const header = csvRows[0]!.split(';');
    expect(header.slice(-4)).toEqual(['ledger_state', 'paid_on', 'receipt_id', 'receipt_file']);
    const columns = (row: string, names: string[]) => names.map((n) => row.split(';')[header.indexOf(n)]);
    const ledgerColumns = ['traitement_instruction', 'ledger_state', 'paid_on', 'receipt_id', 'receipt_file'];
    // Hand-written: A-1 validated (ordered on the ledger), then the receipt's payment; A-3 has no ledger row (set by hand above).
    expect(columns(csvRows.find((r) => r.startsWith('A-1;'))!, ledgerColumns)).toEqual(['validated', 'paid', '2027-02-12', paidBy!.id, 'R-0001.pdf']);
    expect(columns(csvRows.find((r) => r.startsWith('A-3;'))!, ledgerColumns)).toEqual(['validated', '', '', '', '']);
    // Formula injection neutralised as the xlsx writer's callers do.
    expect(csvFile.text).toContain(`"'=HYPERLINK(""x"")"`);
    const xlsxFile = await fetch(`${t.url}/api/patent_exports/${batch._id}/download`, { headers: { cookie: admin.client.cookieHeader(), 'x-api-key': t.config.security.apiKey } });
    expect(xlsxFile.status).toBe(200);
    expect(Buffer.from(await xlsxFile.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    expect((await admin.client.get('/api/patent_exports/00000000-0000-4000-8000-000000000000/download')).status).toBe(404);
    expect((await admin.client.get(`/api/patent_exports/${batch._id}/download?format=pdf`)).status).toBe(400);

    // Nothing left: a run writes no batch and no file.
    const deps = { db, storage: t.portal.ctx.storage, logger: t.portal.ctx.logger, clock: t.clock };
    expect(await exportOneBatch(deps)).toBeNull();
    expect(await db.select().from(patentExportBatches)).toHaveLength(1);
  });

  it('export: two runs at once never export a patent twice', async () => {
    const db = t.portal.ctx.db;
    const cabinet = (await db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Un')))[0]!;
    await db.insert(patentRecords).values(Array.from({ length: 40 }, (_v, i) => ({ idagenda: `E-${i}`, cabinetId: cabinet.id, clientCode: 'C1', pays: 'FR', instructionId: 1, instructionStatus: 'validated' as const })));
    const deps = { db, storage: t.portal.ctx.storage, logger: t.portal.ctx.logger, clock: t.clock };
    const [one, two] = await Promise.all([exportOneBatch(deps, 25), exportOneBatch(deps, 25)]);
    const three = await exportOneBatch(deps, 25);
    const counts = [one, two, three].map((b) => b?.count ?? 0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
    const batches = await db.select().from(patentExportBatches);
    expect(batches.reduce((sum, b) => sum + b.patentCount, 0)).toBe(42);
    const exported = await db.select({ batch: patentRecords.exportBatchId }).from(patentRecords).where(isNotNull(patentRecords.exportedAt));
    expect(exported).toHaveLength(42);
  });

  it('exports: admins only', async () => {
    expect((await agent.client.post('/api/patent_exports', {})).status).toBe(403);
    expect((await agent.client.get('/api/patent_exports')).status).toBe(403);
    expect((await t.client().get('/api/patent_exports')).status).toBe(401);
  });

  describe('reminders', () => {
    const seeds: Record<string, string> = {};
    let cabinetId: string;
    const deps = () => ({ db: t.portal.ctx.db, logger: t.portal.ctx.logger, clock: t.clock });
    const reminderMails = async () => t.portal.ctx.db.select().from(mails).where(eq(mails.template, 'patent_reminder')).orderBy(asc(mails.createdAt));

    beforeAll(async () => {
      const db = t.portal.ctx.db;
      const [cab] = await db.insert(cabinets).values({ name: 'Cabinet Rappels' }).returning();
      const [other] = await db.insert(cabinets).values({ name: 'Cabinet Autre' }).returning();
      cabinetId = cab!.id;
      await db.insert(userCabinets).values({ userId: agent.id, cabinetId });
      // Limit date = due date − 7: days left until the limit → step.
      const due = (daysLeft: number) => addDays(TODAY, daysLeft + 7);
      const values = [
        { idagenda: 'R-first', dateEcheance: due(20), cost: '100.00' },
        { idagenda: 'R-reminder', dateEcheance: due(10), cost: '50.50' },
        { idagenda: 'R-last', dateEcheance: due(3), cost: null },
        { idagenda: 'R-far', dateEcheance: due(31) },
        { idagenda: 'R-passed', dateEcheance: due(-1) },
        { idagenda: 'R-given', dateEcheance: due(10), instructionId: 1, instructionStatus: 'processed' as const },
        { idagenda: 'R-acquitted', dateEcheance: due(10), dateAcquit: '2027-01-01' },
      ];
      const rows = await db
        .insert(patentRecords)
        .values([
          ...values.map((v) => ({ cabinetId, clientCode: 'ZZ', pays: 'FR', referenceClient: v.idagenda, numeroDepot: `D-${v.idagenda}`, ...v })),
          { idagenda: 'R-other', cabinetId: other!.id, clientCode: 'ZZ', pays: 'FR', dateEcheance: due(10) },
        ])
        .returning();
      for (const r of rows) seeds[r.idagenda] = r.id;
    });

    it('run twice the same day: each due reminder is sent once (one mail per step, fees and total)', async () => {
      const first = await runPatentReminders(deps(), TODAY);
      expect(first.mails).toBe(3);
      expect(first.reminders).toBe(3);
      const second = await runPatentReminders(deps(), TODAY);
      expect(second).toMatchObject({ mails: 0, reminders: 0 });
      const sent = await t.portal.ctx.db.select().from(patentReminders).where(eq(patentReminders.userId, agent.id));
      expect(sent.map((r) => `${r.step}:${Object.entries(seeds).find(([, id]) => id === r.patentId)![0]}`).sort()).toEqual(['first_call:R-first', 'last_call:R-last', 'reminder:R-reminder']);
      const list = await reminderMails();
      expect(list).toHaveLength(3);
      expect(new Set(list.map((m) => m.recipient))).toEqual(new Set([agent.email]));
      const reminder = list.find((m) => m.params.step === 'Reminder')!;
      expect(reminder.locale).toBe('en');
      expect(reminder.params.rows).toContain('R-reminder | application D-R-reminder | FR | due 2027-03-18 | limit 2027-03-11');
      expect(reminder.params.total).toBe('€50.50');
      expect(reminder.params.count).toBe('1');
    });

    it('the queue’s run (by hand, as the schedule does) sends nothing more the same day', async () => {
      const res = await admin.client.post('/api/patent_reminders', {});
      expect(res.status).toBe(200);
      await t.drainQueue();
      expect(await reminderMails()).toHaveLength(3);
      expect((await agent.client.post('/api/patent_reminders', {})).status).toBe(403);
    });

    it('a later day sends the next step once; an instruction given stops the next steps', async () => {
      const db = t.portal.ctx.db;
      await db.update(patentRecords).set({ instructionId: 2, instructionStatus: 'processed' }).where(eq(patentRecords.id, seeds['R-reminder']!));
      // Six days on: R-first has 14 days left (reminder), R-far 25 (first call), R-reminder has an
      // instruction (no last call for it), R-last is past its limit.
      const later = addDays(TODAY, 6);
      const run = await runPatentReminders(deps(), later);
      expect(run).toMatchObject({ mails: 2, reminders: 2 });
      expect(await runPatentReminders(deps(), later)).toMatchObject({ mails: 0, reminders: 0 });
      const steps = await db
        .select({ step: patentReminders.step })
        .from(patentReminders)
        .where(and(eq(patentReminders.userId, agent.id), eq(patentReminders.patentId, seeds['R-first']!)));
      expect(steps.map((s) => s.step).sort()).toEqual(['first_call', 'reminder']);
      const remindedOfGiven = await db.select().from(patentReminders).where(eq(patentReminders.patentId, seeds['R-reminder']!));
      expect(remindedOfGiven.map((r) => r.step)).toEqual(['reminder']);
    });

    it('run by the queue, the reminder mails are handed to the mail queue and reach the outbox', async () => {
      const late = await t.createUser('user_agent_annuites');
      await t.portal.ctx.db.insert(userCabinets).values({ userId: late.id, cabinetId });
      expect((await admin.client.post('/api/patent_reminders', {})).status).toBe(200);
      await t.drainQueue();
      const mine = t.outbox().filter((m) => m.raw.includes(late.email));
      expect(mine).toHaveLength(2);
      expect(mine.some((m) => /Subject: Final reminder: patent annuities waiting for your instruction \(1\)/.test(m.raw))).toBe(true);
      expect(mine.some((m) => m.raw.includes('R-first | application D-R-first | FR | due 2027-03-28 | limit 2027-03-21 | =\r\nfee =E2=82=AC100.00') || m.raw.includes('R-first | application D-R-first | FR | due 2027-03-28 | limit 2027-03-21 | =\nfee =E2=82=AC100.00'))).toBe(true);
    });

    it('a French agent gets French text', async () => {
      const fr = await t.createUser('user_agent_annuites', { langue: 'fr' });
      await t.portal.ctx.db.insert(userCabinets).values({ userId: fr.id, cabinetId });
      await runPatentReminders(deps(), addDays(TODAY, 6));
      const mine = (await reminderMails()).filter((m) => m.recipient === fr.email);
      expect(mine.map((m) => m.params.step).sort()).toEqual(['Premier rappel', 'Relance']);
      const relance = mine.find((m) => m.params.step === 'Relance')!;
      expect(relance.locale).toBe('fr');
      expect(relance.params.rows).toContain('R-first | dépôt D-R-first | FR | échéance 28/03/2027 | date limite 21/03/2027 | taxe 100,00');
      expect(relance.params.total).toMatch(/^100,00\s€$/);
    });
  });
});
