import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { patentLedger, patentLedgerEvents, registerDiscrepancies } from '@portal/db';
import { FakeOps, fixture, RECORDED_HEADERS } from '../../../packages/registers/test/ops-server.ts';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, startTestPortal, type TestClient } from './support/portal.ts';

/*
 * Issue 29 §3 through the API (decisions 196, 197): an admin starts the sync (the real job, the inline queue, a local
 * OPS serving recorded answers), follows the run, lists the discrepancies and decides them: accept the register
 * (ledger written, user on the trail) or keep ours with a note. Agents are refused; a decided one is a 409.
 */

const xml = (body: string) => ({ status: 200, headers: RECORDED_HEADERS, body });
const NOT_FOUND = { status: 404, headers: { 'Content-Type': 'application/xml' }, body: fixture('fault-entity-not-found.xml') };
const REVOKED_UPP = fixture('register-upp-EP2400812.xml').replace(
  '<ns3:ep-patent-status change-date="20201002" status-code="7">No opposition filed within time limit</ns3:ep-patent-status>',
  '<ns3:ep-patent-status change-date="20230301" status-code="7">The patent has been revoked</ns3:ep-patent-status>',
);

describe.each(databaseKinds())('register sync and discrepancies over the API (%s)', (kind) => {
  let ops: FakeOps;
  let world: PatentWorld;
  let admin: { client: TestClient; id: string };
  let agent: { client: TestClient; id: string };

  beforeAll(async () => {
    ops = await new FakeOps().tokens().start();
    ops
      .route('GET /3.2/rest-services/register/publication/epodoc/EP2400812/procedural-steps', xml(fixture('register-procedural-steps-EP2400812.xml')))
      .route('GET /3.2/rest-services/register/publication/epodoc/EP2400812/upp', xml(fixture('register-upp-EP2400812.xml')))
      .route('GET /3.2/rest-services/legal/publication/epodoc/EP2400812', NOT_FOUND)
      .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/procedural-steps', xml(fixture('register-procedural-steps-EP2400812.xml')))
      .route('GET /3.2/rest-services/register/publication/epodoc/EP1000000/upp', xml(REVOKED_UPP))
      .route('GET /3.2/rest-services/legal/publication/epodoc/EP1000000', xml(fixture('legal-EP1000000.xml')));
    world = await startPatentWorld(kind, '2026-11-28', 'Registers', { OPS_CONSUMER_KEY: 'consumer-key', OPS_CONSUMER_SECRET: 'consumer-secret', OPS_BASE_URL: ops.url });
    admin = await world.t.loginAs('admin');
    agent = await world.t.loginAs('user_agent_annuites');
    await world.seed([
      { idagenda: 'A-9', idbrevet: 'RA', numeroPublication: 'EP2400812', referenceClient: 'ACME-9', quantieme: 9, dateEcheance: '2018-06-30' },
      { idagenda: 'A-10', idbrevet: 'RA', numeroPublication: 'EP2400812', referenceClient: 'ACME-9', quantieme: 10, dateEcheance: '2019-06-30', datePaiementOffice: '2019-06-20' },
      { idagenda: 'B-15', idbrevet: 'RB', numeroPublication: 'EP1000000', referenceClient: 'BETA-15', quantieme: 15, dateEcheance: '2025-06-30', instructionId: 1 },
    ]);
  }, 120_000);
  afterAll(async () => {
    await world?.t.close();
    await ops?.stop();
  });

  const db = () => world.t.portal.ctx.db;

  it('an admin starts the sync, follows it to the end, and a second request while it runs starts nothing more', async () => {
    expect((await agent.client.post('/api/registers/sync', {})).status).toBe(403);
    const started = await admin.client.post('/api/registers/sync', {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ success: true, created: true, run: { trigger: 'admin', state: 'in_progress', day: '2026-11-28' } });
    const again = await admin.client.post('/api/registers/sync', {});
    expect(again.body).toMatchObject({ created: false, run: { _id: started.body.run._id } });
    await world.t.drainQueue();
    const list = await admin.client.get('/api/registers/sync');
    expect(list.status).toBe(200);
    expect(list.body.configured).toBe(true);
    expect(list.body.runs[0]).toMatchObject({ _id: started.body.run._id, state: 'Done', total: 2, done: 2, found: 2, discrepancies: 2, paused_until: null, disabled: null });
    expect((await agent.client.get('/api/registers/sync')).status).toBe(403);
  });

  it('lists the discrepancies with the register page, filtered by kind', async () => {
    const res = await admin.client.get('/api/registers/discrepancies');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.data.map((d: { kind: string; reference_client: string; annuity_year: number; portal_state: string; register_on: string }) => [d.kind, d.reference_client, d.annuity_year, d.portal_state, d.register_on])).toEqual([
      ['register_paid', 'ACME-9', 9, 'due', '2018-06-20'],
      ['instruction_on_lapsed', 'BETA-15', 15, 'instructed', '2023-03-01'],
    ]);
    expect(res.body.data[0].register_url).toBe('https://register.epo.org/application?number=EP10167109&lng=en&tab=main');
    const lapsed = await admin.client.get('/api/registers/discrepancies?kind=instruction_on_lapsed');
    expect(lapsed.body.data).toHaveLength(1);
    expect((await admin.client.get('/api/registers/discrepancies?kind=nonsense')).status).toBe(400);
    expect((await agent.client.get('/api/registers/discrepancies')).status).toBe(403);
  });

  it('accept the register: the ledger says confirmed with the admin on the trail; a second decision is a translated 409', async () => {
    const [d] = (await admin.client.get('/api/registers/discrepancies?kind=register_paid')).body.data;
    expect((await agent.client.post(`/api/registers/discrepancies/${d._id}/accept`, {})).status).toBe(403);
    const res = await admin.client.post(`/api/registers/discrepancies/${d._id}/accept`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.discrepancy).toMatchObject({ status: 'accepted', resolved_at: expect.any(String) });
    const [year] = await db().select().from(patentLedger).where(and(eq(patentLedger.patentKey, 'RA'), eq(patentLedger.annuityYear, 9)));
    expect(year).toMatchObject({ state: 'confirmed', source: 'register' });
    const trail = await db().select().from(patentLedgerEvents).where(and(eq(patentLedgerEvents.patentKey, 'RA'), eq(patentLedgerEvents.annuityYear, 9)));
    expect(trail.map((e) => [e.oldState, e.newState, e.source, e.userId])).toEqual([['due', 'confirmed', 'register', admin.id]]);
    const twice = await admin.client.post(`/api/registers/discrepancies/${d._id}/accept`, {}, { 'accept-language': 'fr' });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ success: false, code: 'discrepancy_resolved', message: 'Cet écart a déjà été traité\u00a0: rechargez la liste.' });
    expect((await admin.client.get('/api/registers/discrepancies')).body.total).toBe(1);
  });

  it('keep ours with a note: hidden from the open list, the note and who kept; no note is a 400, an unknown id a 404', async () => {
    const [d] = (await admin.client.get('/api/registers/discrepancies')).body.data;
    expect((await admin.client.post(`/api/registers/discrepancies/${d._id}/keep`, { note: '  ' })).status).toBe(400);
    expect((await admin.client.post(`/api/registers/discrepancies/${d._id}/keep`, {})).status).toBe(400);
    const res = await admin.client.post(`/api/registers/discrepancies/${d._id}/keep`, { note: 'Restoration requested on 2023-04-12' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.discrepancy).toMatchObject({ status: 'kept', note: 'Restoration requested on 2023-04-12' });
    const [row] = await db().select().from(registerDiscrepancies).where(eq(registerDiscrepancies.id, d._id));
    expect(row!.resolvedBy).toBe(admin.id);
    expect((await admin.client.get('/api/registers/discrepancies')).body.total).toBe(0);
    expect((await admin.client.get('/api/registers/discrepancies?status=kept')).body.data.map((k: { _id: string }) => k._id)).toEqual([d._id]);
    expect((await admin.client.post('/api/registers/discrepancies/00000000-0000-4000-8000-000000000000/keep', { note: 'x' })).status).toBe(404);
    expect((await admin.client.post('/api/registers/discrepancies/not-a-uuid/accept', {})).status).toBe(400);
  });
});

describe('without OPS credentials', () => {
  it('the sync says it is not configured, and a run ends at once, disabled', async () => {
    const t = await startTestPortal('pglite');
    try {
      const admin = await t.loginAs('admin');
      const started = await admin.client.post('/api/registers/sync', {});
      expect(started.status).toBe(200);
      await t.drainQueue();
      const list = await admin.client.get('/api/registers/sync');
      expect(list.body.configured).toBe(false);
      expect(list.body.runs[0]).toMatchObject({ state: 'Done', disabled: 'ops_not_configured', total: 0, done: 0 });
    } finally {
      await t.close();
    }
  });
});
