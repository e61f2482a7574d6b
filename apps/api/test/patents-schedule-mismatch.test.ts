import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { checkRecord, isOffice, parseIsoDate } from '@portal/annuities/core';
import { cabinets, patentRecords } from '@portal/db';
import { originOf, seedDemoPortfolio } from '@portal/jobs';
import { createLogger } from '@portal/logger';
import { createPortal } from '../src/bootstrap.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/*
 * Issue 25 §2: a stored record that contradicts its own schedule is stored but flagged, at every write
 * path (import, sync, add, admin edit, seed:demo), shown on the record, filterable and counted.
 */

const TODAY = '2026-01-15';
const SYNC_KEY = 'sync-key-for-tests-0123456789abcdefghijklmnop';
const HEADER = ['idagenda', 'code_client', 'cabinet', 'ReferenceClient', 'Pays', 'Origine', 'Depot', 'DateEcheance', 'Quantieme', 'cost'];
const csv = (rows: Array<Array<string | number>>) => [HEADER, ...rows].map((r) => r.join(';')).join('\r\n') + '\r\n';

describe.each(databaseKinds())('patents that disagree with the computed schedule (%s)', (kind) => {
  let t: TestPortal;
  let admin: { client: TestClient; id: string };
  let agent: { client: TestClient; id: string };
  const row = async (idagenda: string) => (await t.portal.ctx.db.select().from(patentRecords).where(eq(patentRecords.idagenda, idagenda)))[0]!;
  const mismatches = async () => {
    const res = await admin.client.get('/api/brevet_eptane?schedule=mismatch&limit=100');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.brevet_eptane as Array<{ idagenda: string }>).map((p) => p.idagenda).sort();
  };

  beforeAll(async () => {
    t = await startTestPortal(kind, { PATENT_SYNC_API_KEY: SYNC_KEY });
    t.clock.advance(Date.parse(`${TODAY}T12:00:00Z`) - t.clock.now().getTime());
    admin = await t.loginAs('admin');
    agent = await t.loginAs('user_agent_annuites');
  }, 120_000);
  afterAll(async () => t?.close());

  it('import: a row that disagrees is stored, flagged with the engine’s annuity, listed by the filter and counted on the result', async () => {
    const file = csv([
      // The DE patent: the engine puts annuity 9 at 2026-03-31, not 2026-12-31.
      ['M-DE', 'MM1', 'Cabinet Mismatch', 'REF-DE', 'DE', 'national', '2018-03-15', '2026-12-31', 9, '540'],
      // The same patent as the engine says it: agrees, no flag.
      ['M-OK', 'MM1', 'Cabinet Mismatch', 'REF-OK', 'DE', 'national', '2018-03-15', '2026-03-31', 9, '540'],
      // FR has no 30th annuity: the last one it has is named.
      ['M-FR', 'MM1', 'Cabinet Mismatch', 'REF-FR', 'FR', 'national', '2019-05-10', '2027-05-31', 30, '136'],
      // No filing date: nothing to compare, no flag.
      ['M-NOFILING', 'MM1', 'Cabinet Mismatch', 'REF-NF', 'DE', '', '', '2026-12-31', 9, '540'],
    ]);
    const res = await admin.client.upload('/api/patent_imports', [{ filename: 'portfolio.csv', content: file }]);
    expect(res.status).toBe(200);
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${res.body.patent_import._id}`);
    expect(done.body.patent_import).toMatchObject({ state: 'Done', inserted: 4, rejected: 0, flagged: 2 });

    expect(await row('M-DE')).toMatchObject({ dateEcheance: '2026-12-31', quantieme: 9, scheduleCode: 'due_differs', scheduleQuantieme: 9, scheduleEcheance: '2026-03-31', scheduleChecked: true });
    expect(await row('M-OK')).toMatchObject({ scheduleCode: null, scheduleChecked: true });
    expect(await row('M-NOFILING')).toMatchObject({ scheduleCode: null, scheduleChecked: true });
    expect((await row('M-FR')).scheduleCode).toBe('number_out_of_range');

    expect(await mismatches()).toEqual(['M-DE', 'M-FR']);
    const all = await admin.client.get('/api/brevet_eptane?limit=100');
    const byAgenda = new Map((all.body.brevet_eptane as Array<{ idagenda: string; schedule_mismatch: unknown }>).map((p) => [p.idagenda, p.schedule_mismatch]));
    expect(byAgenda.get('M-DE')).toEqual({ code: 'due_differs', Quantieme: 9, DateEcheance: '2026-03-31' });
    expect(byAgenda.get('M-OK')).toBeNull();
    // The detail carries it too.
    const detail = await admin.client.get(`/api/brevet_eptane/${(await row('M-DE')).id}`);
    expect(detail.body.brevet_eptane.schedule_mismatch).toEqual({ code: 'due_differs', Quantieme: 9, DateEcheance: '2026-03-31' });
    // An unknown filter value is a 400.
    expect((await admin.client.get('/api/brevet_eptane?schedule=maybe')).status).toBe(400);
  });

  it('import again with the engine’s date: the flag goes, in the same write', async () => {
    const res = await admin.client.upload('/api/patent_imports', [
      { filename: 'fixed.csv', content: csv([['M-DE', 'MM1', 'Cabinet Mismatch', 'REF-DE', 'DE', 'national', '2018-03-15', '2026-03-31', 9, '540']]) },
    ]);
    await t.drainQueue();
    const done = await admin.client.get(`/api/patent_imports/${res.body.patent_import._id}`);
    expect(done.body.patent_import).toMatchObject({ state: 'Done', updated: 1, flagged: 0 });
    expect(await row('M-DE')).toMatchObject({ dateEcheance: '2026-03-31', scheduleCode: null, scheduleQuantieme: null, scheduleEcheance: null });
    expect(await mismatches()).toEqual(['M-FR']);
  });

  it('sync: the back office’s row that disagrees is stored, flagged and counted', async () => {
    const machine = t.client();
    const rows = [
      { idagenda: 'S-BE', code_client: 'MM1', cabinet: 'Cabinet Mismatch', Pays: 'BE', Origine: 'national', Depot: '2024-07-09', DateEcheance: '2026-09-28', Quantieme: 4, cost: 1300.69 },
      { idagenda: 'S-OK', code_client: 'MM1', cabinet: 'Cabinet Mismatch', Pays: 'BE', Origine: 'national', Depot: '2024-07-09', DateEcheance: '2026-07-31', Quantieme: 3, cost: 40 },
    ];
    const res = await machine.put('/api/brevet_eptane/sync', { brevet_eptane: rows }, { authorization: `Bearer ${SYNC_KEY}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ inserted: 2, rejected: 0, flagged: 1 });
    // BE filed 2024-07-09: annuity 4 falls due on 2027-07-31.
    expect(await row('S-BE')).toMatchObject({ scheduleCode: 'due_differs', scheduleQuantieme: 4, scheduleEcheance: '2027-07-31' });
    expect((await row('S-OK')).scheduleCode).toBeNull();
  });

  it('add: an accepted submission whose due date the engine does not give is stored, flagged', async () => {
    const db = t.portal.ctx.db;
    const [cabinet] = await db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Mismatch'));
    const form = {
      numero_depot: 'BE 2024/05123',
      numero_publication: '',
      date_depot: '2024-07-09',
      reference_client: 'ADD-BE',
      reference_cabinet: '',
      date_echeance_annuites: '2026-09-28',
      pays: 'BE',
      origine: 'national',
      instruction_paiement: null,
      quantieme: 4,
      cout: 1300.69,
    };
    const created = await agent.client.post('/api/brevet_eptane/create', form);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const accepted = await admin.client.put(`/api/patent_submissions/${created.body.submission._id}/accept`, { cabinet: cabinet!.id, code_client: 'MM1' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.brevet_eptane).toMatchObject({ DateEcheance: '2026-09-28', Quantieme: 4, schedule_mismatch: { code: 'due_differs', Quantieme: 4, DateEcheance: '2027-07-31' } });
    // Without date and number the engine proposes them: agrees.
    const proposed = await agent.client.post('/api/brevet_eptane/create', { ...form, reference_client: 'ADD-BE-2', date_echeance_annuites: '', quantieme: null, cout: null });
    const ok = await admin.client.put(`/api/patent_submissions/${proposed.body.submission._id}/accept`, { cabinet: cabinet!.id, code_client: 'MM1' });
    expect(ok.body.brevet_eptane).toMatchObject({ DateEcheance: '2026-07-31', Quantieme: 3, schedule_mismatch: null });
  });

  it('admin edit: the edited record is checked again in the same write (flag set, then cleared); an unchecked row is checked when next written', async () => {
    const id = (await row('S-OK')).id;
    const wrong = await admin.client.put(`/api/brevet_eptane/update/${id}`, { DateEcheance: '2026-12-31', version: (await row('S-OK')).version });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(200);
    expect(wrong.body.brevet_eptane.schedule_mismatch).toEqual({ code: 'due_differs', Quantieme: 3, DateEcheance: '2026-07-31' });
    const fixed = await admin.client.put(`/api/brevet_eptane/update/${id}`, { DateEcheance: '2026-07-31', version: wrong.body.brevet_eptane.version });
    expect(fixed.body.brevet_eptane.schedule_mismatch).toBeNull();
    // Only the filing date changes: the stored number and date no longer match the schedule.
    const refiled = await admin.client.put(`/api/brevet_eptane/update/${id}`, { Depot: '2024-03-09', version: fixed.body.brevet_eptane.version });
    expect(refiled.body.brevet_eptane.schedule_mismatch).toEqual({ code: 'due_differs', Quantieme: 3, DateEcheance: '2026-03-31' });

    // A row written before the check (inserted as such): an edit of another field checks it.
    const [cabinet] = await t.portal.ctx.db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Mismatch'));
    const [old] = await t.portal.ctx.db
      .insert(patentRecords)
      .values({ idagenda: 'OLD-NL', cabinetId: cabinet!.id, clientCode: 'MM1', pays: 'NL', origine: 'national', dateDepot: '2020-02-10', dateEcheance: '2026-02-10', quantieme: 7 })
      .returning();
    expect(old!.scheduleChecked).toBe(false);
    const edited = await admin.client.put(`/api/brevet_eptane/update/${old!.id}`, { ReferenceClient: 'REF-OLD', version: 1 });
    expect(edited.body.brevet_eptane.schedule_mismatch).toMatchObject({ code: 'due_differs', Quantieme: 7 });
    expect((await row('OLD-NL')).scheduleChecked).toBe(true);
  });

  // A second API process on the same database starts: PostgreSQL only (each PGlite test database is in memory, one process's).
  it.runIf(kind === 'postgres')('start-up: records no checking path wrote (from before the check) are checked when the API starts', async () => {
    const [cabinet] = await t.portal.ctx.db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Mismatch'));
    await t.portal.ctx.db.insert(patentRecords).values({ idagenda: 'OLD-FR', cabinetId: cabinet!.id, clientCode: 'MM1', pays: 'FR', origine: 'national', dateDepot: '2019-05-10', dateEcheance: '2027-05-10', quantieme: 9 });
    expect((await row('OLD-FR')).scheduleChecked).toBe(false);
    const second = await createPortal(t.config, { clock: t.clock, logger: createLogger({ level: 'error', name: 'api-second' }) });
    await second.close();
    // FR: annuity 9 of a patent filed 2019-05-10 falls due at the end of May 2027.
    expect(await row('OLD-FR')).toMatchObject({ scheduleChecked: true, scheduleCode: 'due_differs', scheduleQuantieme: 9, scheduleEcheance: '2027-05-31' });
  });

  it('seed:demo: due dates, numbers and fees from the engine (none flagged); records no checking path wrote are checked', async () => {
    const db = t.portal.ctx.db;
    const [cabinet] = await db.select().from(cabinets).where(eq(cabinets.name, 'Cabinet Mismatch'));
    await db.insert(patentRecords).values({ idagenda: 'OLD-DE', cabinetId: cabinet!.id, clientCode: 'MM1', pays: 'DE', dateDepot: '2018-03-15', dateEcheance: '2026-12-31', quantieme: 9 });
    const result = await seedDemoPortfolio(db, { patents: 120, cabinets: 2, today: TODAY, passwordHash: null });
    expect(result.patents).toBe(120);
    const demo = await db.select().from(patentRecords).where(like(patentRecords.idagenda, 'DEMO-%'));
    expect(demo).toHaveLength(120);
    for (const r of demo) {
      expect(r.scheduleChecked).toBe(true);
      expect(r.scheduleCode, `${r.idagenda} ${r.pays} ${r.dateDepot} ${r.quantieme} ${r.dateEcheance}`).toBeNull();
      // The engine itself, asked here: every dated demo record names one of its annuities.
      if (r.dateEcheance !== null && isOffice(r.pays)) {
        const check = checkRecord({ office: r.pays, origin: originOf(r.pays, r.origine), filing: parseIsoDate(r.dateDepot!), number: r.quantieme, due: parseIsoDate(r.dateEcheance) });
        expect(check.status, r.idagenda).toBe('agrees');
      }
    }
    // The complaint: BE, DE, FR and NL due dates fall on month ends, as their rules say.
    const monthEnds = demo.filter((r) => ['BE', 'DE', 'FR', 'NL'].includes(r.pays) && r.dateEcheance !== null);
    expect(monthEnds.length).toBeGreaterThan(10);
    for (const r of monthEnds) expect(new Date(Date.parse(`${r.dateEcheance}T00:00:00Z`) + 86_400_000).getUTCDate(), `${r.idagenda} ${r.dateEcheance}`).toBe(1);
    expect(await row('OLD-DE')).toMatchObject({ scheduleChecked: true, scheduleCode: 'due_differs', scheduleQuantieme: 9, scheduleEcheance: '2026-03-31' });
  });
});
