import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { PatentRecordDto } from '@portal/contracts';
import { patentInstructionEvents, patentRecords, userCabinets, users } from '@portal/db';
import { agendas, startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient, type TestPortal } from './support/portal.ts';

/** The spec's four meta fields (the optional extras of decision 174 — cursors, total_more — are tested in patent-list-paging.test.ts). */
const specMeta = ({ currentPage, totalPages, pageSize, total }: { currentPage: number; totalPages: number; pageSize: number; total: number }) => ({ currentPage, totalPages, pageSize, total });

/** Today for every test below: limit dates (due date − 7 days) are judged against it. */
const TODAY = '2027-03-01';
const FR = { 'accept-language': 'fr' };

describe.each(databaseKinds())('patent portfolio and payment instructions (%s)', (kind) => {
  let t: TestPortal;
  let cabinetA: string;
  let cabinetB: string;
  let agentA: { client: TestClient; id: string };
  let agentB: { client: TestClient; id: string };
  let agentCode: { client: TestClient; id: string };
  let adminTest: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let annuities: { client: TestClient; id: string };
  let world: PatentWorld;
  let ids: Record<string, string>;
  const seed: PatentWorld['seed'] = (rows) => world.seed(rows);
  const row: PatentWorld['row'] = (idagenda) => world.row(idagenda);
  const trail: PatentWorld['trail'] = (idagenda) => world.trail(idagenda);

  beforeAll(async () => {
    world = await startPatentWorld(kind, TODAY, 'Patents');
    ({ t, cabinetA, cabinetB, ids } = world);
    const db = t.portal.ctx.db;
    agentA = await t.loginAs('user_agent_annuites');
    agentB = await t.loginAs('user_agent_annuites');
    agentCode = await t.loginAs('user_agent_annuites');
    adminTest = await t.loginAs('admin_test');
    admin = await t.loginAs('admin');
    annuities = await t.loginAs('user_annuites');
    await db.insert(userCabinets).values([
      { userId: agentA.id, cabinetId: cabinetA },
      { userId: agentB.id, cabinetId: cabinetB },
    ]);
    await db.update(users).set({ code: ['CODE-X'] }).where(eq(users.id, agentCode.id));
    await seed([
      { idagenda: 'FREE-1', referenceClient: 'REF-ALPHA', numeroDepot: 'EP20001', numeroPublication: 'EP3000001', dateEcheance: '2027-06-01', cost: '510.00', titreFrancais: 'Moteur à vapeur', quantieme: 6 },
      { idagenda: 'FREE-2', referenceClient: 'REF-BETA', numeroDepot: 'FR20002', pays: 'FR', dateEcheance: '2027-07-01', cost: '38.00' },
      { idagenda: 'PAST-LIMIT', referenceClient: 'REF-GAMMA', dateEcheance: '2027-03-05' },
      { idagenda: 'LIMIT-TODAY', referenceClient: 'REF-DELTA', dateEcheance: '2027-03-08' },
      { idagenda: 'ACQUITTED', dateEcheance: '2027-09-01', dateAcquit: '2027-01-10' },
      { idagenda: 'OFFICE-PAID', dateEcheance: '2027-09-01', datePaiementOffice: '2027-01-11' },
      { idagenda: 'MAIL-REPLY', dateEcheance: '2027-09-01', dateReponseCourrier: '2027-01-12' },
      { idagenda: 'CLIENT-PAID', dateEcheance: '2027-09-01', datePaiementClient: '2027-01-13' },
      { idagenda: 'VALIDATED', dateEcheance: '2027-10-01', instructionId: 1, instructionStatus: 'validated' },
      { idagenda: 'B-CODE-X', cabinetId: cabinetB, clientCode: 'CODE-X', referenceClient: 'REF-OTHER', dateEcheance: '2027-06-15' },
      { idagenda: 'B-CODE-Y', cabinetId: cabinetB, clientCode: 'CODE-Y', dateEcheance: '2027-06-20' },
    ]);
  });
  afterAll(async () => t?.close());

  describe('payment instructions', () => {
    it('lists the four instructions in both languages, tooltips after a colon, the third for next year', async () => {
      const res = await annuities.client.get('/api/instruction_paiement');
      expect(res.status).toBe(200);
      const list = res.body.instruction_paiement as Array<{ _id: number; titre_fr: string; titre_en: string }>;
      expect(list.map((i) => i._id)).toEqual([1, 2, 3, 4]);
      for (const i of list) {
        expect(i.titre_fr).toMatch(/^[^:]+\u00a0: .+/);
        expect(i.titre_en).toMatch(/^[^:]+: .+/);
      }
      expect(list[2]!.titre_fr.startsWith('Paiement par un tiers seulement pour 2028\u00a0: ')).toBe(true);
      expect(list[2]!.titre_en.startsWith('Payment by a third party only for 2028: ')).toBe(true);
      expect(list[3]!.titre_en).toMatch(/^Wait: decide later/);
      expect((await agentA.client.get('/api/instruction_paiement/3')).body.instruction_paiement).toEqual(list[2]);
    });

    it('answers 404 for an unknown instruction and 401 without a session', async () => {
      const res = await agentA.client.get('/api/instruction_paiement/9');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'not_found' });
      expect((await t.client().get('/api/instruction_paiement')).status).toBe(401);
    });
  });

  describe('listing', () => {
    it('an agent sees the tabs of its cabinet only, by due date; the unvalidated tab holds instructions and treatment dates', async () => {
      const unprocessed = await agentA.client.get('/api/brevet_eptane');
      expect(unprocessed.status).toBe(200);
      expect(agendas(unprocessed.body.brevet_eptane)).toEqual(['PAST-LIMIT', 'LIMIT-TODAY', 'FREE-1', 'FREE-2']);
      expect(specMeta(unprocessed.body.meta)).toEqual({ currentPage: 1, totalPages: 1, pageSize: 20, total: 4 });
      const unvalidated = await agentA.client.get('/api/brevet_eptane?tab=unvalidated');
      expect(agendas(unvalidated.body.brevet_eptane).sort()).toEqual(['ACQUITTED', 'CLIENT-PAID', 'MAIL-REPLY', 'OFFICE-PAID', 'VALIDATED']);
      const free = (unprocessed.body.brevet_eptane as PatentRecordDto[]).find((p) => p.idagenda === 'FREE-1')!;
      expect(free).toMatchObject({ DateEcheance: '2027-06-01', DateLimite: '2027-05-25', cost: 510, Quantieme: 6, locked: null, version: 1, cabinet: { _id: cabinetA } });
      expect(free.instruction).toEqual({ id_instruction: null, traitement_instruction: 'unprocessed' });
    });

    it('an agent linked by client code sees that code’s patents; admin sees all; admin_test sees its own scope and searches any code', async () => {
      expect(agendas((await agentCode.client.get('/api/brevet_eptane')).body.brevet_eptane)).toEqual(['B-CODE-X']);
      expect(agendas((await agentB.client.get('/api/brevet_eptane')).body.brevet_eptane)).toEqual(['B-CODE-X', 'B-CODE-Y']);
      expect((await admin.client.get('/api/brevet_eptane')).body.meta.total).toBe(6);
      expect((await adminTest.client.get('/api/brevet_eptane')).body.brevet_eptane).toEqual([]);
      expect(agendas((await adminTest.client.get('/api/brevet_eptane/admin/CODE-X')).body.brevet_eptane)).toEqual(['B-CODE-X']);
      expect(agendas((await admin.client.get('/api/brevet_eptane/admin/CODE-A?limit=100')).body.brevet_eptane)).toHaveLength(4);
      expect((await agentA.client.get('/api/brevet_eptane/admin/CODE-X')).status).toBe(403);
      expect((await annuities.client.get('/api/brevet_eptane')).status).toBe(403);
      expect((await t.client().get('/api/brevet_eptane')).status).toBe(401);
    });

    it('filters by due date (one day or a range), references by substring, office, instruction; searches, sorts and pages on the server', async () => {
      const get = async (query: string) => agendas((await admin.client.get(`/api/brevet_eptane?${query}`)).body.brevet_eptane);
      expect(await get('dates=2027-06-01')).toEqual(['FREE-1']);
      expect(await get('dates=2027-07-01;2027-06-01')).toEqual(['FREE-1', 'B-CODE-X', 'B-CODE-Y', 'FREE-2']);
      expect(await get(`references=${encodeURIComponent('alpha; fr2000 ;EP30')}`)).toEqual(['FREE-1', 'FREE-2']);
      expect(await get('office=fr')).toEqual(['FREE-2']);
      expect(await get('tab=unvalidated&instruction=1')).toEqual(['VALIDATED']);
      expect(await get(`search=${encodeURIComponent('à vapeur')}`)).toEqual(['FREE-1']);
      // REF-OTHER, REF-GAMMA | REF-DELTA, REF-BETA | REF-ALPHA, then the patent without a reference.
      expect(await get('sort=ReferenceClient&order=desc&limit=2&page=2')).toEqual(['LIMIT-TODAY', 'FREE-2']);
      expect(await get('sort=ReferenceClient&order=desc&limit=2&page=3')).toEqual(['FREE-1', 'B-CODE-Y']);
      const paged = await admin.client.get('/api/brevet_eptane?limit=4&page=2');
      expect(specMeta(paged.body.meta)).toEqual({ currentPage: 2, totalPages: 2, pageSize: 4, total: 6 });
    });

    it('refuses a bad date filter with the spec’s alert, in both languages, and an unbounded page', async () => {
      const en = await admin.client.get('/api/brevet_eptane?dates=01-06-2027');
      expect(en.status).toBe(400);
      expect(en.body).toMatchObject({ success: false, code: 'invalid_date_format', message: 'Invalid date format. Use YYYY-MM-DD, or two YYYY-MM-DD dates separated by a semicolon.' });
      const fr = await admin.client.get('/api/brevet_eptane?dates=2027-02-30', FR);
      expect(fr.body.code).toBe('invalid_date_format');
      expect(fr.body.message).toMatch(/^Format de date invalide/);
      expect((await admin.client.get('/api/brevet_eptane?limit=1000')).status).toBe(400);
    });
  });

  describe('one patent', () => {
    it('reads a patent of its scope with its lock reason; another cabinet’s patent is a 404 (IDOR)', async () => {
      const own = await agentA.client.get(`/api/brevet_eptane/${ids['PAST-LIMIT']}`);
      expect(own.status).toBe(200);
      expect(own.body.brevet_eptane).toMatchObject({ idagenda: 'PAST-LIMIT', locked: 'patent_locked_limit_date', DateLimite: '2027-02-26' });
      expect((await agentB.client.get(`/api/brevet_eptane/${ids['FREE-1']}`)).status).toBe(404);
      expect((await agentCode.client.get(`/api/brevet_eptane/${ids['B-CODE-Y']}`)).status).toBe(404);
      expect((await agentCode.client.get(`/api/brevet_eptane/${ids['B-CODE-X']}`)).status).toBe(200);
      expect((await adminTest.client.get(`/api/brevet_eptane/${ids['FREE-1']}`)).status).toBe(200);
      expect((await admin.client.get(`/api/brevet_eptane/${ids['B-CODE-Y']}`)).status).toBe(200);
      expect((await admin.client.get('/api/brevet_eptane/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });

  describe('instruction of one patent', () => {
    const put = (client: TestClient, idagenda: string, instruction: number, version: number, headers?: Record<string, string>) =>
      client.put(`/api/brevet_eptane/update/instruction_paiement/${ids[idagenda]}`, { instruction_paiement: instruction, version }, headers);

    it('an agent’s instruction moves the patent to processed, bumps its version and writes one audit row', async () => {
      const res = await put(agentA.client, 'FREE-1', 2, 1);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.brevet_eptane).toMatchObject({ id_instruction: 2, instruction: { id_instruction: 2, traitement_instruction: 'processed' }, version: 2 });
      expect(await row('FREE-1')).toMatchObject({ instructionId: 2, instructionStatus: 'processed', version: 2 });
      expect(await trail('FREE-1')).toEqual([
        expect.objectContaining({ oldInstructionId: null, newInstructionId: 2, oldStatus: 'unprocessed', newStatus: 'processed', userId: agentA.id, source: 'screen' }),
      ]);
      expect(agendas((await agentA.client.get('/api/brevet_eptane?tab=unvalidated')).body.brevet_eptane)).toContain('FREE-1');
    });

    it('a stale version is a 409 and changes nothing; the current version changes it again', async () => {
      const stale = await put(agentA.client, 'FREE-1', 4, 1);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ success: false, code: 'stale_version' });
      expect(await row('FREE-1')).toMatchObject({ instructionId: 2, version: 2 });
      expect(await trail('FREE-1')).toHaveLength(1);
      const again = await put(agentA.client, 'FREE-1', 4, 2);
      expect(again.status).toBe(200);
      expect((await trail('FREE-1'))[1]).toMatchObject({ oldInstructionId: 2, newInstructionId: 4, oldStatus: 'processed', newStatus: 'processed' });
    });

    it('two agents changing the same patent at once: one wins, the other gets 409 stale_version', async () => {
      const version = (await row('FREE-2')).version;
      const results = await Promise.all([put(agentA.client, 'FREE-2', 1, version), put(admin.client, 'FREE-2', 2, version)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('stale_version');
      expect(await trail('FREE-2')).toHaveLength(1);
      expect((await row('FREE-2')).version).toBe(version + 1);
    });

    it.each([
      ['PAST-LIMIT', 'patent_locked_limit_date', 'The instruction deadline for this patent (7 days before the due date) has passed.'],
      ['ACQUITTED', 'patent_locked_acquitted', 'This annuity has already been settled.'],
      ['OFFICE-PAID', 'patent_locked_office_paid', 'This annuity has already been paid to the patent office.'],
      ['MAIL-REPLY', 'patent_locked_mail_reply', 'A reply to the letter about this annuity has already been recorded.'],
      ['CLIENT-PAID', 'patent_locked_client_paid', 'The client has already paid this annuity.'],
      ['VALIDATED', 'instruction_validated', 'The instruction for this patent has been validated and can no longer be changed.'],
    ])('%s cannot be changed: 409 %s with the reason in both languages, nothing written', async (idagenda, code, message) => {
      const before = await row(idagenda);
      const en = await put(agentA.client, idagenda, 2, before.version);
      expect(en.status).toBe(409);
      expect(en.body).toEqual({ success: false, code, message });
      const fr = await put(admin.client, idagenda, 2, before.version, FR);
      expect(fr.status).toBe(409);
      expect(fr.body.code).toBe(code);
      expect(fr.body.message).not.toBe(message);
      expect(await row(idagenda)).toEqual(before);
      expect(await trail(idagenda)).toEqual([]);
    });

    it('the limit date itself is still open', async () => {
      expect((await put(agentA.client, 'LIMIT-TODAY', 3, 1)).status).toBe(200);
    });

    it('an unknown instruction is a 400; another cabinet’s patent is a 404, and admin_test may read but not change it (403)', async () => {
      const unknown = await put(agentA.client, 'FREE-1', 7, 3);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'unknown_instruction', fields: { instruction_paiement: 'unknown_instruction' } });
      const before = await row('B-CODE-Y');
      expect((await put(agentA.client, 'B-CODE-Y', 1, 1)).status).toBe(404);
      expect((await put(agentCode.client, 'B-CODE-Y', 1, 1)).status).toBe(404);
      expect((await put(adminTest.client, 'B-CODE-Y', 1, 1)).status).toBe(403);
      expect((await put(annuities.client, 'B-CODE-Y', 1, 1)).status).toBe(403);
      expect(await row('B-CODE-Y')).toEqual(before);
      const byCode = await put(agentCode.client, 'B-CODE-X', 1, 1);
      expect(byCode.status).toBe(200);
      const byAdmin = await put(admin.client, 'B-CODE-Y', 2, 1);
      expect(byAdmin.status).toBe(200);
      expect((await trail('B-CODE-Y'))[0]).toMatchObject({ userId: admin.id, source: 'screen' });
    });
  });

  describe('atomic bulk update', () => {
    const item = async (idagenda: string, instruction: number, version?: number) => {
      const current = ids[idagenda] ? await row(idagenda) : undefined;
      return {
        idagenda,
        ReferenceClient: current?.referenceClient ?? null,
        noDepot: current?.numeroDepot ?? null,
        NoPublication: current?.numeroPublication ?? null,
        Pays: current?.pays ?? 'EP',
        DateEcheance: current?.dateEcheance ?? null,
        instructionBeingUpdated: instruction,
        version: version ?? current?.version ?? 1,
      };
    };
    const bulk = (client: TestClient, patents: unknown[], headers?: Record<string, string>) => client.put('/api/brevet_eptane/many/update_instruction', { patents, not_updated: [] }, headers);

    it('one bad row changes nothing and every refused row is listed with its reason', async () => {
      await seed([
        { idagenda: 'BULK-1', referenceClient: 'REF-B1', dateEcheance: '2027-08-01' },
        { idagenda: 'BULK-2', referenceClient: 'REF-B2', dateEcheance: '2027-08-02' },
      ]);
      const before = await t.portal.ctx.db.select().from(patentRecords).where(inArray(patentRecords.idagenda, ['BULK-1', 'BULK-2']));
      const res = await bulk(agentA.client, [
        await item('BULK-1', 1),
        await item('PAST-LIMIT', 1),
        await item('ACQUITTED', 2),
        await item('BULK-2', 1, 7),
        await item('B-CODE-Y', 1),
        await item('NO-SUCH-AGENDA', 1),
      ]);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('instructions_refused');
      expect(res.body.not_updated.map((r: { idagenda: string; code: string }) => [r.idagenda, r.code])).toEqual([
        ['PAST-LIMIT', 'patent_locked_limit_date'],
        ['ACQUITTED', 'patent_locked_acquitted'],
        ['BULK-2', 'stale_version'],
        ['B-CODE-Y', 'not_found'],
        ['NO-SUCH-AGENDA', 'not_found'],
      ]);
      expect(res.body.not_updated[0]).toMatchObject({ ReferenceClient: 'REF-GAMMA', DateEcheance: '2027-03-05', instructionBeingUpdated: 1, reason: expect.stringMatching(/instruction deadline/) });
      const after = await t.portal.ctx.db.select().from(patentRecords).where(inArray(patentRecords.idagenda, ['BULK-1', 'BULK-2']));
      expect(after).toEqual(before);
      expect([...(await trail('BULK-1')), ...(await trail('BULK-2'))]).toEqual([]);
    });

    it('the refused rows’ reasons are in the caller’s language', async () => {
      const res = await bulk(agentA.client, [await item('CLIENT-PAID', 1)], FR);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^Aucune instruction/);
      expect(res.body.not_updated[0].reason).toBe('Le client a déjà payé cette annuité.');
    });

    it('all rows valid: all applied in one go, one audit row each with the bulk source', async () => {
      const res = await bulk(agentA.client, [await item('BULK-1', 3), await item('BULK-2', 4)]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.updated).toBe(2);
      expect(agendas(res.body.brevet_eptane)).toEqual(['BULK-1', 'BULK-2']);
      expect(await row('BULK-1')).toMatchObject({ instructionId: 3, instructionStatus: 'processed', version: 2 });
      expect(await row('BULK-2')).toMatchObject({ instructionId: 4, instructionStatus: 'processed', version: 2 });
      for (const [idagenda, instruction] of [['BULK-1', 3], ['BULK-2', 4]] as const) {
        expect(await trail(idagenda)).toEqual([expect.objectContaining({ newInstructionId: instruction, oldStatus: 'unprocessed', newStatus: 'processed', userId: agentA.id, source: 'bulk' })]);
      }
    });

    it('a selection of 1,000 rows (past the general 100 kB body limit) is applied in one call, one audit row each', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => ({ idagenda: `MANY-${String(i).padStart(4, '0')}`, referenceClient: `REF-MANY-${i}`, numeroDepot: `EP${900000 + i}`, dateEcheance: '2027-12-01' }));
      await seed(many);
      const patents = many.map((p) => ({ idagenda: p.idagenda, ReferenceClient: p.referenceClient, noDepot: p.numeroDepot, NoPublication: `EP${800000}`, Pays: 'EP', DateEcheance: p.dateEcheance, instructionBeingUpdated: 2, version: 1 }));
      expect(JSON.stringify({ patents }).length).toBeGreaterThan(100 * 1024);
      const res = await bulk(agentA.client, patents);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.updated).toBe(1000);
      const events = await t.portal.ctx.db.select().from(patentInstructionEvents).where(inArray(patentInstructionEvents.patentId, many.map((p) => ids[p.idagenda]!)));
      expect(events).toHaveLength(1000);
      expect(new Set(events.map((e) => e.source))).toEqual(new Set(['bulk']));
    });

    it('its body stays bounded: past 512 kB it is a 413', async () => {
      const res = await agentA.client.put('/api/brevet_eptane/many/update_instruction', { patents: [], pad: 'x'.repeat(600 * 1024) });
      expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
    });

    it('an unknown instruction is a 400 naming the row; the same idagenda twice is a 400; admin_test gets forbidden rows outside its scope', async () => {
      const unknown = await bulk(agentA.client, [await item('BULK-1', 1), await item('BULK-2', 8)]);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ code: 'unknown_instruction', fields: { 'patents.1.instructionBeingUpdated': 'unknown_instruction' } });
      const twice = await bulk(agentA.client, [await item('BULK-1', 1), await item('BULK-1', 2)]);
      expect(twice.status).toBe(400);
      expect(twice.body.fields).toEqual({ 'patents.1.idagenda': 'validation_failed' });
      const staff = await bulk(adminTest.client, [await item('BULK-1', 1)]);
      expect(staff.status).toBe(409);
      expect(staff.body.not_updated[0].code).toBe('forbidden');
      expect((await row('BULK-1')).version).toBe(2);
    });
  });
});
