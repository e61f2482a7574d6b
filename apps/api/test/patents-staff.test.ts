import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { PatentRecordDto } from '@portal/contracts';
import { patentRecords, userCabinets } from '@portal/db';
import { agendas, startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient, type TestPortal } from './support/portal.ts';

/** The spec's four meta fields (the optional extras of decision 174 — cursors, total_more — are tested in patent-list-paging.test.ts). */
const specMeta = ({ currentPage, totalPages, pageSize, total }: { currentPage: number; totalPages: number; pageSize: number; total: number }) => ({ currentPage, totalPages, pageSize, total });

const TODAY = '2027-03-01';
const FR = { 'accept-language': 'fr' };

describe.each(databaseKinds())('patents: missing information and validation (%s)', (kind) => {
  let t: TestPortal;
  let cabinetA: string;
  let cabinetB: string;
  let agentA: { client: TestClient; id: string };
  let adminTest: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let annuities: { client: TestClient; id: string };
  let world: PatentWorld;
  let ids: Record<string, string>;
  const seed: PatentWorld['seed'] = (rows) => world.seed(rows);
  const row: PatentWorld['row'] = (idagenda) => world.row(idagenda);
  const trail: PatentWorld['trail'] = (idagenda) => world.trail(idagenda);

  beforeAll(async () => {
    world = await startPatentWorld(kind, TODAY, 'Staff');
    ({ t, cabinetA, cabinetB, ids } = world);
    const db = t.portal.ctx.db;
    agentA = await t.loginAs('user_agent_annuites');
    adminTest = await t.loginAs('admin_test');
    admin = await t.loginAs('admin');
    annuities = await t.loginAs('user_annuites');
    await db.insert(userCabinets).values([
      { userId: agentA.id, cabinetId: cabinetA },
      { userId: adminTest.id, cabinetId: cabinetA },
    ]);
    await seed([
      { idagenda: 'COMPLETE', referenceClient: 'REF-C', numeroDepot: 'EP1', numeroPublication: 'EP11', dateEcheance: '2027-06-01' },
      { idagenda: 'NO-DEPOT', referenceClient: 'REF-B', numeroPublication: 'EP22', dateEcheance: '2027-06-01' },
      { idagenda: 'NO-PUB', referenceClient: 'REF-A', numeroDepot: 'EP3', numeroPublication: '', dateEcheance: '2027-06-01' },
      { idagenda: 'NO-REF', numeroDepot: 'FR4', numeroPublication: 'FR44', pays: 'FR', titreFrancais: 'Pompe à chaleur', dateEcheance: '2027-06-01' },
      { idagenda: 'B-NO-REF', cabinetId: cabinetB, clientCode: 'CODE-B', numeroDepot: 'DE5', numeroPublication: 'DE55', pays: 'DE', dateEcheance: '2027-06-01' },
      { idagenda: 'PROC-1', referenceClient: 'P1', numeroDepot: 'EP-300', numeroPublication: 'X', instructionId: 1, instructionStatus: 'processed', donneurOrdre: 'Cabinet Un', dateEcheance: '2027-06-01' },
      { idagenda: 'PROC-2', referenceClient: 'P2', numeroDepot: 'EP-100', numeroPublication: 'X', instructionId: 2, instructionStatus: 'processed', dateEcheance: '2027-06-01' },
      { idagenda: 'PROC-3', referenceClient: 'P3', numeroDepot: 'EP-200', numeroPublication: 'X', instructionId: 4, instructionStatus: 'processed', dateEcheance: '2027-06-01' },
      { idagenda: 'B-PROC', cabinetId: cabinetB, clientCode: 'CODE-B', referenceClient: 'PB', numeroDepot: 'EP-050', numeroPublication: 'X', instructionId: 1, instructionStatus: 'processed', dateEcheance: '2027-06-01' },
      { idagenda: 'UNPROC', referenceClient: 'U1', numeroDepot: 'EP-400', numeroPublication: 'X', dateEcheance: '2027-06-01' },
    ]);
  });
  afterAll(async () => t?.close());

  describe('missing information', () => {
    it('admins list patents with an empty application number, publication number or client reference, sorted by client reference, 25 per page', async () => {
      const res = await admin.client.get('/api/brevet_eptane/missing-information');
      expect(res.status).toBe(200);
      // REF-A, REF-B, then the two without a reference (nulls last, ties by id).
      expect(agendas(res.body.brevet_eptane).slice(0, 2)).toEqual(['NO-PUB', 'NO-DEPOT']);
      expect(agendas(res.body.brevet_eptane).slice(2).sort()).toEqual(['B-NO-REF', 'NO-REF']);
      expect(specMeta(res.body.meta)).toEqual({ currentPage: 1, totalPages: 1, pageSize: 25, total: 4 });
      const search = await admin.client.get(`/api/brevet_eptane/missing-information?search=${encodeURIComponent('à chaleur')}`);
      expect(agendas(search.body.brevet_eptane)).toEqual(['NO-REF']);
      const sorted = await admin.client.get('/api/brevet_eptane/missing-information?sort=Pays&order=desc&limit=1&page=1');
      expect(agendas(sorted.body.brevet_eptane)).toEqual(['NO-REF']);
      expect(sorted.body.meta).toMatchObject({ totalPages: 4, pageSize: 1 });
    });

    it('only admins: agents and admin_test 403, annuities users 403, anonymous 401; a bad sort is a 400', async () => {
      for (const who of [agentA, adminTest, annuities]) expect((await who.client.get('/api/brevet_eptane/missing-information')).status).toBe(403);
      expect((await t.client().get('/api/brevet_eptane/missing-information')).status).toBe(401);
      expect((await admin.client.get('/api/brevet_eptane/missing-information?sort=cost')).status).toBe(400);
      expect((await admin.client.get('/api/brevet_eptane/missing-information?limit=0')).status).toBe(400);
    });

    it('fills empty cells with the version read; the patent leaves the list once complete', async () => {
      const before = await row('NO-PUB');
      const res = await admin.client.put('/api/brevet_eptane/update-missing-info/NO-PUB', { NoPublication: ' EP33 ', version: before.version });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.brevet_eptane).toMatchObject({ idagenda: 'NO-PUB', NoPublication: 'EP33', noDepot: 'EP3', version: before.version + 1 });
      expect(await row('NO-PUB')).toMatchObject({ numeroPublication: 'EP33', version: before.version + 1 });
      const list = await admin.client.get('/api/brevet_eptane/missing-information');
      expect(agendas(list.body.brevet_eptane)).not.toContain('NO-PUB');
    });

    it('a cell filled meanwhile is a 409 naming it (translated), a stale version a 409, and nothing is written', async () => {
      const before = await row('NO-DEPOT');
      const filled = await admin.client.put('/api/brevet_eptane/update-missing-info/NO-DEPOT', { noDepot: 'EP16839078.9', ReferenceClient: 'OTHER', version: before.version });
      expect(filled.status).toBe(409);
      expect(filled.body).toMatchObject({ code: 'patent_field_filled', fields: { ReferenceClient: 'patent_field_filled' } });
      const fr = await admin.client.put('/api/brevet_eptane/update-missing-info/NO-DEPOT', { ReferenceClient: 'OTHER', version: before.version }, FR);
      expect(fr.body.message).toMatch(/^Ce champ a été renseigné/);
      const stale = await admin.client.put('/api/brevet_eptane/update-missing-info/NO-DEPOT', { noDepot: 'EP16839078.9', version: before.version + 5 });
      expect([stale.status, stale.body.code]).toEqual([409, 'stale_version']);
      expect(await row('NO-DEPOT')).toEqual(before);
    });

    it('validation: no field is a 400 in both languages, an empty value or a bad country a 400; unknown idagenda 404; agents 403', async () => {
      const none = await admin.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { version: 1 });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ code: 'missing_info_empty', message: 'Fill in at least one empty field.' });
      expect((await admin.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { version: 1 }, FR)).body.message).toBe('Renseignez au moins un champ vide.');
      expect((await admin.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { ReferenceClient: '  ', version: 1 })).status).toBe(400);
      expect((await admin.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { Pays: 'F1', version: 1 })).status).toBe(400);
      expect((await admin.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { cost: 3, version: 1 })).status).toBe(400);
      expect((await admin.client.put('/api/brevet_eptane/update-missing-info/NOPE', { ReferenceClient: 'R', version: 1 })).status).toBe(404);
      expect((await agentA.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { ReferenceClient: 'R', version: 1 })).status).toBe(403);
      expect((await adminTest.client.put('/api/brevet_eptane/update-missing-info/NO-REF', { ReferenceClient: 'R', version: 1 })).status).toBe(403);
      expect((await row('NO-REF')).referenceClient).toBeNull();
    });
  });

  describe('patents to validate', () => {
    it('admins list every processed patent by application number, 10 per page; admin_test its own scope; agents 403', async () => {
      const res = await admin.client.get('/api/brevet_eptane/to_validate');
      expect(res.status).toBe(200);
      expect(agendas(res.body.brevet_eptane)).toEqual(['B-PROC', 'PROC-2', 'PROC-3', 'PROC-1']);
      expect(res.body.meta).toMatchObject({ pageSize: 10, total: 4 });
      expect(res.body.brevet_eptane[3]).toMatchObject({ noDepot: 'EP-300', NoPublication: 'X', ReferenceClient: 'P1', id_instruction: 1, DonneurOrdre: 'Cabinet Un', DonneurOrdreAn: null, version: 1 });
      expect(agendas((await adminTest.client.get('/api/brevet_eptane/to_validate')).body.brevet_eptane)).toEqual(['PROC-2', 'PROC-3', 'PROC-1']);
      expect(agendas((await admin.client.get('/api/brevet_eptane/to_validate?search=cabinet%20un')).body.brevet_eptane)).toEqual(['PROC-1']);
      expect(agendas((await admin.client.get('/api/brevet_eptane/to_validate?sort=id_instruction&order=desc&limit=1')).body.brevet_eptane)).toEqual(['PROC-3']);
      expect((await agentA.client.get('/api/brevet_eptane/to_validate')).status).toBe(403);
      expect((await annuities.client.get('/api/brevet_eptane/to_validate')).status).toBe(403);
      expect((await admin.client.get('/api/brevet_eptane/to_validate?sort=numero')).status).toBe(400);
    });

    const validate = (client: TestClient, patents: Array<{ _id: string; version: number }>, headers?: Record<string, string>) =>
      client.put('/api/brevet_eptane/validate-instruction', { patents }, headers);

    it('one refused row (not processed, stale, out of scope, unknown) validates nothing and lists each refused row by _id', async () => {
      const before = await t.portal.ctx.db.select().from(patentRecords).where(inArray(patentRecords.idagenda, ['PROC-1', 'PROC-2']));
      const unknown = '00000000-0000-4000-8000-000000000000';
      const res = await validate(adminTest.client, [
        { _id: ids['PROC-1']!, version: 1 },
        { _id: ids['PROC-2']!, version: 9 },
        { _id: ids.UNPROC!, version: 1 },
        { _id: ids['B-PROC']!, version: 1 },
        { _id: unknown, version: 1 },
      ]);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('instructions_not_validated');
      expect(res.body.not_updated.map((r: { _id: string; code: string }) => [r._id, r.code])).toEqual([
        [ids['PROC-2'], 'stale_version'],
        [ids.UNPROC, 'instruction_not_processed'],
        [ids['B-PROC'], 'forbidden'],
        [unknown, 'not_found'],
      ]);
      expect(res.body.not_updated[0]).toMatchObject({ idagenda: 'PROC-2', ReferenceClient: 'P2', instructionBeingUpdated: 2, reason: expect.stringMatching(/Someone else/) });
      const fr = await validate(admin.client, [{ _id: ids.UNPROC!, version: 1 }], FR);
      expect(fr.body.message).toMatch(/^Aucune instruction n’a été validée/);
      expect(fr.body.not_updated[0].reason).toBe('Cette instruction n’est plus en attente de validation.');
      expect(await t.portal.ctx.db.select().from(patentRecords).where(inArray(patentRecords.idagenda, ['PROC-1', 'PROC-2']))).toEqual(before);
      expect(await trail('PROC-1')).toEqual([]);
    });

    it('validates all rows at once: processed → validated, version + 1, one audit row each with source validation; twice is a 409', async () => {
      const res = await validate(adminTest.client, [
        { _id: ids['PROC-1']!, version: 1 },
        { _id: ids['PROC-2']!, version: 1 },
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.validated).toBe(2);
      expect(res.body.brevet_eptane.map((p: PatentRecordDto) => [p.idagenda, p.instruction.traitement_instruction, p.version, p.locked])).toEqual([
        ['PROC-1', 'validated', 2, 'instruction_validated'],
        ['PROC-2', 'validated', 2, 'instruction_validated'],
      ]);
      expect(await trail('PROC-1')).toEqual([
        expect.objectContaining({ oldInstructionId: 1, newInstructionId: 1, oldStatus: 'processed', newStatus: 'validated', userId: adminTest.id, source: 'validation' }),
      ]);
      const again = await validate(admin.client, [{ _id: ids['PROC-1']!, version: 2 }]);
      expect([again.status, again.body.not_updated[0].code]).toEqual([409, 'instruction_not_processed']);
      expect(agendas((await admin.client.get('/api/brevet_eptane/to_validate')).body.brevet_eptane)).toEqual(['B-PROC', 'PROC-3']);
      const byAdmin = await validate(admin.client, [{ _id: ids['B-PROC']!, version: 1 }]);
      expect(byAdmin.status).toBe(200);
    });

    it('validation of the body: empty list, duplicate ids, a bad id or too many rows are 400s; agents 403', async () => {
      expect((await validate(admin.client, [])).status).toBe(400);
      const twice = await validate(admin.client, [
        { _id: ids['PROC-3']!, version: 1 },
        { _id: ids['PROC-3']!, version: 1 },
      ]);
      expect([twice.status, twice.body.fields]).toEqual([400, { 'patents.1._id': 'validation_failed' }]);
      expect((await validate(admin.client, [{ _id: 'PROC-3', version: 1 }])).status).toBe(400);
      const many = Array.from({ length: 1001 }, () => ({ _id: ids['PROC-3']!, version: 1 }));
      expect((await validate(admin.client, many)).status).toBe(400);
      expect((await validate(agentA.client, [{ _id: ids['PROC-3']!, version: 1 }])).status).toBe(403);
      expect((await row('PROC-3')).instructionStatus).toBe('processed');
    });
  });
});
