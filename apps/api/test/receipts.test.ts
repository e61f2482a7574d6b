import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { receiptUploads, receipts, userCabinets, users } from '@portal/db';
import { markReceiptUploadFailed, receiptStorageKey } from '@portal/jobs';
import { xlsxBuffer } from '../../../packages/annuities/test/support/workbooks.ts';
import { buildZip, minimalXlsxEntries, type RawEntry } from '../../../packages/annuities/test/support/zip.ts';
import { startPatentWorld, type PatentWorld } from './support/patents.ts';
import { corruptPdf, makePdf, receiptPdf } from './support/pdf.ts';
import { databaseKinds, type TestClient, type TestPortal } from './support/portal.ts';

/**
 * Receipts (issue 13): uploads of one PDF or a zip of PDFs, read by the receipts queue (inline here);
 * every hostile archive of the reliability catalogue's UP- rows, with nothing lost: each accepted PDF
 * is a stored receipt, each refused entry is listed. Fixtures are generated here (support/pdf.ts, the
 * annuities' hand-built zips), never committed.
 */
const MB = 1024 * 1024;
const KEY_SHAPE = /^receipts\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/;

/** A manifest workbook (ExcelJS, another writer than ours): its first row is the header. */
function manifestXlsx([headers = [], ...rows]: Array<Array<string | number | null>>): Promise<Buffer> {
  return xlsxBuffer([{ name: 'manifest', headers: headers.map(String), rows }]);
}

describe.each(databaseKinds())('receipts (%s)', (kind) => {
  let world: PatentWorld;
  let t: TestPortal;
  let agentA: { client: TestClient; id: string };
  let agentB: { client: TestClient; id: string };
  let agentCode: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  let annuitiesUser: { client: TestClient; id: string };
  let events: Array<{ to: string; event: string; dto: any }>;

  function upload(client: TestClient, filename: string, content: Buffer | string | null, lang = 'en') {
    return client.upload('/api/recepisse', content === null ? [] : [{ filename, content }], {}, { 'accept-language': lang });
  }

  /** Uploads, runs the queue, and answers the finished upload and its receipts (by entry). */
  async function run(client: TestClient, filename: string, content: Buffer) {
    const res = await upload(client, filename, content);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toBe(true);
    expect(res.body.upload.state).toBe('in_progress');
    await t.drainQueue();
    const id: string = res.body.upload._id;
    const [row] = await t.portal.ctx.db.select().from(receiptUploads).where(eq(receiptUploads.id, id));
    const made = await t.portal.ctx.db.select().from(receipts).where(eq(receipts.uploadId, id)).orderBy(receipts.entryIndex);
    return { id, row: row!, made };
  }

  /** Nothing lost: every entry is a receipt or a listed refusal, every receipt's PDF is in storage. */
  async function nothingLost(r: Awaited<ReturnType<typeof run>>) {
    expect(r.row.state).toBe('Done');
    expect(r.row.receiptsCreated).toBe(r.made.length);
    expect(r.row.receiptsCreated + r.row.refusedCount).toBe(r.row.entriesTotal);
    expect(r.row.refused).toHaveLength(r.row.refusedCount);
    for (const receipt of r.made) {
      expect(receipt.storageKey).toMatch(KEY_SHAPE);
      const stream = await t.portal.ctx.storage.get(receipt.storageKey);
      const chunks: Buffer[] = [];
      for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
      expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  }

  async function storedReceiptKeys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const object of t.portal.ctx.storage.list({ prefix: 'receipts/' })) keys.push(object.key);
    return keys;
  }

  beforeAll(async () => {
    world = await startPatentWorld(kind, '2027-03-01', 'Receipts');
    t = world.t;
    const db = t.portal.ctx.db;
    agentA = await t.loginAs('user_agent_annuites');
    agentB = await t.loginAs('user_agent_annuites');
    agentCode = await t.loginAs('user_agent_annuites');
    admin = await t.loginAs('admin');
    annuitiesUser = await t.loginAs('user_annuites');
    await db.insert(userCabinets).values([
      { userId: agentA.id, cabinetId: world.cabinetA },
      { userId: agentB.id, cabinetId: world.cabinetB },
    ]);
    await db.update(users).set({ code: ['CODE-X'] }).where(eq(users.id, agentCode.id));
    await world.seed([
      { idagenda: 'R-A1', referenceClient: 'CLI-A1' },
      { idagenda: 'R-A2', referenceClient: 'CLI-A2' },
      { idagenda: 'R-B1', referenceClient: 'CLI-B1', cabinetId: world.cabinetB, clientCode: 'CODE-B' },
      { idagenda: 'R-X1', referenceClient: 'CLI-X1', cabinetId: world.cabinetB, clientCode: 'CODE-X' },
    ]);
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
  afterAll(async () => world?.t.close());

  it('a single PDF: one receipt, its references read from its text, linked to the patent of that client reference', async () => {
    const r = await run(agentA.client, 'recu A1.pdf', receiptPdf({ client: 'CLI-A1', inpi: 'INPI-2027-1', provider: 'PAY-991', date: '12/02/2027' }));
    await nothingLost(r);
    expect(r.made).toHaveLength(1);
    expect(r.made[0]).toMatchObject({
      fileName: 'recu A1.pdf',
      referenceClient: 'CLI-A1',
      referenceInpi: 'INPI-2027-1',
      referenceProvider: 'PAY-991',
      dateOrdrePaiement: '2027-02-12',
      source: 'pdf_text',
      needsCompletion: false,
      pdfError: null,
      patentId: world.ids['R-A1'],
      cabinetId: world.cabinetA,
      clientCode: 'CODE-A',
    });
    // Progress and result went live to the uploader and the admins.
    const mine = events.filter((e) => e.event === 'receipts:upload:updated' && e.dto._id === r.id);
    expect(mine.some((e) => e.to === agentA.id && e.dto.state === 'in_progress')).toBe(true);
    expect(mine.some((e) => e.to === agentA.id && e.dto.state === 'Done' && e.dto.receipts_created === 1)).toBe(true);
    expect(mine.some((e) => e.to === 'admins' && e.dto.state === 'Done')).toBe(true);
  });

  it('a zip with a CSV manifest: references from the manifest; a reference the uploader may not see is not linked', async () => {
    const manifest = 'file;reference_client;reference_inpi;reference_dennemeyer;date_ordre_paiement\r\n' + 'a2.pdf;CLI-A2;INPI-2;DEN-2;2027-01-31\r\n' + 'docs/b1.pdf;CLI-B1;INPI-3;DEN-3;31/01/2027\r\n';
    const zip = buildZip([
      { name: 'manifest.csv', data: manifest },
      { name: 'a2.pdf', data: makePdf(['no labels here']) },
      { name: 'docs/', data: '' },
      { name: 'docs/b1.pdf', data: makePdf(['nothing either']) },
    ]);
    const r = await run(agentA.client, 'batch.zip', zip);
    await nothingLost(r);
    expect(r.row.entriesTotal).toBe(2);
    expect(r.made.map((m) => [m.fileName, m.source, m.referenceClient, m.referenceProvider, m.dateOrdrePaiement, m.patentId])).toEqual([
      ['a2.pdf', 'manifest', 'CLI-A2', 'DEN-2', '2027-01-31', world.ids['R-A2']],
      ['b1.pdf', 'manifest', 'CLI-B1', 'DEN-3', '2027-01-31', null],
    ]);
    // Not linked: the uploader's cabinet decides who sees it.
    expect(r.made[1]).toMatchObject({ cabinetId: world.cabinetA, clientCode: null });
  });

  it('a zip with an xlsx manifest, uploaded by an admin: any patent is linked', async () => {
    const manifest = await manifestXlsx([
      ['file', 'reference_client', 'reference_inpi', 'reference_provider', 'date_ordre_paiement'],
      ['x1.pdf', 'CLI-X1', 'INPI-X', 'PRV-X', '2027-02-01'],
    ]);
    const r = await run(admin.client, 'admin.zip', buildZip([{ name: 'MANIFEST.XLSX', data: manifest }, { name: 'x1.pdf', data: makePdf(['x']) }]));
    await nothingLost(r);
    expect(r.made[0]).toMatchObject({ source: 'manifest', referenceClient: 'CLI-X1', referenceInpi: 'INPI-X', patentId: world.ids['R-X1'], cabinetId: world.cabinetB, clientCode: 'CODE-X' });
  });

  it('a zip without a manifest: references from each PDF text, else empty and flagged to complete', async () => {
    const zip = buildZip([
      { name: 'one.pdf', data: receiptPdf({ client: 'CLI-A1', inpi: 'I-1', provider: 'P-1', date: '2027-02-20' }) },
      { name: 'partial.pdf', data: receiptPdf({ client: 'CLI-A2' }) },
      { name: 'blank.pdf', data: makePdf(['Merci pour votre paiement']) },
    ]);
    const r = await run(agentA.client, 'texts.zip', zip);
    await nothingLost(r);
    expect(r.made.map((m) => [m.fileName, m.source, m.referenceClient, m.needsCompletion])).toEqual([
      ['one.pdf', 'pdf_text', 'CLI-A1', false],
      ['partial.pdf', 'pdf_text', 'CLI-A2', true],
      ['blank.pdf', 'none', null, true],
    ]);
  });

  // Issue 26: a stored zip holds its first PDF's `%PDF-` at byte 40, within the first 1,024 bytes;
  // the zip's signature at offset 0 decides, so every entry and the manifest are read.
  it.each([
    ['stored', (i: number) => i >= 0],
    ['deflated', () => false],
    ['mixed', (i: number) => i % 2 === 0],
  ] as const)('a %s zip of six PDFs with a manifest: six receipts, references from the manifest', async (method, stored) => {
    const names = ['s1.pdf', 's2.pdf', 's3.pdf', 's4.pdf', 's5.pdf', 's6.pdf'];
    const manifest = 'file;reference_client\r\n' + names.map((n) => `${n};CLI-A1`).join('\r\n') + '\r\n';
    const zip = buildZip([
      ...names.map((name, i) => ({ name, data: makePdf([`receipt ${i + 1}`]), stored: stored(i) })),
      { name: 'manifest.csv', data: manifest, stored: stored(names.length) },
    ]);
    if (method === 'stored') expect(zip.subarray(0, 1024).includes(Buffer.from('%PDF-', 'latin1'))).toBe(true);
    const r = await run(agentA.client, `${method}.zip`, zip);
    await nothingLost(r);
    expect(r.row.entriesTotal).toBe(6);
    expect(r.made.map((m) => [m.fileName, m.source, m.referenceClient, m.patentId])).toEqual(names.map((n) => [n, 'manifest', 'CLI-A1', world.ids['R-A1']]));
    // The same archive named .pdf is a zip all the same: refused at once, not read as one PDF.
    const named = await upload(agentA.client, `${method}.pdf`, zip);
    expect(named.status).toBe(415);
    expect(named.body).toMatchObject({ success: false, code: 'wrong_receipt_type' });
  });

  it('an empty zip (end of central directory only) ends Done with no receipt', async () => {
    const r = await run(agentA.client, 'empty.zip', buildZip([]));
    expect(r.row).toMatchObject({ state: 'Done', entriesTotal: 0, receiptsCreated: 0 });
  });

  it('bad entries: a nested zip, an .exe, a disguised executable and deflate garbage are refused and listed; a corrupt PDF is a receipt with its error', async () => {
    const zip = buildZip([
      { name: 'good.pdf', data: receiptPdf({ client: 'CLI-A1' }) },
      { name: 'inner.zip', data: buildZip([{ name: 'x.pdf', data: makePdf(['x']) }]) },
      { name: 'tool.exe', data: 'MZ\u0090\u0000binary' },
      { name: 'disguised.pdf', data: 'MZ\u0090\u0000not a pdf' },
      { name: 'zipped.pdf', data: buildZip([{ name: 'y.pdf', data: makePdf(['y']) }]) },
      { name: 'garbage.pdf', data: 'x'.repeat(100), compressedOverride: Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0x00, 0x01]) },
      { name: 'broken.pdf', data: corruptPdf() },
      { name: 'secret.pdf', data: makePdf(['s']), flags: 1 },
    ]);
    const r = await run(agentA.client, 'bad.zip', zip);
    await nothingLost(r);
    expect(r.row.refused).toEqual([
      { entry: 'inner.zip', code: 'nested_archive' },
      { entry: 'tool.exe', code: 'not_pdf' },
      { entry: 'disguised.pdf', code: 'not_pdf' },
      { entry: 'zipped.pdf', code: 'nested_archive' },
      { entry: 'garbage.pdf', code: 'corrupt_entry' },
      { entry: 'secret.pdf', code: 'encrypted_entry' },
    ]);
    expect(r.made.map((m) => [m.fileName, m.pdfError, m.needsCompletion])).toEqual([
      ['good.pdf', null, true],
      ['broken.pdf', 'unreadable_pdf', true],
    ]);
  });

  it('UP-12 traversal entry names are refused and listed; no name ever becomes a storage key', async () => {
    const pdf = makePdf(['p']);
    const names = ['../../../../tmp/pwn.pdf', '/etc/x.pdf', '..\\x.pdf', 'a/../../b.pdf', 'C:/win.pdf', 'ok/./c.pdf', '．．／d.pdf'];
    const r = await run(agentA.client, 'slip.zip', buildZip([...names.map((name) => ({ name, data: pdf })), { name: 'fine/inner name.pdf', data: pdf }]));
    await nothingLost(r);
    expect(r.row.refused.map((x) => x.code)).toEqual(names.map(() => 'unsafe_entry_name'));
    expect(r.made.map((m) => m.fileName)).toEqual(['inner name.pdf']);
    expect(r.made[0]!.storageKey).toMatch(KEY_SHAPE);
  });

  it('UP-02 too many entries: the upload ends Error, nothing is kept', async () => {
    const empty = deflateRawSync(Buffer.alloc(0));
    const entries: RawEntry[] = [{ name: 'first.pdf', data: makePdf(['f']) }];
    for (let i = 0; i < 1_001; i++) entries.push({ name: `e/${i}.pdf`, data: '', compressedOverride: empty });
    const r = await run(agentA.client, 'many.zip', buildZip(entries));
    expect(r.row).toMatchObject({ state: 'Error', errorCode: 'too_many_entries' });
    expect(r.made).toHaveLength(0);
  });

  it('UP-01 inflated size: declared sizes over the total cap end Error before anything is inflated', async () => {
    const entries: RawEntry[] = [];
    for (let i = 0; i < 12; i++) entries.push({ name: `big${i}.pdf`, repeat: { chunk: `%PDF-1.4\n${'A'.repeat(MB - 9)}`, times: 19 } });
    const r = await run(agentA.client, 'bomb.zip', buildZip(entries));
    expect(r.row).toMatchObject({ state: 'Error', errorCode: 'archive_too_large' });
    expect(r.made).toHaveLength(0);
    // How long the reader takes over this archive: `npm run bench -- hostile-inputs`.
  });

  it('UP-03 lying sizes: an entry declaring 1 KB that inflates to 150 MB is refused; the other PDF is kept', async () => {
    const zip = buildZip([
      { name: 'liar.pdf', repeat: { chunk: 'B'.repeat(MB), times: 150, prefix: '%PDF-1.4\n' }, declaredSize: 1024 },
      { name: 'fine.pdf', data: makePdf(['fine']) },
    ]);
    const r = await run(agentA.client, 'liar.zip', zip);
    await nothingLost(r);
    expect(r.row.refused).toEqual([{ entry: 'liar.pdf', code: 'entry_too_large' }]);
    expect(r.made.map((m) => m.fileName)).toEqual(['fine.pdf']);
  });

  it('UP-04 a manifest with a DOCTYPE (XXE), or without a file column, ends Error (unreadable_manifest) and keeps nothing', async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const rows = `<row r="1">${cell('A1', 'file')}${cell('B1', 'reference_client')}</row><row r="2">${cell('A2', 'a.pdf')}${cell('B2', 'CLI-A2')}</row>`;
    const pdf = makePdf(['p']);
    // The same workbook without the DOCTYPE is a good manifest: the refusal below is the DOCTYPE's.
    const control = await run(agentA.client, 'manifest-ok.zip', buildZip([{ name: 'manifest.xlsx', data: buildZip(minimalXlsxEntries({}, rows)) }, { name: 'a.pdf', data: pdf }]));
    expect(control.made.map((m) => [m.source, m.referenceClient])).toEqual([['manifest', 'CLI-A2']]);
    const xxe = buildZip(minimalXlsxEntries({ 'xl/sharedStrings.xml': '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sst><si><t>&e;</t></si></sst>' }, rows));
    for (const manifest of [{ name: 'manifest.xlsx', data: xxe }, { name: 'manifest.csv', data: 'name;reference_client\r\na.pdf;X\r\n' }]) {
      const r = await run(agentA.client, 'manifest.zip', buildZip([manifest, { name: 'a.pdf', data: pdf }]));
      expect(r.row).toMatchObject({ state: 'Error', errorCode: 'unreadable_manifest' });
      expect(r.made).toHaveLength(0);
    }
  });

  it('UP-10 a truncated or garbage zip ends Error (malformed_archive); the worker stays up', async () => {
    const zip = buildZip([{ name: 'a.pdf', data: makePdf(['a']) }]);
    for (const bytes of [zip.subarray(0, zip.length - 30), Buffer.concat([zip.subarray(0, 4), Buffer.alloc(300, 7)])]) {
      const r = await run(agentA.client, 'cut.zip', bytes);
      expect(r.row).toMatchObject({ state: 'Error', errorCode: 'malformed_archive' });
      expect(r.made).toHaveLength(0);
    }
    const after = await run(agentA.client, 'after.pdf', makePdf(['still works']));
    expect(after.row.state).toBe('Done');
  });

  it('refused at once: no file, an empty file, a wrong type, a name that lies about the content', async () => {
    const none = await upload(agentA.client, 'x', null);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ success: false, code: 'error_choose_file' });
    const empty = await upload(agentA.client, 'empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ success: false, code: 'empty_file' });
    const txt = await upload(agentA.client, 'notes.txt', 'hello');
    expect(txt.status).toBe(415);
    expect(txt.body).toMatchObject({ success: false, code: 'wrong_receipt_type', message: 'Only a PDF or a zip of PDFs can be sent, and the file’s content must match its extension.' });
    const zipAsPdf = await upload(agentA.client, 'fake.pdf', buildZip([{ name: 'a.pdf', data: 'x' }]));
    expect(zipAsPdf.status).toBe(415);
    const htmlAsZip = await upload(agentA.client, 'fake.zip', '<html></html>');
    expect(htmlAsZip.status).toBe(415);
    // French, from the caller's language.
    const frTxt = await upload(agentA.client, 'notes.txt', 'hello', 'fr');
    expect(frTxt.status).toBe(415);
    expect(frTxt.body.message).toBe('Seul un PDF ou un zip de PDF peut être envoyé, et le contenu du fichier doit correspondre à son extension.');
    const frNone = await upload(agentA.client, 'x', null, 'fr');
    expect(frNone.body).toMatchObject({ code: 'error_choose_file', message: 'Veuillez choisir un fichier.' });
    // Nothing of the refusals stayed.
    const count = (await t.portal.ctx.db.select().from(receiptUploads).where(eq(receiptUploads.originalName, 'notes.txt'))).length;
    expect(count).toBe(0);
  });

  it('a rerun of a finished upload stores nothing twice', async () => {
    const r = await run(agentA.client, 'twice.zip', buildZip([{ name: 'a.pdf', data: makePdf(['a']) }, { name: 'b.pdf', data: makePdf(['b']) }]));
    await t.portal.ctx.db.update(receiptUploads).set({ state: 'in_progress' }).where(eq(receiptUploads.id, r.id));
    await t.portal.ctx.queue.enqueue('receipts', { uploadId: r.id });
    await t.drainQueue();
    const made = await t.portal.ctx.db.select().from(receipts).where(eq(receipts.uploadId, r.id));
    expect(made.map((m) => m.storageKey).sort()).toEqual(r.made.map((m) => m.storageKey).sort());
    const [row] = await t.portal.ctx.db.select().from(receiptUploads).where(eq(receiptUploads.id, r.id));
    expect(row).toMatchObject({ state: 'Done', receiptsCreated: 2, attempts: 2 });
  });

  // Issue 26: the PDF was stored before the patent lookup and the insert, and only the conflict path
  // deleted it. Here the database itself refuses the insert (a trigger raising, as a PostgreSQL
  // going away or a constraint would), once on the first attempt and on every attempt of another upload.
  it('the database refusing a receipt between its object and its row leaves no object without a row', async () => {
    const db = t.portal.ctx.db;
    await db.execute(sql`create sequence if not exists test_refuse_receipt_once`);
    await db.execute(sql`create or replace function test_refuse_receipt() returns trigger language plpgsql as $$
      begin
        if new.file_name = 'refused-once.pdf' and nextval('test_refuse_receipt_once') = 1 then raise exception 'refused by the test (once)'; end if;
        if new.file_name = 'refused-always.pdf' then raise exception 'refused by the test (always)'; end if;
        return new;
      end $$`);
    await db.execute(sql`create trigger test_refuse_receipt before insert on receipts for each row execute function test_refuse_receipt()`);
    try {
      const before = new Set(await storedReceiptKeys());
      const once = await run(agentA.client, 'refused-once.zip', buildZip([{ name: 'first.pdf', data: makePdf(['1']) }, { name: 'refused-once.pdf', data: makePdf(['2']) }, { name: 'last.pdf', data: makePdf(['3']) }]));
      await nothingLost(once);
      expect(once.row).toMatchObject({ state: 'Done', attempts: 2, receiptsCreated: 3 });
      // Every attempt refused: the upload ends Error, the receipts written before the refusal stay.
      const always = await run(agentA.client, 'refused-always.zip', buildZip([{ name: 'kept.pdf', data: makePdf(['1']) }, { name: 'refused-always.pdf', data: makePdf(['2']) }]));
      expect(always.row).toMatchObject({ state: 'Error', errorCode: 'processing_failed' });
      expect(always.made.map((m) => m.fileName)).toEqual(['kept.pdf']);

      const recorded = new Set([
        ...(await db.select({ key: receipts.storageKey }).from(receipts)).map((r) => r.key),
        ...(await db.select({ key: receiptUploads.storageKey }).from(receiptUploads)).map((r) => r.key),
      ]);
      const stray = (await storedReceiptKeys()).filter((key) => !before.has(key) && !recorded.has(key));
      expect(stray).toEqual([]);

      // A killed attempt cannot delete: the object it stored for its entry waits under the entry's
      // key (the retry rewrites it); an upload ending in Error deletes those keys no row records.
      const [killed] = await db.update(receiptUploads).set({ state: 'in_progress', entriesTotal: 3 }).where(eq(receiptUploads.id, always.id)).returning();
      const orphan = receiptStorageKey(killed!, 2);
      await t.portal.ctx.storage.put(orphan, makePdf(['left by a killed worker']), { contentType: 'application/pdf' });
      await markReceiptUploadFailed(t.portal.ctx, always.id, 'processing_failed');
      expect(await storedReceiptKeys()).not.toContain(orphan);
      expect(await storedReceiptKeys()).toContain(always.made[0]!.storageKey);
    } finally {
      await db.execute(sql`drop trigger test_refuse_receipt on receipts`);
    }
  }, 120_000);

  it('GET /recepisse: each sees its cabinets, codes and own uploads (admins all); search, sort and paging in the database', async () => {
    // This test's own receipts (the others' are there too, whatever ran before: the expectations count from the database).
    const tag = `L${Date.now().toString(36)}`;
    await run(agentA.client, `${tag}.zip`, buildZip([
      { name: `${tag}-one.pdf`, data: receiptPdf({ client: 'CLI-A1', inpi: `INPI-${tag}`, provider: 'P', date: '2027-01-01' }) },
      { name: `${tag}-PARTIAL.pdf`, data: receiptPdf({ client: 'CLI-A2' }) },
    ]));
    await run(admin.client, `${tag}-admin.zip`, buildZip([{ name: 'manifest.csv', data: `file;reference_client\r\nx.pdf;CLI-X1\r\n` }, { name: 'x.pdf', data: makePdf(['x']) }]));
    const a = await agentA.client.get('/api/recepisse?limit=100');
    expect(a.status).toBe(200);
    const stored = await t.portal.ctx.db.select().from(receipts);
    const ownUploads = new Set((await t.portal.ctx.db.select().from(receiptUploads).where(eq(receiptUploads.ownerId, agentA.id))).map((u) => u.id));
    const visibleToA = stored.filter((m) => m.cabinetId === world.cabinetA || ownUploads.has(m.uploadId));
    expect(a.body.meta.total).toBe(visibleToA.length);
    expect(a.body.recepisse.every((r: any) => typeof r.path === 'string' && r.path.startsWith('receipts/'))).toBe(true);
    const all = await admin.client.get('/api/recepisse?limit=100');
    expect(all.body.meta.total).toBe(stored.length);
    // agentCode sees the receipts linked to the CODE-X patent (uploaded by the admin), nothing of cabinet A.
    const code = await agentCode.client.get('/api/recepisse?limit=100');
    expect(code.body.recepisse.length).toBeGreaterThanOrEqual(1);
    expect(code.body.recepisse.every((r: any) => r.reference_client === 'CLI-X1' && r.patent?.idagenda === 'R-X1')).toBe(true);
    // agentB's cabinet is that patent's cabinet: the same receipts, nothing of cabinet A.
    const b = await agentB.client.get('/api/recepisse?limit=100');
    expect(b.body.recepisse.map((r: any) => r._id).sort()).toEqual(code.body.recepisse.map((r: any) => r._id).sort());

    const search = await agentA.client.get(`/api/recepisse?search=${`inpi-${tag}`.toLowerCase()}`);
    expect(search.body.recepisse.map((r: any) => r.file_name)).toEqual([`${tag}-one.pdf`]);
    const byName = await agentA.client.get(`/api/recepisse?search=${tag}-partial`);
    expect(byName.body.recepisse.map((r: any) => [r.file_name, r.needs_completion])).toEqual([[`${tag}-PARTIAL.pdf`, true]]);
    expect((await agentB.client.get(`/api/recepisse?search=${tag}`)).body.meta.total).toBe(0);
    const sorted = await agentA.client.get('/api/recepisse?sort=file_name&order=asc&limit=3&page=1');
    const names = visibleToA.map((m) => m.fileName).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(sorted.body.recepisse.map((r: any) => r.file_name)).toEqual(names.slice(0, 3));
    expect(sorted.body.meta).toEqual({ currentPage: 1, totalPages: Math.ceil(visibleToA.length / 3), pageSize: 3, total: visibleToA.length });
    const page2 = await agentA.client.get('/api/recepisse?sort=file_name&order=asc&limit=3&page=2');
    expect(page2.body.recepisse.map((r: any) => r.file_name)).toEqual(names.slice(3, 6));
    const toComplete = await agentA.client.get('/api/recepisse?to_complete=1&limit=100');
    expect(toComplete.body.recepisse.every((r: any) => r.needs_completion)).toBe(true);
    expect(toComplete.body.meta.total).toBe(visibleToA.filter((m) => m.needsCompletion).length);
    expect((await agentA.client.get('/api/recepisse?sort=password')).status).toBe(400);
    expect((await agentA.client.get('/api/recepisse?limit=1000')).status).toBe(400);
  });

  /** A receipt of cabinet A (linked to R-A1), uploaded by agentA for the test at hand. */
  async function receiptOfA(name: string) {
    const r = await run(agentA.client, name, receiptPdf({ client: 'CLI-A1' }));
    return r.made[0]!;
  }

  it('IDOR: another cabinet\'s receipt is a 404 by id and by download; the owner and admins get it', async () => {
    const theirs = await receiptOfA('idor receipt.pdf');
    expect(theirs.patentId).toBe(world.ids['R-A1']);
    expect((await agentB.client.get(`/api/recepisse/${theirs.id}`)).status).toBe(404);
    const denied = await agentB.client.get(`/api/download/recepisse?file_path=${encodeURIComponent(theirs.storageKey)}`);
    expect(denied.status).toBe(404);
    expect(denied.body).toEqual({ success: false, code: 'not_found', message: 'The requested item could not be found. Please try again; if it persists, contact support.' });
    const own = await agentA.client.get(`/api/recepisse/${theirs.id}`);
    expect(own.status).toBe(200);
    expect(own.body.recepisse).toMatchObject({ _id: theirs.id, reference_client: 'CLI-A1', patent: { idagenda: 'R-A1' } });
    const file = await agentA.client.get(`/api/download/recepisse?file_path=${encodeURIComponent(own.body.recepisse.path)}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="idor receipt.pdf"');
    expect(file.text.startsWith('%PDF-')).toBe(true);
    expect((await admin.client.get(`/api/recepisse/${theirs.id}`)).status).toBe(200);
    expect((await agentA.client.get('/api/recepisse/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Receipts are the patent users': an annuities-only user is forbidden, a visitor unauthenticated.
    expect((await annuitiesUser.client.get('/api/recepisse')).status).toBe(403);
    expect((await upload(annuitiesUser.client, 'a.pdf', makePdf(['a']))).status).toBe(403);
    expect((await t.client().get('/api/recepisse')).status).toBe(401);
  });

  it('UP-14 every traversal form of file_path is the same 404, logged, with nothing read from storage', async () => {
    const realKey = (await receiptOfA('traversal.pdf')).storageKey;
    const [upload0] = await t.portal.ctx.db.select().from(receiptUploads).limit(1);
    const storage = t.portal.ctx.storage;
    const original = storage.get.bind(storage);
    let reads = 0;
    storage.get = async (key: string) => {
      reads++;
      return original(key);
    };
    const corpus = [
      '../', '../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%252e%252e%252f', '..\\..\\windows\\win.ini', '/etc/passwd',
      `${realKey}%00.pdf`, `${realKey}\u0000`, '．．／．．／etc/passwd', './a/../b', `receipts/../../${realKey}`, `${realKey}/../../../etc/passwd`,
      'a'.repeat(2048), 'receipts/2027/01/00000000-0000-4000-8000-000000000000.pdf', upload0!.storageKey, 'ledes/original/x.txt',
    ];
    const logsBefore = t.logs.length;
    try {
      for (const file_path of corpus) {
        const res = await agentB.client.get(`/api/download/recepisse?file_path=${encodeURIComponent(file_path)}`);
        expect(res.status, file_path).toBe(404);
        expect(res.body).toEqual({ success: false, code: 'not_found', message: 'The requested item could not be found. Please try again; if it persists, contact support.' });
      }
      // The other cabinet's real key, too.
      expect((await agentB.client.get(`/api/download/recepisse?file_path=${encodeURIComponent(realKey)}`)).status).toBe(404);
      expect(reads).toBe(0);
    } finally {
      storage.get = original;
    }
    const denials = t.logs.slice(logsBefore).filter((line) => line.includes('"event":"download_denied"') && line.includes('"kind":"receipt"'));
    expect(denials.length).toBe(corpus.length + 1);
    expect(denials.join('\n')).not.toContain('etc/passwd');
  });

  it('the patent detail lists its receipts; a patent outside the caller\'s reach is a 404', async () => {
    const made = await receiptOfA('detail.pdf');
    const res = await agentA.client.get(`/api/brevet_eptane/${world.ids['R-A1']}/recepisse`);
    expect(res.status).toBe(200);
    expect(res.body.recepisse.map((r: any) => r._id)).toContain(made.id);
    expect(res.body.recepisse.every((r: any) => r.patent._id === world.ids['R-A1'])).toBe(true);
    expect((await agentB.client.get(`/api/brevet_eptane/${world.ids['R-A1']}/recepisse`)).status).toBe(404);
  });

  it('the upload page lists the caller\'s own runs with their refused entries', async () => {
    const name = `runs-${Date.now().toString(36)}.zip`;
    await run(agentA.client, name, buildZip([{ name: 'ok.pdf', data: makePdf(['ok']) }, { name: 'inner.zip', data: buildZip([{ name: 'x.pdf', data: 'x' }]) }]));
    const res = await agentA.client.get('/api/recepisse/uploads?limit=50');
    expect(res.status).toBe(200);
    expect(res.body.uploads.find((u: any) => u.name === name)).toMatchObject({ state: 'Done', receipts_created: 1, refused_count: 1, refused: [{ entry: 'inner.zip', code: 'nested_archive' }] });
    const others = await agentB.client.get('/api/recepisse/uploads?limit=50');
    expect(others.body.uploads.some((u: any) => u.name === name)).toBe(false);
  });
});
