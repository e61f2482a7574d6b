import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { extractText, getDocumentProxy } from 'unpdf';
import { agentFees, cabinetServiceFees, cabinets, patentRecords, renewalCallItems, renewalCalls, renewalCallSettings, renewalCallSteps, users } from '@portal/db';
import { gatherCalls, runRenewalCalls, type RenewalCallsDeps } from '@portal/jobs';
import type { Storage } from '@portal/storage';
import { databaseKinds, startTestPortal, type TestPortal } from './support/portal.ts';

/*
 * Issue 30 §3: renewal calls per client. Hand-computed figures (the engine's FR and DE tables):
 * FR annuity 8 = 136 EUR, surcharge in grace 50 % = 68 EUR; DE annuity 5 = 100 EUR.
 */
const DAY1 = '2027-03-01';

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

async function xlsxRows(bytes: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** Storage whose `put` fails from the `failAt`-th call on (a worker dying mid-run). */
function failingStorage(inner: Storage, failAt: number): Pick<Storage, 'put'> & { puts: number } {
  const wrapper = {
    puts: 0,
    async put(...args: Parameters<Storage['put']>) {
      wrapper.puts += 1;
      if (wrapper.puts >= failAt) throw Object.assign(new Error('storage unreachable'), { code: 'ECONNRESET' });
      return inner.put(...args);
    },
  };
  return wrapper;
}

describe.each(databaseKinds())('renewal calls per client (%s)', (kind) => {
  let t: TestPortal;
  let cabinetA: string;
  let cabinetB: string;
  const ids: Record<string, string> = {};
  let seen = 0;
  const agents: Record<string, string> = {};

  const deps = (storage?: Pick<Storage, 'put'>): RenewalCallsDeps => ({
    db: t.portal.ctx.db,
    logger: t.portal.ctx.logger,
    storage: storage ?? t.portal.ctx.storage,
    clock: t.clock,
    enqueueMail: async (mailId) => {
      await t.portal.ctx.queue.enqueue('mail', { mailId });
    },
  });
  /** The mails sent since the last call, parsed from the outbox. */
  async function newMails(): Promise<ParsedMail[]> {
    await t.drainQueue();
    const all = t.outbox().filter((m) => /renewal call|appel de renouvellement/i.test(m.raw));
    const fresh = all.slice(seen);
    seen = all.length;
    return Promise.all(fresh.map((m) => simpleParser(m.raw)));
  }
  const callOf = async (code: string) => (await t.portal.ctx.db.select().from(renewalCalls).where(eq(renewalCalls.clientCode, code)))[0];
  const stepsOf = async (code: string) => {
    const call = await callOf(code);
    return call ? (await t.portal.ctx.db.select().from(renewalCallSteps).where(eq(renewalCallSteps.callId, call.id))).map((s) => s.step).sort() : [];
  };

  beforeAll(async () => {
    t = await startTestPortal(kind);
    t.clock.advance(Date.parse(`${DAY1}T08:00:00Z`) - t.clock.now().getTime());
    const db = t.portal.ctx.db;
    [cabinetA, cabinetB] = (await db.insert(cabinets).values([{ name: `Calls A ${kind}` }, { name: `Calls B ${kind}` }]).returning()).map((c) => c.id) as [string, string];
    // Cabinet B: a 30-day window and a 10-day margin; cabinet A has the defaults (90 days, 30 days, reminder 14 days before).
    await db.insert(renewalCallSettings).values({ cabinetId: cabinetB, windowDays: 30, marginDays: 10, reminderDays: 5 });
    const rows = await db
      .insert(patentRecords)
      .values([
        { idagenda: 'C1-a', cabinetId: cabinetA, clientCode: 'C1', pays: 'FR', quantieme: 8, dateEcheance: '2027-04-30', referenceClient: 'REF-C1A', numeroDepot: 'FR1500001' },
        { idagenda: 'C1-b', cabinetId: cabinetA, clientCode: 'C1', pays: 'DE', quantieme: 5, dateEcheance: '2027-05-15', referenceClient: 'REF-C1B', numeroDepot: 'DE102022000001' },
        // Past the window's end (2027-05-30): not in the call yet.
        { idagenda: 'C1-far', cabinetId: cabinetA, clientCode: 'C1', pays: 'FR', quantieme: 4, dateEcheance: '2027-07-31', referenceClient: 'REF-C1FAR' },
        // Already instructed: no call.
        { idagenda: 'C1-given', cabinetId: cabinetA, clientCode: 'C1', pays: 'FR', quantieme: 6, dateEcheance: '2027-04-30', instructionId: 1, instructionStatus: 'processed' },
        { idagenda: 'C2-a', cabinetId: cabinetA, clientCode: 'C2', pays: 'FR', quantieme: 10, dateEcheance: '2027-05-20', referenceClient: 'REF-C2A' },
        { idagenda: 'C3-a', cabinetId: cabinetB, clientCode: 'C3', pays: 'FR', quantieme: 3, dateEcheance: '2027-03-20', referenceClient: 'REF-C3A' },
        // Inside A's window but not B's 30 days.
        { idagenda: 'C3-late', cabinetId: cabinetB, clientCode: 'C3', pays: 'FR', quantieme: 3, dateEcheance: '2027-04-15', referenceClient: 'REF-C3LATE' },
      ])
      .returning({ id: patentRecords.id, idagenda: patentRecords.idagenda });
    for (const r of rows) ids[r.idagenda] = r.id;
    for (const [name, langue, code] of [['en1', 'en', 'C1'], ['fr1', 'fr', 'C1'], ['en2', 'en', 'C2']] as const) {
      const user = await t.createUser('user_agent_annuites', { langue });
      await db.update(users).set({ code: [code], langue }).where(eq(users.id, user.id));
      agents[name] = user.email;
    }
  }, 120_000);
  afterAll(async () => t?.close());

  it('a run killed mid-send keeps what it committed; the rerun sends the rest, nothing twice', async () => {
    // C1's two mails store 4 files; the 5th put (C2's first document) fails: C1 is sent, C2 rolled back whole.
    const storage = failingStorage(t.portal.ctx.storage, 5);
    await expect(runRenewalCalls(deps(storage), DAY1)).rejects.toThrow('storage unreachable');
    expect(await stepsOf('C1')).toEqual(['first_call']);
    expect(await stepsOf('C2')).toEqual([]);
    const rerun = await runRenewalCalls(deps(), DAY1);
    expect(rerun).toMatchObject({ gathered: 0, steps: 2, mails: 1 });
    expect(await stepsOf('C2')).toEqual(['first_call']);
    expect(await stepsOf('C3')).toEqual(['first_call']);
    const again = await runRenewalCalls(deps(), DAY1);
    expect(again).toMatchObject({ gathered: 0, steps: 0, mails: 0 });
    const sent = await newMails();
    expect(sent.map((m) => (m.to as { text: string }).text).sort()).toEqual([agents.en1, agents.fr1, agents.en2].sort());
  });

  it('groups per cabinet and client code within each cabinet’s window, with “instruct before” = due − margin', async () => {
    const items = await t.portal.ctx.db.select().from(renewalCallItems);
    const byRecord = new Map(items.map((i) => [i.recordId, i]));
    expect(byRecord.get(ids['C1-a']!)).toMatchObject({ dueDate: '2027-04-30', instructBefore: '2027-03-31', closedReason: null });
    expect(byRecord.get(ids['C1-b']!)).toMatchObject({ dueDate: '2027-05-15', instructBefore: '2027-04-15' });
    expect(byRecord.get(ids['C3-a']!)).toMatchObject({ dueDate: '2027-03-20', instructBefore: '2027-03-10' });
    for (const out of ['C1-far', 'C1-given', 'C3-late']) expect(byRecord.has(ids[out]!)).toBe(false);
    const c1 = (await callOf('C1'))!;
    expect(items.filter((i) => i.callId === c1.id)).toHaveLength(2);
    expect(c1).toMatchObject({ cabinetId: cabinetA, openedOn: DAY1, closedOn: null, held: false });
    expect((await callOf('C3'))!.cabinetId).toBe(cabinetB);
  });

  it('the first call’s mails, opened: the agent’s language, the PDF text and the xlsx cells carry the figures', async () => {
    // Sent again from the outbox of the first test: read them from the files.
    const all = await Promise.all(t.outbox().filter((m) => /renewal call|appel de renouvellement/i.test(m.raw)).map((m) => simpleParser(m.raw)));
    const en = all.find((m) => (m.to as { text: string }).text === agents.en1)!;
    const fr = all.find((m) => (m.to as { text: string }).text === agents.fr1)!;
    expect(en.subject).toBe('First call: renewal call for client C1 (2)');
    expect(fr.subject).toMatch(/^Premier appel\s:\sappel de renouvellement pour le client C1 \(2\)$/u);
    expect(en.text).toContain('REF-C1A | FR | application FR1500001 | annuity 8 | due 2027-04-30 | instruct before 2027-03-31 | official fee 136.00 EUR | surcharge 0.00 EUR | total 136.00 EUR');
    expect(en.text).toContain('236.00 EUR');
    expect(en.text).toContain('before 2027-03-31');
    expect(fr.text).toContain('échéance 30/04/2027 | instruire avant le 31/03/2027 | taxe officielle 136,00 EUR');
    expect(en.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['C1-first_call-2027-03-01.pdf', 'application/pdf'],
      ['C1-first_call-2027-03-01.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    const text = await pdfText(en.attachments[0]!.content);
    expect(text).toContain('Renewal call — First call');
    expect(text).toContain('Client code: C1');
    expect(text).toMatch(/REF-C1A FR FR1500001 8 2027-04-30 2027-03-31 136\.00 EUR 0\.00 EUR 0\.00 EUR 0\.00 EUR 0\.00 EUR 136\.00 EUR/);
    expect(text).toMatch(/REF-C1B DE DE102022000001 5 2027-05-15 2027-04-15 100\.00 EUR 0\.00 EUR 0\.00 EUR 0\.00 EUR 0\.00 EUR 100\.00 EUR/);
    expect(text).toMatch(/Totals per currency 236\.00 EUR/);
    const frText = await pdfText(fr.attachments[0]!.content);
    expect(frText).toContain('Appel de renouvellement — Premier appel');
    expect(frText).toMatch(/30\/04\/2027 31\/03\/2027 136,00 EUR 0,00 EUR 0,00 EUR 0,00 EUR 0,00 EUR 136,00 EUR/);
    const rows = await xlsxRows(en.attachments[1]!.content);
    expect(rows[0]).toEqual(['Client code', 'Your reference', 'Office', 'Application', 'Annuity', 'Due date', 'Instruct before', 'Currency', 'Official fee', 'Surcharge', "Agent's fee", 'Service fee', 'Margin', 'Total (EUR, ECB rate)']);
    expect(rows[1]!.slice(0, 5)).toEqual(['C1', 'REF-C1A', 'FR', 'FR1500001', 8]);
    expect((rows[1]![5] as Date).toISOString().slice(0, 10)).toBe('2027-04-30');
    expect((rows[1]![6] as Date).toISOString().slice(0, 10)).toBe('2027-03-31');
    expect(rows[1]!.slice(7)).toEqual(['EUR', 136, 0, 0, 0, 0, 136]);
    expect(rows[2]!.slice(7)).toEqual(['EUR', 100, 0, 0, 0, 0, 100]);
    const frRows = await xlsxRows(fr.attachments[1]!.content);
    expect(frRows[0]![0]).toBe('Code client');
  });

  it('closing item by item: payment recorded, instruction given, right lapsed; then the reminder goes for what is left', async () => {
    const db = t.portal.ctx.db;
    await db.update(patentRecords).set({ datePaiementOffice: '2027-03-05' }).where(eq(patentRecords.id, ids['C1-b']!));
    await db.update(patentRecords).set({ instructionId: 1, instructionStatus: 'processed' }).where(eq(patentRecords.id, ids['C2-a']!));
    await db.update(patentRecords).set({ ledgerState: 'lapsed' }).where(eq(patentRecords.id, ids['C3-a']!));
    // 2027-03-16: a day before C1's reminder (2027-03-31 − 14 days).
    const before = await runRenewalCalls(deps(), '2027-03-16');
    // C3-late now falls in cabinet B's 30 days (until 2027-04-15): it joins C3's open call, which stays open.
    expect(before).toMatchObject({ gathered: 1, closedItems: 3, closedCalls: 1, steps: 0 });
    const items = new Map((await db.select().from(renewalCallItems)).map((i) => [i.recordId, i]));
    expect(items.get(ids['C1-b']!)).toMatchObject({ closedReason: 'paid', closedOn: '2027-03-16' });
    expect(items.get(ids['C2-a']!)).toMatchObject({ closedReason: 'instructed' });
    expect(items.get(ids['C3-a']!)).toMatchObject({ closedReason: 'lapsed' });
    expect((await callOf('C2'))!.closedOn).toBe('2027-03-16');
    expect(items.get(ids['C3-late']!)).toMatchObject({ callId: (await callOf('C3'))!.id, instructBefore: '2027-04-05', closedReason: null });
    expect((await callOf('C1'))!.closedOn).toBeNull();
    const reminder = await runRenewalCalls(deps(), '2027-03-17');
    expect(reminder).toMatchObject({ steps: 1, mails: 2 });
    expect(await runRenewalCalls(deps(), '2027-03-17')).toMatchObject({ steps: 0, mails: 0 });
    expect(await stepsOf('C1')).toEqual(['first_call', 'reminder']);
    const mails = await newMails();
    const en = mails.find((m) => (m.to as { text: string }).text === agents.en1)!;
    expect(en.subject).toBe('Reminder: renewal call for client C1 (1)');
    expect(en.text).not.toContain('REF-C1B');
    expect(await pdfText(en.attachments[0]!.content)).toMatch(/Totals per currency 136\.00 EUR/);
  });

  it('last call once in grace, with the engine’s surcharge shown; sent once', async () => {
    // 2027-05-03: C1-a (due 2027-04-30) is in grace; FR surcharge 50 % of 136 = 68.
    // C1-far (due 2027-07-31) joins C1's call; C3-late (due 2027-04-15) is in grace too: C3's last call (no agent).
    const last = await runRenewalCalls(deps(), '2027-05-03');
    expect(last).toMatchObject({ gathered: 1, steps: 2, mails: 2 });
    expect(await stepsOf('C3')).toEqual(['first_call', 'last_call']);
    expect(await stepsOf('C1')).toEqual(['first_call', 'last_call', 'reminder']);
    const mails = await newMails();
    expect(mails).toHaveLength(2);
    const en = mails.find((m) => (m.to as { text: string }).text === agents.en1)!;
    expect(en.subject).toMatch(/^Last call:/);
    expect(en.text).toContain('official fee 136.00 EUR | surcharge 68.00 EUR | total 204.00 EUR');
    expect(await pdfText(en.attachments[0]!.content)).toMatch(/136\.00 EUR 68\.00 EUR 0\.00 EUR 0\.00 EUR 0\.00 EUR 204\.00 EUR/);
    expect((await xlsxRows(en.attachments[1]!.content))[1]!.slice(7)).toEqual(['EUR', 136, 68, 0, 0, 0, 204]);
    expect(await runRenewalCalls(deps(), '2027-05-04')).toMatchObject({ steps: 0, mails: 0 });
  });

  it('staff’s desk: list, preview with each part, hold stops the job, send now sends the next step once; agents are refused', async () => {
    t.clock.advance(Date.parse('2027-05-05T08:00:00Z') - t.clock.now().getTime());
    const admin = await t.loginAs('admin');
    const list = await admin.client.get('/api/renewal_calls');
    expect(list.status).toBe(200);
    const c1 = list.body.calls.find((c: { client_code: string }) => c.client_code === 'C1');
    expect(c1).toMatchObject({ step: 'last_call', next_step: null, next_step_on: null, open_items: 2, items: 3, held: false, instruct_before: '2027-03-31', instruct_before_passed: true });
    // C1-a in grace (136 + 68) and C1-far (FR annuity 4 = 38, due 2027-07-31): 242.00 EUR.
    expect(c1.totals).toEqual([{ currency: 'EUR', amount: '242.00' }]);
    const preview = await admin.client.get(`/api/renewal_calls/${c1._id}`);
    expect(preview.status).toBe(200);
    expect(preview.body.lines[0]).toMatchObject({ reference_client: 'REF-C1A', in_grace: true, total: '204.00', parts: [{ part: 'official_fee', currency: 'EUR', amount: '136.00' }, { part: 'surcharge', currency: 'EUR', amount: '68.00' }] });
    expect(preview.body.steps.map((x: { step: string }) => x.step)).toEqual(['first_call', 'reminder', 'last_call']);
    expect((await admin.client.post(`/api/renewal_calls/${c1._id}/send`, {})).body).toMatchObject({ success: false, code: 'renewal_call_nothing_to_send' });

    // A new client's call, held: the job sends nothing; send now sends its first call, once.
    await t.portal.ctx.db.insert(patentRecords).values({ idagenda: 'C4-a', cabinetId: cabinetA, clientCode: 'C4', pays: 'FR', quantieme: 5, dateEcheance: '2027-07-31', referenceClient: 'REF-C4A' });
    const user = await t.createUser('user_agent_annuites', { langue: 'fr' });
    await t.portal.ctx.db.update(users).set({ code: ['C4'] }).where(eq(users.id, user.id));
    // Gathered (as the run's first part does), then held before any step went.
    expect(await gatherCalls(t.portal.ctx.db, '2027-05-05')).toBe(1);
    const c4 = (await callOf('C4'))!;
    const held = await admin.client.post(`/api/renewal_calls/${c4.id}/hold`, { held: true });
    expect(held.status).toBe(200);
    expect(held.body.call).toMatchObject({ held: true, step: null, next_step: 'first_call', next_step_on: '2027-05-05' });
    expect(await runRenewalCalls(deps(), '2027-05-05')).toMatchObject({ steps: 0, mails: 0 });
    const sent = await admin.client.post(`/api/renewal_calls/${c4.id}/send`, {});
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ step: 'first_call', mails: 1, call: { step: 'first_call', held: true } });
    const mails = await newMails();
    expect(mails.map((m) => (m.to as { text: string }).text)).toEqual([user.email]);
    expect(mails[0]!.subject).toMatch(/^Premier appel/);
    const trail = await admin.client.get(`/api/renewal_calls/${c4.id}`);
    expect(trail.body.steps).toEqual([{ step: 'first_call', sent_on: '2027-05-05', items: 1, mails: 1, by_staff: true }]);
    // The agents' list shows the call an annuity belongs to and its "instruct before".
    const agentC4 = t.client();
    expect((await agentC4.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
    const listed = await agentC4.get('/api/brevet_eptane');
    expect(listed.status).toBe(200);
    const row = listed.body.brevet_eptane.find((p: { idagenda: string }) => p.idagenda === 'C4-a');
    expect(row.renewal_call).toEqual({ _id: c4.id, instruct_before: '2027-07-01' });
    const agent = await t.loginAs('user_agent_annuites');
    expect((await agent.client.get('/api/renewal_calls')).status).toBe(403);
    expect((await admin.client.post(`/api/renewal_calls/${c4.id}/hold`, { held: 'yes' })).status).toBe(400);
    expect((await admin.client.get('/api/renewal_calls/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
  it('"run now" runs the day’s job from the portal: a new call’s first call goes once, a second press sends nothing', async () => {
    // 2027-05-05 (the desk test's day): cabinet B's 30-day window reaches 2027-06-04.
    const db = t.portal.ctx.db;
    await db.insert(patentRecords).values({ idagenda: 'C5-a', cabinetId: cabinetB, clientCode: 'C5', pays: 'FR', quantieme: 6, dateEcheance: '2027-05-25', referenceClient: 'REF-C5A' });
    const user = await t.createUser('user_agent_annuites', { langue: 'en' });
    await db.update(users).set({ code: ['C5'] }).where(eq(users.id, user.id));
    await newMails();
    const admin = await t.loginAs('admin');
    const run = await admin.client.post('/api/renewal_calls/run', {});
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ success: true, day: '2027-05-05', outcome: 'completed' });
    expect(await stepsOf('C5')).toEqual(['first_call']);
    const mails = await newMails();
    expect(mails.map((m) => (m.to as { text: string }).text)).toEqual([user.email]);
    expect(mails[0]!.attachments.map((a) => a.contentType).sort()).toEqual(['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    const again = await admin.client.post('/api/renewal_calls/run', {});
    expect(again.body).toMatchObject({ outcome: 'completed' });
    expect(await stepsOf('C5')).toEqual(['first_call']);
    expect(await newMails()).toEqual([]);
    const agent = await t.loginAs('user_agent_annuites');
    expect((await agent.client.post('/api/renewal_calls/run', {})).status).toBe(403);
  });

  it('per-cabinet settings: defaults until saved, saved with who and when, validated, and the next run uses them', async () => {
    const admin = await t.loginAs('admin');
    const list = await admin.client.get('/api/renewal_call_settings');
    expect(list.status).toBe(200);
    const of = (body: { settings: Array<{ cabinet_id: string }> }, id: string) => body.settings.find((s) => s.cabinet_id === id);
    expect(of(list.body, cabinetA)).toMatchObject({ cabinet: `Calls A ${kind}`, window_days: 90, margin_days: 30, reminder_days: 14, saved: false, updated_by: null });
    expect(of(list.body, cabinetB)).toMatchObject({ window_days: 30, margin_days: 10, reminder_days: 5, saved: true });

    const saved = await admin.client.put(`/api/renewal_call_settings/${cabinetB}`, { window_days: 120, margin_days: 20, reminder_days: 7 });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ cabinet_id: cabinetB, window_days: 120, margin_days: 20, reminder_days: 7, saved: true, updated_by: admin.email });
    expect(saved.body.settings.updated_at).toBe(t.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z'));
    const row = (await t.portal.ctx.db.select().from(renewalCallSettings).where(eq(renewalCallSettings.cabinetId, cabinetB)))[0]!;
    expect(row).toMatchObject({ windowDays: 120, marginDays: 20, reminderDays: 7, updatedBy: admin.id });

    // Refused: the margin not shorter than the window (translated), out of bounds, not whole, unknown fields, no cabinet.
    const wide = await admin.client.put(`/api/renewal_call_settings/${cabinetB}`, { window_days: 30, margin_days: 30, reminder_days: 7 });
    expect(wide.status).toBe(400);
    expect(JSON.stringify(wide.body)).toContain('renewal_call_margin_outside_window');
    for (const body of [
      { window_days: 6, margin_days: 0, reminder_days: 0 },
      { window_days: 367, margin_days: 30, reminder_days: 14 },
      { window_days: 90, margin_days: -1, reminder_days: 14 },
      { window_days: 90, margin_days: 30, reminder_days: 181 },
      { window_days: 90.5, margin_days: 30, reminder_days: 14 },
      { window_days: 90, margin_days: 30 },
      { window_days: 90, margin_days: 30, reminder_days: 14, extra: 1 },
    ])
      expect((await admin.client.put(`/api/renewal_call_settings/${cabinetB}`, body)).status).toBe(400);
    expect((await admin.client.put('/api/renewal_call_settings/00000000-0000-4000-8000-000000000000', { window_days: 90, margin_days: 30, reminder_days: 14 })).status).toBe(404);
    const agent = await t.loginAs('user_agent_annuites');
    expect((await agent.client.get('/api/renewal_call_settings')).status).toBe(403);
    expect((await agent.client.put(`/api/renewal_call_settings/${cabinetB}`, { window_days: 90, margin_days: 30, reminder_days: 14 })).status).toBe(403);

    // The wider window (120 days from 2027-05-05: to 2027-09-02) gathers B's record due 2027-08-20 at the next run.
    await t.portal.ctx.db.insert(patentRecords).values({ idagenda: 'C6-a', cabinetId: cabinetB, clientCode: 'C6', pays: 'FR', quantieme: 6, dateEcheance: '2027-08-20', referenceClient: 'REF-C6A' });
    expect((await admin.client.post('/api/renewal_calls/run', {})).body).toMatchObject({ outcome: 'completed' });
    const c6 = await admin.client.get('/api/renewal_calls?client_code=C6');
    expect(c6.body.calls).toHaveLength(1);
    // "instruct before" = due − the saved 20-day margin.
    expect(c6.body.calls[0]).toMatchObject({ instruct_before: '2027-07-31', step: 'first_call' });
  });
  it('a call line is the sum of the parts the patent’s detail shows: official fee, surcharge, agent’s fee, service fee, margin, in euros', async () => {
    // Decision 199's one pricing path: an agent's fee for FR and cabinet A's service fee with a 10 % margin.
    const db = t.portal.ctx.db;
    await db.insert(agentFees).values({ office: 'FR', amountMinor: 4500, currency: 'EUR', validFrom: '2027-01-01' });
    await db.insert(cabinetServiceFees).values({ cabinetId: cabinetA, amountMinor: 2000, currency: 'EUR', validFrom: '2027-01-01', marginBp: 1000 });
    const admin = await t.loginAs('admin');
    const c1 = (await callOf('C1'))!;
    const preview = await admin.client.get(`/api/renewal_calls/${c1.id}`);
    expect(preview.status).toBe(200);
    const lines = preview.body.lines as Array<{ patent_id: string; reference_client: string; total: string | null; currency: string; parts: Array<{ part: string; amount: string; amount_eur: string | null }> }>;
    // C1-a in grace on 2027-05-05: 136 + 68 + 45 + 20 + 10 % of (136 + 68 + 45) = 24.90 → 293.90 EUR.
    const a = lines.find((l) => l.reference_client === 'REF-C1A')!;
    expect(a.parts.map((p) => [p.part, p.amount_eur])).toEqual([['official_fee', '136.00'], ['surcharge', '68.00'], ['agent_fee', '45.00'], ['service_fee', '20.00'], ['margin', '24.90']]);
    expect([a.total, a.currency]).toEqual(['293.90', 'EUR']);
    for (const line of lines) {
      const detail = await admin.client.get(`/api/brevet_eptane/${line.patent_id}`);
      expect(detail.status).toBe(200);
      const costs = detail.body.costs as { total_eur: number; parts: Array<{ kind: string; amount_eur: number | null }> };
      expect(line.parts.map((p) => [p.part, p.amount_eur === null ? null : Number(p.amount_eur)])).toEqual(costs.parts.map((p) => [p.kind, p.amount_eur]));
      expect(Number(line.total)).toBe(costs.total_eur);
    }
    const list = await admin.client.get('/api/renewal_calls');
    // C1-far (FR annuity 4 on its due date): 38 + 45 + 20 + 8.30 = 111.30; the call's total 293.90 + 111.30.
    expect(list.body.calls.find((c: { client_code: string }) => c.client_code === 'C1').totals).toEqual([{ currency: 'EUR', amount: '405.20' }]);
  });
  it('a call opened inside its reminder window: its first call stands for the reminder; the next step is the last call', async () => {
    // Cabinet A's defaults: C7-a due 2027-06-20, instruct before 2027-05-21, reminder from 2027-05-07. Opened 2027-05-10.
    const db = t.portal.ctx.db;
    await db.insert(patentRecords).values({ idagenda: 'C7-a', cabinetId: cabinetA, clientCode: 'C7', pays: 'FR', quantieme: 5, dateEcheance: '2027-06-20', referenceClient: 'REF-C7A' });
    await runRenewalCalls(deps(), '2027-05-10');
    expect(await stepsOf('C7')).toEqual(['first_call']);
    // The next day the schedule does not send a reminder repeating yesterday's call (it did before).
    await runRenewalCalls(deps(), '2027-05-11');
    expect(await stepsOf('C7')).toEqual(['first_call']);
    t.clock.advance(Date.parse('2027-05-11T08:00:00Z') - t.clock.now().getTime());
    const admin = await t.loginAs('admin');
    const c7 = (await admin.client.get('/api/renewal_calls')).body.calls.find((c: { client_code: string }) => c.client_code === 'C7');
    expect(c7).toMatchObject({ step: 'first_call', next_step: 'last_call', next_step_on: '2027-06-21', instruct_before: '2027-05-21', instruct_before_passed: false });
    // Staff may still ask for the reminder.
    expect((await admin.client.post(`/api/renewal_calls/${c7._id}/send`, {})).body).toMatchObject({ step: 'reminder' });
    expect(await stepsOf('C7')).toEqual(['first_call', 'reminder']);
    // In grace, the last call goes.
    await runRenewalCalls(deps(), '2027-06-21');
    expect(await stepsOf('C7')).toEqual(['first_call', 'last_call', 'reminder']);
  });
});
