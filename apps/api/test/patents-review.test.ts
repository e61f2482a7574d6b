import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { currencyRates, mailAttachments, mails, patentInstructionEvents, patentRecords, patentSubmissions, userCabinets, users } from '@portal/db';
import { multipart } from './support/multipart.ts';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { databaseKinds, type TestClient, type TestPortal } from './support/portal.ts';

const TODAY = '2027-03-01';
const FR = { 'accept-language': 'fr' };
type User = { client: TestClient; id: string; email: string };

describe.each(databaseKinds())('patents: audit trail, schedule, confirmation mail, submissions, edit, new case (%s)', (kind) => {
  let t: TestPortal;
  let cabinetA: string;
  let cabinetB: string;
  let agentA: User;
  let agentB: User;
  let adminTest: User;
  let admin: User;
  let annuities: User;
  let world: PatentWorld;
  let ids: Record<string, string>;
  const seed: PatentWorld['seed'] = (rows) => world.seed(rows);
  const row: PatentWorld['row'] = (idagenda) => world.row(idagenda);
  /** The mails sent since `before` (after the queue drained), as raw .eml texts. */
  const newMails = async (before: number) => {
    await t.drainQueue();
    return t.outbox().slice(before).map((m) => m.raw);
  };
  /** Quoted-printable (bodies, and `=?UTF-8?Q?…?=` headers) back to UTF-8 text. */
  const unQuote = (text: string, underscores = false) => {
    const bytes: number[] = [];
    const plain = text.replace(/=\r?\n/g, '');
    for (let i = 0; i < plain.length; i++) {
      const hex = plain[i] === '=' ? /^[0-9A-F]{2}/.exec(plain.slice(i + 1))?.[0] : undefined;
      if (hex) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(underscores && plain[i] === '_' ? ' ' : plain[i]!));
    }
    return Buffer.from(bytes).toString('utf8');
  };
  const header = (raw: string, name: string) =>
    (new RegExp(`^${name}: (.*(?:\r?\n[ \t].*)*)`, 'mi').exec(raw)?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ').replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_m, q: string) => unQuote(q, true)).trim();
  const decoded = (raw: string) => unQuote(raw);

  beforeAll(async () => {
    world = await startPatentWorld(kind, TODAY, 'Review');
    ({ t, cabinetA, cabinetB, ids } = world);
    const db = t.portal.ctx.db;
    agentA = await t.loginAs('user_agent_annuites');
    agentB = await t.loginAs('user_agent_annuites');
    adminTest = await t.loginAs('admin_test');
    admin = await t.loginAs('admin');
    annuities = await t.loginAs('user_annuites');
    await db.insert(userCabinets).values([
      { userId: agentA.id, cabinetId: cabinetA },
      { userId: agentB.id, cabinetId: cabinetB },
    ]);
    // agentA reads French (its mails too) and holds a client code.
    await db.update(users).set({ langue: 'fr', code: ['CODE-A'] }).where(eq(users.id, agentA.id));
    await db.insert(currencyRates).values([
      { currency: 'GBP', validFrom: '2026-01-01', eurPerUnit: '1.10000000' },
      { currency: 'GBP', validFrom: '2027-01-01', eurPerUnit: '1.20000000' },
      { currency: 'GBP', validFrom: '2027-06-01', eurPerUnit: '9.00000000' },
    ]);
    await seed([
      { idagenda: 'R-1', referenceClient: 'REF-ONE', numeroDepot: 'EP100', dateEcheance: '2027-06-01' },
      { idagenda: 'R-2', referenceClient: 'REF-TWO', numeroDepot: 'FR200', pays: 'FR', dateEcheance: '2027-07-01' },
      { idagenda: 'R-3', referenceClient: 'REF-THREE', numeroDepot: 'EP300', dateEcheance: '2027-08-01' },
      { idagenda: 'FR-NAT', pays: 'FR', origine: 'national', dateDepot: '2020-05-10' },
      { idagenda: 'GB-NAT', pays: 'GB', origine: 'Nationale', dateDepot: '2018-03-15', quantieme: 10 },
      { idagenda: 'NO-OFFICE', pays: 'XX', dateDepot: '2020-05-10' },
      { idagenda: 'NO-FILING', pays: 'DE' },
      { idagenda: 'B-1', cabinetId: cabinetB, clientCode: 'CODE-B', dateEcheance: '2027-06-01' },
    ]);
  });
  afterAll(async () => t?.close());

  describe('confirmation mail and audit trail', () => {
    it('one instruction: one confirmation mail to the agent, in its language, listing it', async () => {
      const before = t.outbox().length;
      const res = await agentA.client.put(`/api/brevet_eptane/update/instruction_paiement/${ids['R-1']}`, { instruction_paiement: 1, version: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const sent = await newMails(before);
      expect(sent).toHaveLength(1);
      expect(header(sent[0]!, 'To')).toBe(agentA.email);
      const text = decoded(sent[0]!);
      expect(text).toMatch(/Nous avons enregistré les instructions de paiement suivantes/);
      expect(text).toContain('- REF-ONE | EP100 | EP | 2027-06-01 | Payer');
    });

    it('a bulk update of two patents: ONE mail listing both; a refused bulk update sends none', async () => {
      const before = t.outbox().length;
      const item = (idagenda: string, instruction: number) => ({ idagenda, instructionBeingUpdated: instruction, version: 1 });
      const refused = await agentA.client.put('/api/brevet_eptane/many/update_instruction', { patents: [item('R-2', 2), item('B-1', 2)] });
      expect(refused.status).toBe(409);
      const res = await agentA.client.put('/api/brevet_eptane/many/update_instruction', { patents: [item('R-2', 2), item('R-3', 4)] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const sent = await newMails(before);
      expect(sent).toHaveLength(1);
      const text = decoded(sent[0]!);
      expect(text).toContain('REF-TWO | FR200 | FR | 2027-07-01 |');
      expect(text).toContain('REF-THREE | EP300 | EP | 2027-08-01 |');
      expect(header(sent[0]!, 'Subject')).toMatch(/\(2\)/);
    });

    it('the trail of a patent, newest first, with the user, old → new instruction and status, source; same read rule as the detail', async () => {
      t.clock.advance(1000);
      const edit = await admin.client.put(`/api/brevet_eptane/update/${ids['R-1']}`, { id_instruction: 4, version: 2 });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      const res = await agentA.client.get(`/api/brevet_eptane/${ids['R-1']}/events`);
      expect(res.status).toBe(200);
      expect(res.body.events).toEqual([
        expect.objectContaining({ old_instruction: 1, new_instruction: 4, old_status: 'processed', new_status: 'processed', source: 'edit', user: { _id: admin.id, name: expect.stringMatching(/^Test admin/) } }),
        expect.objectContaining({ old_instruction: null, new_instruction: 1, old_status: 'unprocessed', new_status: 'processed', source: 'screen', user: { _id: agentA.id, name: expect.any(String) } }),
      ]);
      expect((await agentB.client.get(`/api/brevet_eptane/${ids['R-1']}/events`)).status).toBe(404);
      expect((await adminTest.client.get(`/api/brevet_eptane/${ids['R-1']}/events`)).status).toBe(200);
      expect((await annuities.client.get(`/api/brevet_eptane/${ids['R-1']}/events`)).status).toBe(403);
      expect((await admin.client.get('/api/brevet_eptane/not-a-uuid/events')).status).toBe(400);
    });
  });

  describe('annuity schedule', () => {
    it('a national French patent: every annuity with due date, grace end and fee in euros; the remaining total', async () => {
      const res = await agentA.client.get(`/api/brevet_eptane/${ids['FR-NAT']}/schedule`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, reason: null, office: 'FR', expiry_date: '2040-05-10', next_number: 8 });
      const eighth = res.body.annuities.find((a: { number: number }) => a.number === 8);
      expect(eighth).toMatchObject({ due_date: '2027-05-31', currency: 'EUR', fee: 136, fee_eur: 136, rate_date: null, payment_date: '2027-05-31', fee_table: 'FR-2024-04-01', fee_verified: false });
      expect(res.body.annuities[0].number).toBe(2);
      const remaining = res.body.annuities.filter((a: { number: number }) => a.number >= 8).reduce((sum: number, a: { fee_eur: number }) => sum + a.fee_eur, 0);
      expect(res.body.total_remaining_eur).toBeCloseTo(remaining, 2);
    });

    it('a British patent: fees in pounds converted with the rate in force today (not a later one)', async () => {
      const res = await agentA.client.get(`/api/brevet_eptane/${ids['GB-NAT']}/schedule`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.next_number).toBe(10);
      const tenth = res.body.annuities.find((a: { number: number }) => a.number === 10);
      expect(tenth).toMatchObject({ currency: 'GBP', fee: 170, fee_eur: 204, rate_date: '2027-01-01' });
      // The 2018 table ended on 31 March 2026 and the 2026 schedule is not known: the amount is shown, unverified.
      expect(tenth).toMatchObject({ fee_table: 'GB-2018-04-06', fee_verified: false });
    });

    it('a patent the engine cannot schedule: an empty list with the reason, not an error; IDOR 404', async () => {
      expect((await admin.client.get(`/api/brevet_eptane/${ids['NO-OFFICE']}/schedule`)).body).toMatchObject({ reason: 'unknown_office', annuities: [], office: null });
      expect((await admin.client.get(`/api/brevet_eptane/${ids['NO-FILING']}/schedule`)).body).toMatchObject({ reason: 'missing_filing_date', annuities: [] });
      expect((await agentB.client.get(`/api/brevet_eptane/${ids['FR-NAT']}/schedule`)).status).toBe(404);
      expect((await annuities.client.get(`/api/brevet_eptane/${ids['FR-NAT']}/schedule`)).status).toBe(403);
    });
  });

  describe('admin edit', () => {
    it('edits fields with the version read; stale 409; clearing with null; agents and admin_test 403; unknown instruction 400', async () => {
      const before = await row('R-3');
      const stale = await admin.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { ReferenceClient: 'X', version: before.version + 1 });
      expect([stale.status, stale.body.code]).toEqual([409, 'stale_version']);
      const res = await admin.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { ReferenceClient: ' REF-3B ', NoPublication: 'EP3333', cost: 12.5, Depot: '2019-01-02', noDepot: null, version: before.version });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.brevet_eptane).toMatchObject({ ReferenceClient: 'REF-3B', NoPublication: 'EP3333', cost: 12.5, Depot: '2019-01-02', noDepot: null, id_instruction: 4, version: before.version + 1 });
      // No instruction change: no audit row.
      expect((await t.portal.ctx.db.select().from(patentInstructionEvents).where(eq(patentInstructionEvents.patentId, ids['R-3']!))).map((e) => e.source)).toEqual(['bulk']);
      for (const who of [agentA, adminTest]) expect((await who.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { ReferenceClient: 'Y', version: 3 })).status).toBe(403);
      const unknown = await admin.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { id_instruction: 9, version: 3 });
      expect([unknown.status, unknown.body.code]).toEqual([400, 'unknown_instruction']);
      const badDate = await admin.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { Depot: '2019-02-30', version: 3 }, FR);
      expect([badDate.status, badDate.body.code]).toEqual([400, 'invalid_date_format']);
      expect(badDate.body.message).toMatch(/^Format de date invalide/);
      expect((await admin.client.put('/api/brevet_eptane/update/00000000-0000-4000-8000-000000000000', { ReferenceClient: 'Y', version: 1 })).status).toBe(404);
    });

    it('clearing the instruction makes the patent unprocessed again, audited with the source edit', async () => {
      t.clock.advance(1000);
      const res = await admin.client.put(`/api/brevet_eptane/update/${ids['R-3']}`, { id_instruction: null, version: 3 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.brevet_eptane.instruction).toEqual({ id_instruction: null, traitement_instruction: 'unprocessed' });
      const events = await admin.client.get(`/api/brevet_eptane/${ids['R-3']}/events`);
      expect(events.body.events[0]).toMatchObject({ old_instruction: 4, new_instruction: null, old_status: 'processed', new_status: 'unprocessed', source: 'edit' });
    });
  });

  describe('submitted patents', () => {
    const form = {
      numero_depot: 'FR2005555',
      numero_publication: '',
      date_depot: '2020-05-10',
      reference_client: 'SUB-REF',
      reference_cabinet: 'CAB-1',
      date_echeance_annuites: '',
      pays: 'fr',
      origine: 'national',
      instruction_paiement: 1,
      quantieme: null,
      cout: null,
    };
    let submissionId: string;

    it('any patent user submits the spec’s form; it waits as pending (nothing joins the portfolio yet)', async () => {
      const res = await agentA.client.post('/api/brevet_eptane/create', form);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.submission).toMatchObject({ status: 'pending', numero_depot: 'FR2005555', numero_publication: null, pays: 'FR', instruction_paiement: 1, submitted_by: { _id: agentA.id } });
      submissionId = res.body.submission._id;
      t.clock.advance(1000);
      expect((await adminTest.client.post('/api/brevet_eptane/create', { pays: 'DE', quantieme: 4, cout: 70 })).status).toBe(200);
      expect((await annuities.client.post('/api/brevet_eptane/create', form)).status).toBe(403);
      expect((await t.portal.ctx.db.select().from(patentRecords).where(eq(patentRecords.referenceClient, 'SUB-REF')))).toEqual([]);
    });

    it('bad input: a bad date, no country, an unknown instruction, a negative cost are 400s, translated', async () => {
      const date = await agentA.client.post('/api/brevet_eptane/create', { ...form, date_depot: '10/05/2020' }, FR);
      expect([date.status, date.body.code, date.body.fields]).toEqual([400, 'invalid_date_format', { date_depot: 'invalid_date_format' }]);
      const country = await agentA.client.post('/api/brevet_eptane/create', { ...form, pays: '' });
      expect(country.body).toMatchObject({ code: 'country_required', message: 'Please choose a country.' });
      expect((await agentA.client.post('/api/brevet_eptane/create', { ...form, pays: undefined }, FR)).body.message).toBe('Veuillez choisir un pays.');
      const instruction = await agentA.client.post('/api/brevet_eptane/create', { ...form, instruction_paiement: 9 });
      expect([instruction.status, instruction.body.code]).toEqual([400, 'unknown_instruction']);
      expect((await agentA.client.post('/api/brevet_eptane/create', { ...form, cout: -1 })).status).toBe(400);
      expect((await agentA.client.post('/api/brevet_eptane/create', { ...form, quantieme: 2.5 })).status).toBe(400);
      expect((await agentA.client.post('/api/brevet_eptane/create', { ...form, extra: 1 })).status).toBe(400);
    });

    it('the add form’s proposal: the engine’s next annuity (due date, number, fee in euros) from office, origin and filing date; bad input 400; other roles 403', async () => {
      const res = await agentA.client.get('/api/brevet_eptane/proposal?pays=fr&origine=national&date_depot=2020-05-10');
      expect([res.status, res.body]).toEqual([200, { success: true, date_echeance_annuites: '2027-05-31', quantieme: 8, cout: 136 }]);
      // An office the engine does not know: nothing proposed, not an error.
      const unknown = await adminTest.client.get('/api/brevet_eptane/proposal?pays=US&date_depot=2020-05-10');
      expect([unknown.status, unknown.body]).toEqual([200, { success: true, date_echeance_annuites: null, quantieme: null, cout: null }]);
      const bad = await agentA.client.get('/api/brevet_eptane/proposal?pays=FR&date_depot=10%2F05%2F2020', FR);
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_date_format']);
      expect((await agentA.client.get('/api/brevet_eptane/proposal?date_depot=2020-05-10')).status).toBe(400);
      expect((await annuities.client.get('/api/brevet_eptane/proposal?pays=FR&date_depot=2020-05-10')).status).toBe(403);
    });

    it('admins list the pending submissions, paged; others 403', async () => {
      const res = await admin.client.get('/api/patent_submissions?limit=1');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ currentPage: 1, totalPages: 2, pageSize: 1, total: 2 });
      expect(res.body.patent_submissions[0]._id).toBe(submissionId);
      for (const who of [agentA, adminTest]) expect((await who.client.get('/api/patent_submissions')).status).toBe(403);
      expect((await admin.client.get('/api/patent_submissions?status=done')).status).toBe(400);
    });

    it('accepting creates the record: WEB-<n>, the submitter’s cabinet and code, due date, annuity number and cost from the engine, the instruction audited', async () => {
      expect((await agentA.client.put(`/api/patent_submissions/${submissionId}/accept`, {})).status).toBe(403);
      const res = await admin.client.put(`/api/patent_submissions/${submissionId}/accept`, {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.submission).toMatchObject({ status: 'accepted', patent_id: res.body.brevet_eptane._id });
      expect(res.body.brevet_eptane).toMatchObject({
        idagenda: 'WEB-1',
        cabinet: { _id: cabinetA },
        code_client: 'CODE-A',
        noDepot: 'FR2005555',
        Pays: 'FR',
        DateEcheance: '2027-05-31',
        Quantieme: 8,
        cost: 136,
        id_instruction: 1,
        instruction: { id_instruction: 1, traitement_instruction: 'processed' },
      });
      const events = await agentA.client.get(`/api/brevet_eptane/${res.body.brevet_eptane._id}/events`);
      expect(events.body.events).toEqual([expect.objectContaining({ source: 'submission', new_instruction: 1, user: expect.objectContaining({ _id: agentA.id }) })]);
      const twice = await admin.client.put(`/api/patent_submissions/${submissionId}/accept`, {});
      expect([twice.status, twice.body.code]).toEqual([409, 'submission_reviewed']);
      expect((await admin.client.put(`/api/patent_submissions/${submissionId}/reject`, { reason: 'late' })).status).toBe(409);
    });

    it('an admin_test submission (no cabinet): accepting needs a cabinet and a code, then numbers WEB-2; without an instruction nothing is audited', async () => {
      const [pending] = await t.portal.ctx.db.select().from(patentSubmissions).where(eq(patentSubmissions.submittedBy, adminTest.id));
      const noCabinet = await admin.client.put(`/api/patent_submissions/${pending!.id}/accept`, {});
      expect([noCabinet.status, noCabinet.body.code]).toEqual([400, 'cabinet_required']);
      const noCode = await admin.client.put(`/api/patent_submissions/${pending!.id}/accept`, { cabinet: cabinetB }, FR);
      expect([noCode.status, noCode.body.code, noCode.body.message]).toEqual([400, 'client_code_required', 'Veuillez indiquer un code client.']);
      const res = await admin.client.put(`/api/patent_submissions/${pending!.id}/accept`, { cabinet: cabinetB, code_client: 'CODE-B' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // No filing date: the engine proposes nothing; the form's annuity number and cost stay.
      expect(res.body.brevet_eptane).toMatchObject({ idagenda: 'WEB-2', cabinet: { _id: cabinetB }, code_client: 'CODE-B', DateEcheance: null, Quantieme: 4, cost: 70, id_instruction: null });
      expect((await agentB.client.get(`/api/brevet_eptane/${res.body.brevet_eptane._id}/events`)).body.events).toEqual([]);
      expect((await agentA.client.get(`/api/brevet_eptane/${res.body.brevet_eptane._id}`)).status).toBe(404);
    });

    it('rejecting keeps the reason and mails it to the submitter in its language; twice 409; no reason 400', async () => {
      const created = await agentA.client.post('/api/brevet_eptane/create', { ...form, reference_client: 'SUB-REJ' });
      const id = created.body.submission._id as string;
      const empty = await admin.client.put(`/api/patent_submissions/${id}/reject`, { reason: '  ' });
      expect(empty.body).toMatchObject({ code: 'reason_required', message: 'Please give a reason.' });
      const before = t.outbox().length;
      const res = await admin.client.put(`/api/patent_submissions/${id}/reject`, { reason: 'Déjà dans le portefeuille\nsous une autre référence' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.submission).toMatchObject({ status: 'rejected', reason: 'Déjà dans le portefeuille\nsous une autre référence', patent_id: null });
      const sent = await newMails(before);
      expect(sent).toHaveLength(1);
      expect(header(sent[0]!, 'To')).toBe(agentA.email);
      expect(decoded(sent[0]!)).toMatch(/SUB-REJ/);
      const twice = await admin.client.put(`/api/patent_submissions/${id}/reject`, { reason: 'again' });
      expect([twice.status, twice.body.code]).toEqual([409, 'submission_reviewed']);
      expect((await admin.client.put('/api/patent_submissions/00000000-0000-4000-8000-000000000000/reject', { reason: 'x' })).status).toBe(404);
    });
  });

  describe('new case', () => {
    const send = async (client: TestClient, files: Array<{ filename: string; content: Buffer | string }>) => {
      const { body, contentType } = multipart({}, files);
      const res = await fetch(`${t.url}/api/file/send_email_for_new_case`, {
        method: 'POST',
        headers: { 'x-api-key': t.config.security.apiKey, origin: t.origin, cookie: client.cookieHeader(), 'content-type': contentType, 'accept-language': 'en' },
        body,
      });
      return { status: res.status, body: (await res.json()) as { success: boolean; code?: string; message?: string } };
    };

    it('mails support with the file attached (reply-to the sender) and a copy to the sender, both written together', async () => {
      const before = t.outbox().length;
      const pdf = Buffer.from('%PDF-1.4 new case content\n');
      const res = await send(agentA.client, [{ filename: 'nouveau dossier.pdf', content: pdf }]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ success: true });
      const rows = await t.portal.ctx.db.select().from(mails).where(eq(mails.template, 'new_case'));
      expect(rows.map((m) => m.recipient).sort()).toEqual([agentA.email, t.config.mail.supportAddress].sort());
      const toSupport = rows.find((m) => m.recipient === t.config.mail.supportAddress)!;
      expect(toSupport.replyTo).toBe(agentA.email);
      const attachments = await t.portal.ctx.db.select().from(mailAttachments).where(eq(mailAttachments.mailId, toSupport.id));
      expect(attachments).toEqual([expect.objectContaining({ filename: 'nouveau dossier.pdf', contentType: 'application/pdf', size: pdf.length })]);

      const sent = await newMails(before);
      expect(sent).toHaveLength(2);
      const support = sent.find((raw) => header(raw, 'To') === t.config.mail.supportAddress)!;
      expect(support).toMatch(/Content-Disposition: attachment;[\s\S]*nouveau/);
      expect(support).toContain(pdf.toString('base64').slice(0, 20));
      const copy = sent.find((raw) => header(raw, 'To') === agentA.email)!;
      expect(copy).not.toMatch(/Content-Disposition: attachment/);
      expect(decoded(copy)).toMatch(/Nouveau dossier/);
    });

    it('refuses a missing file (400), a type outside the list (415), callers without a patent role (403) and anonymous ones (401)', async () => {
      const none = await send(agentA.client, []);
      expect([none.status, none.body.code]).toEqual([400, 'error_choose_file']);
      const exe = await send(agentA.client, [{ filename: 'tool.exe', content: 'MZ' }]);
      expect([exe.status, exe.body.code]).toEqual([415, 'wrong_extension']);
      // Issue 26: a 0-byte file is refused as the receipts refuse it; nothing is mailed.
      const empty = await send(agentA.client, [{ filename: 'empty.pdf', content: Buffer.alloc(0) }]);
      expect([empty.status, empty.body.code, empty.body.message]).toEqual([400, 'empty_file', 'The file is empty.']);
      expect((await send(annuities.client, [{ filename: 'a.pdf', content: '%PDF' }])).status).toBe(403);
      expect((await send(t.client(), [{ filename: 'a.pdf', content: '%PDF' }])).status).toBe(401);
    });

    it('bounds the size: past 10 MB it is a 413 and nothing is mailed', async () => {
      const count = (await t.portal.ctx.db.select().from(mails).where(eq(mails.template, 'new_case'))).length;
      const big = await send(agentA.client, [{ filename: 'big.pdf', content: Buffer.alloc(10 * 1024 * 1024 + 10, 65) }]);
      expect(big.status).toBe(413);
      expect((await t.portal.ctx.db.select().from(mails).where(eq(mails.template, 'new_case'))).length).toBe(count);
    });
  });
});
