import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { patentLedger, patentLedgerEvents, receiptUploads, receipts, userCabinets } from '@portal/db';
import { writeLedger } from '@portal/jobs';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { makePdf } from './support/pdf.ts';
import { databaseKinds, type TestClient } from './support/portal.ts';

/*
 * Decision 192: the receipts job links a receipt the matcher is sure of and marks its years paid on the ledger in the
 * receipt's own transaction; an ambiguous or unmatched one stays unlinked for staff, who link it by hand (audited).
 */

describe.each(databaseKinds())('receipts matched and linked (%s)', (kind) => {
  let world: PatentWorld;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };

  beforeAll(async () => {
    world = await startPatentWorld(kind, '2027-03-01', 'Matching');
    agent = await world.t.loginAs('user_agent_annuites');
    admin = await world.t.loginAs('admin');
    await world.t.portal.ctx.db.insert(userCabinets).values({ userId: agent.id, cabinetId: world.cabinetA });
    await world.seed([
      { idagenda: 'M-1', idbrevet: 'PM-1', pays: 'EP', numeroPublication: 'EP3456789', referenceClient: 'ACME-0012', quantieme: 7, instructionId: 1, instructionStatus: 'processed' },
      { idagenda: 'M-2', idbrevet: 'PM-2', pays: 'FR', numeroDepot: 'FR1552345', quantieme: 9 },
      { idagenda: 'D-1', idbrevet: 'PD-1', pays: 'FR', referenceClient: 'DUP-0001', quantieme: 4 },
      { idagenda: 'D-2', idbrevet: 'PD-2', pays: 'FR', referenceClient: 'DUP-0001', quantieme: 4 },
      { idagenda: 'N-1', idbrevet: 'PN-1', pays: 'FR', referenceClient: 'NOYEAR-1' },
    ]);
  }, 120_000);
  afterAll(async () => world?.t.close());

  const db = () => world.t.portal.ctx.db;
  async function uploadPdf(name: string, lines: string[]) {
    const res = await agent.client.upload('/api/recepisse', [{ filename: name, content: makePdf(lines) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await world.t.drainQueue();
    const [upload] = await db().select().from(receiptUploads).where(eq(receiptUploads.id, res.body.upload._id));
    expect(upload!.state).toBe('Done');
    return (await db().select().from(receipts).where(eq(receipts.uploadId, upload!.id)))[0]!;
  }
  const year = async (key: string, n: number) => (await db().select().from(patentLedger).where(and(eq(patentLedger.patentKey, key), eq(patentLedger.annuityYear, n))))[0];
  const trail = async (key: string) => (await db().select().from(patentLedgerEvents).where(eq(patentLedgerEvents.patentKey, key)).orderBy(asc(patentLedgerEvents.createdAt))).map((e) => ({ from: e.oldState, to: e.newState, source: e.source, userId: e.userId, receiptId: e.receiptId }));

  it('a sure match links the receipt and marks the year paid, with the amount printed, in the receipt’s transaction', async () => {
    const receipt = await uploadPdf('epo.pdf', ['European Patent Office - fee payment receipt', 'EP 3 456 789 B1', 'Renewal fee 7th year EUR 1155.00', 'Payment order date: 12/02/2027']);
    expect(receipt).toMatchObject({ patentId: world.ids['M-1'], matchConfidence: 'sure', cabinetId: world.cabinetA, clientCode: 'CODE-A' });
    expect(await year('PM-1', 7)).toMatchObject({ state: 'paid', source: 'receipt', receiptId: receipt.id, amount: '1155.00', currency: 'EUR', paidOn: '2027-02-12' });
    expect(await trail('PM-1')).toEqual([{ from: 'instructed', to: 'paid', source: 'receipt', userId: null, receiptId: receipt.id }]);
    expect((await world.row('M-1')).ledgerState).toBe('paid');
    // The detail modal reads it.
    const detail = await agent.client.get(`/api/brevet_eptane/${world.ids['M-1']}`);
    expect(detail.body.ledger).toEqual([
      { year: 7, state: 'paid', source: 'receipt', state_at: expect.any(String), paid_on: '2027-02-12', amount: 1155, currency: 'EUR', receipt: { _id: receipt.id, file_name: 'epo.pdf' } },
    ]);
  });

  it('one receipt naming two patents marks both years paid', async () => {
    const receipt = await uploadPdf('inpi-groupe.pdf', ['INPI - paiement groupe', 'FR 15 52345   9e annuite   250,00 EUR', 'EP3456789   8e annuite   1290,00 EUR']);
    expect(receipt.matchConfidence).toBe('sure');
    expect(await year('PM-2', 9)).toMatchObject({ state: 'paid', amount: '250.00', receiptId: receipt.id });
    // Year 8 is not the record's own (7): the ledger keeps it apart.
    expect(await year('PM-1', 8)).toMatchObject({ state: 'paid', amount: '1290.00', receiptId: receipt.id });
    expect((await year('PM-1', 7))!.receiptId).not.toBe(receipt.id);
  });

  it('an ambiguous receipt stays unlinked; staff link it by hand, audited, and the year is paid', async () => {
    const receipt = await uploadPdf('dup.pdf', ['INPI', 'Client reference: DUP-0001', 'Annuite 4', 'Montant 60,00 EUR']);
    expect(receipt).toMatchObject({ patentId: null, matchConfidence: 'ambiguous' });
    expect(await year('PD-1', 4)).toBeUndefined();
    // Staff's queue: the unlinked receipts, with the matcher's verdict.
    const queue = await admin.client.get('/api/recepisse?unlinked=1');
    expect(queue.status).toBe(200);
    expect(queue.body.recepisse.map((r: { _id: string; match_confidence: string }) => [r._id, r.match_confidence])).toContainEqual([receipt.id, 'ambiguous']);
    expect(queue.body.recepisse.every((r: { patent: unknown }) => r.patent === null)).toBe(true);
    // What the matcher read (decision 198): both patents the reference names and the evidence; the year is each record's own
    // (two patents: a year printed on another line than the mention is not taken), no amount on the mention's line.
    const queued = queue.body.recepisse.find((r: { _id: string }) => r._id === receipt.id);
    const candidate = (idagenda: string) => ({
      record_id: world.ids[idagenda],
      idagenda,
      reference_client: 'DUP-0001',
      numero_depot: null,
      numero_publication: null,
      pays: 'FR',
      year: 4,
      year_printed: false,
      amount: null,
      currency: null,
      evidence: ['client_reference'],
      confidence: 'ambiguous',
    });
    expect(queued.match_candidates).toEqual([candidate('D-1'), candidate('D-2')]);
    expect((await agent.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['D-2'] })).status).toBe(403);
    const res = await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['D-2'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recepisse).toMatchObject({ _id: receipt.id, patent: { _id: world.ids['D-2'], idagenda: 'D-2' }, match_confidence: 'ambiguous' });
    expect(await year('PD-2', 4)).toMatchObject({ state: 'paid', source: 'staff', receiptId: receipt.id });
    expect(await trail('PD-2')).toEqual([{ from: 'due', to: 'paid', source: 'staff', userId: admin.id, receiptId: receipt.id }]);
    // The agents' list reads it (the kept column): D-2 paid, D-1 untouched.
    const listed = await admin.client.get('/api/brevet_eptane?search=DUP-0001');
    expect(listed.status).toBe(200);
    expect(Object.fromEntries(listed.body.brevet_eptane.map((p: { idagenda: string; ledger_state: string | null }) => [p.idagenda, p.ledger_state ?? null]))).toEqual({ 'D-1': null, 'D-2': 'paid' });
    const [stored] = await db().select().from(receipts).where(eq(receipts.id, receipt.id));
    expect(stored).toMatchObject({ linkedBy: admin.id, cabinetId: world.cabinetA, clientCode: 'CODE-A' });
    expect((await admin.client.get('/api/recepisse?unlinked=1')).body.recepisse.map((r: { _id: string }) => r._id)).not.toContain(receipt.id);
    // Linked already: a translated 409.
    const again = await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['D-1'] }, { 'accept-language': 'fr' });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('déjà rattaché');
    expect((await admin.client.post('/api/receipts/00000000-0000-4000-8000-000000000000/link', { patent_id: world.ids['D-1'] })).status).toBe(404);
    expect((await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: 'nope' })).status).toBe(400);
  });

  it('no year known: staff must give it; a year the register says lapsed is refused and nothing changes', async () => {
    const receipt = await uploadPdf('none.pdf', ['Intellectual Property Office', 'Renewal payment received', 'Patent GB2999111']);
    expect(receipt).toMatchObject({ patentId: null, matchConfidence: 'none' });
    const missing = await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['N-1'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ fields: { year: 'receipt_year_required' } });
    await db().transaction((tx) => writeLedger(tx, [{ recordId: world.ids['N-1']!, annuityYear: 5, event: { kind: 'register', state: 'lapsed' } }], { at: new Date() }));
    const lapsed = await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['N-1'], year: 5 });
    expect(lapsed.status).toBe(409);
    expect((await db().select().from(receipts).where(eq(receipts.id, receipt.id)))[0]!.patentId).toBeNull();
    const ok = await admin.client.post(`/api/receipts/${receipt.id}/link`, { patent_id: world.ids['N-1'], year: 6 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await year('PN-1', 6)).toMatchObject({ state: 'paid', source: 'staff' });
  });
});
