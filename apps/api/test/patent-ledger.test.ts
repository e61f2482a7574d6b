import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { patentLedgerEvents, userCabinets } from '@portal/db';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient } from './support/portal.ts';

/*
 * Decision 191: the instruction screen, the bulk update, validation and the back office's sync each write the
 * payment ledger in their own transaction; the agents' list row carries its year's state, the detail every year.
 */

const TODAY = '2027-03-01';
const SYNC_KEY = 'sync-key-for-tests-0123456789abcdefghijklmnop';

describe.each(databaseKinds())('payment ledger through the API (%s)', (kind) => {
  let world: PatentWorld;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };

  beforeAll(async () => {
    world = await startPatentWorld(kind, TODAY, 'Ledger');
    agent = await world.t.loginAs('user_agent_annuites');
    admin = await world.t.loginAs('admin');
    await world.t.portal.ctx.db.insert(userCabinets).values({ userId: agent.id, cabinetId: world.cabinetA });
    await world.seed([
      { idagenda: 'L-1', idbrevet: 'PAT-1', quantieme: 10, dateEcheance: '2027-06-01', referenceClient: 'REF-L1' },
      { idagenda: 'L-2', idbrevet: 'PAT-2', quantieme: 4, dateEcheance: '2027-06-01' },
      { idagenda: 'L-3', quantieme: 5, dateEcheance: '2027-06-01' },
    ]);
  }, 120_000);
  afterAll(async () => world?.t.close());

  const trail = async (key: string) =>
    (await world.t.portal.ctx.db.select().from(patentLedgerEvents).where(eq(patentLedgerEvents.patentKey, key)).orderBy(asc(patentLedgerEvents.createdAt))).map((e) => `${e.oldState}→${e.newState} ${e.source}`);
  const listed = async (idagenda: string) => {
    const res = await agent.client.get('/api/brevet_eptane?tab=unvalidated&limit=100');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.brevet_eptane as Array<{ idagenda: string; ledger_state?: string | null }>).find((p) => p.idagenda === idagenda);
  };

  it('an instruction on the screen: the year is instructed, on the list row and in the detail, with its trail', async () => {
    const res = await agent.client.put(`/api/brevet_eptane/update/instruction_paiement/${world.ids['L-1']}`, { instruction_paiement: 1, version: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.brevet_eptane.ledger_state).toBe('instructed');
    expect((await listed('L-1'))!.ledger_state).toBe('instructed');
    const detail = await agent.client.get(`/api/brevet_eptane/${world.ids['L-1']}`);
    expect(detail.status).toBe(200);
    expect(detail.body.ledger).toEqual([
      { year: 10, state: 'instructed', source: 'screen', state_at: `${TODAY}T12:00:00.000Z`, paid_on: null, amount: null, currency: null, receipt: null },
    ]);
    expect(await trail('PAT-1')).toEqual(['due→instructed screen']);
  });

  it('validation orders it; a bulk "do not pay" abandons another; a record without idbrevet is its own patent', async () => {
    world.t.clock.advance(1000);
    const v = await admin.client.put('/api/brevet_eptane/validate-instruction', { patents: [{ _id: world.ids['L-1'], version: 2 }] });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(await trail('PAT-1')).toEqual(['due→instructed screen', 'instructed→ordered validation']);
    const bulk = await agent.client.put('/api/brevet_eptane/many/update_instruction', {
      patents: [
        { idagenda: 'L-2', instructionBeingUpdated: 2, version: 1 },
        { idagenda: 'L-3', instructionBeingUpdated: 1, version: 1 },
      ],
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(await trail('PAT-2')).toEqual(['due→abandoned bulk']);
    expect(await trail(`record:${world.ids['L-3']}`)).toEqual(['due→instructed bulk']);
    expect((await world.row('L-2')).ledgerState).toBe('abandoned');
  });

  it('an admin’s edit: a new instruction on an ordered year moves it (source edit); a new year shows that year’s state', async () => {
    world.t.clock.advance(1000);
    const edit = await admin.client.put(`/api/brevet_eptane/update/${world.ids['L-1']}`, { id_instruction: 2, version: 3 });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await trail('PAT-1')).toEqual(['due→instructed screen', 'instructed→ordered validation', 'ordered→abandoned edit']);
    expect(edit.body.brevet_eptane.ledger_state).toBe('abandoned');
    const next = await admin.client.put(`/api/brevet_eptane/update/${world.ids['L-1']}`, { Quantieme: 11, version: 4 });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.brevet_eptane.ledger_state).toBeNull();
  });

  it('a refused change writes nothing to the ledger (same transaction)', async () => {
    const stale = await agent.client.put(`/api/brevet_eptane/update/instruction_paiement/${world.ids['L-2']}`, { instruction_paiement: 1, version: 1 });
    expect(stale.status).toBe(409);
    expect(await trail('PAT-2')).toEqual(['due→abandoned bulk']);
  });

  it('the back office’s sync: an instruction, then its payment to the office, with source sync', async () => {
    world.t.portal.ctx.config.patentSync.apiKey = SYNC_KEY;
    const machine = world.t.client({ origin: null });
    const auth = { authorization: `Bearer ${SYNC_KEY}` };
    const row = { idagenda: 'S-1', idbrevet: 'PAT-S', code_client: 'CODE-A', cabinet: `Ledger A ${kind}`, Pays: 'EP', Origine: 'ep_application', Depot: '2018-02-01', DateEcheance: '2027-02-28', Quantieme: 10, cost: 1775 };
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [row] }, auth)).status).toBe(200);
    world.t.clock.advance(1000);
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...row, id_instruction: 1 }] }, auth)).body).toMatchObject({ updated: 1 });
    world.t.clock.advance(1000);
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...row, id_instruction: 1, DatePaiementOffice: '2027-02-20' }] }, auth)).body).toMatchObject({ updated: 1 });
    expect(await trail('PAT-S')).toEqual(['due→instructed sync', 'instructed→paid sync']);
    const s1 = await world.row('S-1');
    expect(s1.ledgerState).toBe('paid');
    const detail = await admin.client.get(`/api/brevet_eptane/${s1.id}`);
    expect(detail.body.ledger).toMatchObject([{ year: 10, state: 'paid', source: 'sync', paid_on: '2027-02-20' }]);
    // The back office moves the record to the next annuity: the row shows that year's state (none yet).
    expect((await machine.put('/api/brevet_eptane/sync', { brevet_eptane: [{ ...row, Quantieme: 11, DateEcheance: '2028-02-29' }] }, auth)).body).toMatchObject({ updated: 1 });
    expect((await world.row('S-1')).ledgerState).toBeNull();
  });
});
