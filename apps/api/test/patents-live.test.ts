import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { REALTIME_PATH, type PatentsChangedEvent } from '@portal/contracts';
import { cabinets, patentRecords, userCabinets, users } from '@portal/db';
import { publishPatentsChanged } from '@portal/realtime';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

function connect(t: TestPortal, client: TestClient): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(t.url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin: t.origin, cookie: client.cookieHeader() }, reconnection: false, timeout: 5000 });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Every `patents:changed` a socket receives. */
function collect(socket: Socket): PatentsChangedEvent[] {
  const received: PatentsChangedEvent[] = [];
  socket.on('patents:changed', (event: PatentsChangedEvent) => received.push(event));
  return received;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

describe('live patent changes: patents:changed to the rooms of the cabinets and codes, admin_test and admins', () => {
  let t: TestPortal;
  const sockets: Socket[] = [];
  let agentA: { client: TestClient; id: string };
  let agentB: { client: TestClient; id: string };
  let agentCode: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let adminTest: { client: TestClient; id: string };
  let ledes: { client: TestClient; id: string };
  let received: Record<'a' | 'b' | 'code' | 'admin' | 'adminTest' | 'ledes', PatentsChangedEvent[]>;
  let cabinetA: string;
  let cabinetB: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestPortal('pglite');
    t.clock.advance(Date.parse('2027-03-01T12:00:00Z') - t.clock.now().getTime());
    const db = t.portal.ctx.db;
    [cabinetA, cabinetB] = (await db.insert(cabinets).values([{ name: 'Live A' }, { name: 'Live B' }]).returning()).map((c) => c.id) as [string, string];
    agentA = await t.loginAs('user_agent_annuites');
    agentB = await t.loginAs('user_agent_annuites');
    agentCode = await t.loginAs('user_agent_annuites');
    admin = await t.loginAs('admin');
    adminTest = await t.loginAs('admin_test');
    ledes = await t.loginAs('user_agent_ledes');
    await db.insert(userCabinets).values([
      { userId: agentA.id, cabinetId: cabinetA },
      { userId: agentB.id, cabinetId: cabinetB },
    ]);
    await db.update(users).set({ code: ['CODE-X'] }).where(eq(users.id, agentCode.id));
    const rows = await db
      .insert(patentRecords)
      .values([
        { idagenda: 'L-A', cabinetId: cabinetA, clientCode: 'CODE-A', pays: 'EP', dateEcheance: '2027-06-01' },
        { idagenda: 'L-A2', cabinetId: cabinetA, clientCode: 'CODE-A', pays: 'EP', dateEcheance: '2027-06-01' },
        { idagenda: 'L-BX', cabinetId: cabinetB, clientCode: 'CODE-X', pays: 'FR', dateEcheance: '2027-06-01' },
      ])
      .returning();
    for (const row of rows) ids[row.idagenda] = row.id;
    // Rooms are joined at the handshake, from the cabinets and codes held then.
    const [a, b, code, adm, test, led] = await Promise.all([agentA, agentB, agentCode, admin, adminTest, ledes].map((u) => connect(t, u.client)));
    sockets.push(a!, b!, code!, adm!, test!, led!);
    received = { a: collect(a!), b: collect(b!), code: collect(code!), admin: collect(adm!), adminTest: collect(test!), ledes: collect(led!) };
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  const clear = () => Object.values(received).forEach((list) => list.splice(0));

  it('an agent’s instruction: its cabinet, admin_test and admins hear the ids and the source only; another cabinet and other roles hear nothing', async () => {
    clear();
    const res = await agentA.client.put(`/api/brevet_eptane/update/instruction_paiement/${ids['L-A']}`, { instruction_paiement: 1, version: 1 });
    expect(res.status).toBe(200);
    await settle();
    const expected = [{ ids: [ids['L-A']], source: 'screen' }];
    expect(received.a).toEqual(expected);
    expect(received.admin).toEqual(expected);
    expect(received.adminTest).toEqual(expected);
    expect(received.b).toEqual([]);
    expect(received.code).toEqual([]);
    expect(received.ledes).toEqual([]);
  });

  it('a patent of cabinet B under code X reaches both the cabinet’s agent and the code’s agent, once each', async () => {
    clear();
    const res = await admin.client.put(`/api/brevet_eptane/update/instruction_paiement/${ids['L-BX']}`, { instruction_paiement: 2, version: 1 });
    expect(res.status).toBe(200);
    await settle();
    expect(received.b).toEqual([{ ids: [ids['L-BX']], source: 'screen' }]);
    expect(received.code).toEqual([{ ids: [ids['L-BX']], source: 'screen' }]);
    expect(received.a).toEqual([]);
    // An admin is in the admins' room and no other: one event.
    expect(received.admin).toHaveLength(1);
  });

  it('bulk, validation, missing information and edits announce their source', async () => {
    clear();
    const bulk = await agentA.client.put('/api/brevet_eptane/many/update_instruction', { patents: [{ idagenda: 'L-A2', instructionBeingUpdated: 4, version: 1 }] });
    expect(bulk.status).toBe(200);
    const validate = await admin.client.put('/api/brevet_eptane/validate-instruction', { patents: [{ _id: ids['L-A'], version: 2 }] });
    expect(validate.status, JSON.stringify(validate.body)).toBe(200);
    const missing = await admin.client.put('/api/brevet_eptane/update-missing-info/L-A2', { noDepot: 'EP16839078.9', version: 2 });
    expect(missing.status, JSON.stringify(missing.body)).toBe(200);
    await settle();
    expect(received.a).toEqual([
      { ids: [ids['L-A2']], source: 'bulk' },
      { ids: [ids['L-A']], source: 'validation' },
      { ids: [ids['L-A2']], source: 'edit' },
    ]);
    expect(received.b).toEqual([]);
  });

  it('an accepted submission and an admin edit are announced to the new record’s cabinet', async () => {
    clear();
    const created = await agentA.client.post('/api/brevet_eptane/create', { pays: 'FR', numero_depot: 'FR1234567' });
    const accepted = await admin.client.put(`/api/patent_submissions/${created.body.submission._id}/accept`, { code_client: 'CODE-A' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const id = accepted.body.brevet_eptane._id as string;
    const edited = await admin.client.put(`/api/brevet_eptane/update/${id}`, { ReferenceClient: 'NEW', version: 1 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await settle();
    expect(received.a).toEqual([
      { ids: [id], source: 'submission' },
      { ids: [id], source: 'edit' },
    ]);
    expect(received.b).toEqual([]);
  });

  it('the helper for jobs: (cabinetIds, codes, ids, source) reaches the same rooms', async () => {
    clear();
    publishPatentsChanged(t.portal.ctx.realtime, [], ['CODE-X'], [ids['L-BX']!], 'import');
    await settle();
    expect(received.code).toEqual([{ ids: [ids['L-BX']], source: 'import' }]);
    expect(received.admin).toEqual([{ ids: [ids['L-BX']], source: 'import' }]);
    expect(received.adminTest).toEqual([{ ids: [ids['L-BX']], source: 'import' }]);
    expect(received.b).toEqual([]);
    expect(received.a).toEqual([]);
  });

  it('a client cannot join a patent room itself: its messages are ignored', async () => {
    clear();
    const socket = sockets[5]!;
    socket.emit('join', 'patents:all');
    socket.emit('subscribe', `patents:cabinet:${cabinetB}`);
    await settle();
    publishPatentsChanged(t.portal.ctx.realtime, [cabinetB], [], [ids['L-BX']!], 'sync');
    await settle();
    expect(received.ledes).toEqual([]);
  });
});
