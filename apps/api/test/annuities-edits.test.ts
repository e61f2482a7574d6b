import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSchedule, parseIsoDate, scheduleToJson, type Day } from '@portal/annuities';
import type { AnnuityFileDto, AnnuityPatentDto } from '@portal/contracts';
import { annuityPatents } from '@portal/db';
import { eq } from 'drizzle-orm';
import { ENGLISH_HEADERS, xlsxBuffer, type Cell } from '../../../packages/annuities/test/support/workbooks.ts';
import { downloadExport, sheetRows } from './support/annuity-exports.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/**
 * Issue 25 §2: an edit keeps the schedule coherent. The previous annuity number is bounded by the
 * office's term; editing it (or the previous date) recomputes the next annuity with the engine, and
 * the stored row, the response and the export show the same values.
 */
const HEADERS = [...ENGLISH_HEADERS, 'Origin'];
/** The check's reference date: FR annuity 10 of a 2016-03-15 filing (due 2025-03-31) is paid (the sheet says so), 11 is next. */
const TODAY = '2025-06-10';
const FILING = '2016-03-15';

async function settled(client: TestClient, id: string, timeoutMs = 60_000): Promise<AnnuityFileDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get('/api/annuite/files?limit=100');
    const file = (res.body.data as AnnuityFileDto[]).find((f) => f._id === id);
    if (file && file.is_done !== 'in_progress' && !file.export_stale) return file;
    if (Date.now() > deadline) throw new Error(`file ${id} still ${file?.is_done}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function allPatents(client: TestClient, id: string): Promise<AnnuityPatentDto[]> {
  const res = await client.get(`/api/brevets/file/${id}?limit=all`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.patents as AnnuityPatentDto[];
}

/** The export's first sheet as header → value objects (dates as YYYY-MM-DD). */
async function exportRows(client: TestClient, file: AnnuityFileDto): Promise<Array<Record<string, unknown>>> {
  return sheetRows((await downloadExport(client, file)).worksheets[0]!, { isoDates: true });
}

/** The engine's answer for a FR national right filed on FILING, with `lastPaid`, on TODAY. */
function engine(lastPaid: number) {
  const result = computeSchedule({ office: 'FR', origin: 'national', filing: parseIsoDate(FILING)!, lastPaid }, parseIsoDate(TODAY) as Day);
  if (!result.ok) throw new Error(result.reason);
  return scheduleToJson(result.value);
}

describe.each(databaseKinds())('annuity edits keep the schedule coherent (%s)', (kind) => {
  let t: TestPortal;
  let owner: { client: TestClient; id: string };
  let fr: TestClient;
  let file: AnnuityFileDto;
  let patents: AnnuityPatentDto[];
  let realNow: number;

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_RATE_LIMIT: '1000' });
    owner = await t.loginAs('user_annuites');
    fr = t.client({ lang: 'fr' });
    fr.cookies.set(...([...owner.client.cookies][0]!));
    realNow = t.clock.now().getTime();
    t.clock.advance(Date.parse(`${TODAY}T12:00:00Z`) - realNow);
    // Sessions live in the test clock's time: sign in again on the check's day.
    owner = await t.loginAs('user_annuites');
    fr = t.client({ lang: 'fr' });
    fr.cookies.set(...([...owner.client.cookies][0]!));
    const rows: Cell[][] = [
      ['FR3000001', null, 'FR-NINE', 'Nine', 'FR', null, FILING, null, 10, null, null],
      ['FR3000002', null, 'FR-LAPSE', 'Lapse', 'FR', null, FILING, null, 10, null, null],
      ['FR3000003', null, 'FR-NODATE', 'No filing date', 'FR', null, null, null, null, null, null],
      ['GB3000004', null, 'GB-EDGE', 'Edge', 'GB', null, FILING, null, 10, null, null],
      ['FR3000005', null, 'FR-PREVDATE', 'Previous date', 'FR', null, FILING, null, 10, null, null],
      ['FR3000006', null, 'FR-TYPED', 'Typed next date', 'FR', null, FILING, null, 10, null, null],
    ];
    const res = await owner.client.upload('/api/brevets/annuite', [{ filename: 'edits.xlsx', content: await xlsxBuffer([{ name: 'S', headers: HEADERS, rows }]) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    file = await settled(owner.client, res.body._id as string);
    expect(file).toMatchObject({ is_done: 'Done', reference_date: TODAY });
    patents = await allPatents(owner.client, file._id);
    // What the check gave: annuity 10 paid (the sheet's last-paid column), 11 next.
    expect(patents[0]).toMatchObject({ quant_precedent: engine(10).quant_precedent, next_number: 11 });
  }, 120_000);
  afterAll(async () => {
    t.clock.advance(realNow - t.clock.now().getTime());
    await t.close();
  });

  const byRef = (ref: string) => patents.find((p) => p.reference === ref)!;
  const edit = (client: TestClient, p: AnnuityPatentDto, body: Record<string, unknown>) => client.put(`/api/brevets/annuite/${p._id}`, body);

  it('refuses 999 with a translated 400 that names the range, in English and in French; nothing is stored', async () => {
    const p = byRef('FR-NINE');
    const en = await edit(owner.client, p, { quant_precedent: 999 });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ code: 'annuity_number_out_of_range', fields: { quant_precedent: 'annuity_number_out_of_range' } });
    expect(en.body.message).toMatch(/2.*20/);
    expect(en.body.message).toMatch(/annuity/i);
    const french = await edit(fr, p, { quant_precedent: 999 });
    expect(french.status).toBe(400);
    expect(french.body.code).toBe('annuity_number_out_of_range');
    expect(french.body.message).toMatch(/annuité/);
    expect(french.body.message).toMatch(/2.*20/);
    const [row] = await t.portal.ctx.db.select().from(annuityPatents).where(eq(annuityPatents.id, p._id));
    expect(row!.quantPrecedent).toBe(10);
    expect(row!.edited).toBe(false);
  });

  it("bounds the number by the office's term: first year − 1 and 21 refused, the first year and 20 accepted (FR from 2, GB from 5)", async () => {
    const cases: Array<[string, number, number]> = [
      ['FR-NODATE', 1, 400],
      ['FR-NODATE', 21, 400],
      ['FR-NODATE', 0, 400],
      ['GB-EDGE', 4, 400],
      ['GB-EDGE', 21, 400],
      ['FR-NODATE', 2, 200],
      ['FR-NODATE', 20, 200],
      ['GB-EDGE', 5, 200],
      ['GB-EDGE', 20, 200],
    ];
    for (const [ref, number, status] of cases) {
      const res = await edit(owner.client, byRef(ref), { quant_precedent: number });
      expect(res.status, `${ref} ${number}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 400) expect(res.body.code, `${ref} ${number}`).toBe('annuity_number_out_of_range');
    }
    const gb = await edit(owner.client, byRef('GB-EDGE'), { quant_precedent: 4 });
    expect(gb.body.message).toMatch(/5.*20/);
    // A fraction is no annuity number either.
    expect((await edit(owner.client, byRef('GB-EDGE'), { quant_precedent: 7.5 })).body.code).toBe('annuity_number_out_of_range');
  });

  it('previous = 9 gives next = 10 with the engine\'s dates: in the response, the stored row, the list and the export', async () => {
    const p = byRef('FR-NINE');
    const expected = engine(9);
    expect(expected).toMatchObject({ quant_precedent: 9, next_number: 10, dechu: false });
    // The modal sends its four fields; only the number changed.
    const res = await edit(owner.client, p, {
      quant_precedent: 9,
      date_precedente_annuite: p.date_precedente_annuite,
      date_prochaine_annuite: p.date_prochaine_annuite,
      limite_date_prochaine_annuite: p.limite_date_prochaine_annuite,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const want = {
      quant_precedent: 9,
      date_precedente_annuite: expected.date_precedente_annuite,
      next_number: 10,
      date_prochaine_annuite: expected.date_prochaine_annuite,
      instruction_limit: expected.instruction_limit,
      limite_date_prochaine_annuite: expected.limite_date_prochaine_annuite,
      in_grace_with_surcharge: expected.in_grace_with_surcharge,
      colour: expected.colour,
      dechu: false,
      edited: true,
    };
    expect(res.body.patent).toMatchObject(want);
    const listed = (await allPatents(owner.client, file._id)).find((x) => x._id === p._id)!;
    expect(listed).toMatchObject(want);
    const [row] = await t.portal.ctx.db.select().from(annuityPatents).where(eq(annuityPatents.id, p._id));
    expect(row).toMatchObject({
      quantPrecedent: 9,
      datePrecedenteAnnuite: expected.date_precedente_annuite,
      nextNumber: 10,
      dateProchaineAnnuite: expected.date_prochaine_annuite,
      instructionLimit: expected.instruction_limit,
      limiteDateProchaineAnnuite: expected.limite_date_prochaine_annuite,
      colour: expected.colour,
      dechu: false,
    });

    await t.drainQueue();
    const exported = (await exportRows(owner.client, await settled(owner.client, file._id))).find((r) => r['Reference'] === 'FR-NINE')!;
    expect({
      quant_precedent: exported['quant_precedent'],
      date_precedente_annuite: exported['date_precedente_annuite'],
      next_number: exported['Quantième suivant / next_number'],
      date_prochaine_annuite: exported['date_prochaine_annuite'],
      instruction_limit: exported['Limite d’instruction / Instruction limit'],
      limite_date_prochaine_annuite: exported['limite_date_prochaine_annuite'],
      dechu: exported['dechu'],
      colour: exported['Couleur / Colour'],
    }).toEqual({
      quant_precedent: 9,
      date_precedente_annuite: expected.date_precedente_annuite,
      next_number: 10,
      date_prochaine_annuite: expected.date_prochaine_annuite,
      instruction_limit: expected.instruction_limit,
      limite_date_prochaine_annuite: expected.limite_date_prochaine_annuite,
      dechu: false,
      colour: expected.colour,
    });
  });

  it('previous = 8: annuity 9 is past its grace on the check day, so the right is lapsed (dechu), with no next annuity, here and in the export', async () => {
    const p = byRef('FR-LAPSE');
    const expected = engine(8);
    expect(expected).toMatchObject({ dechu: true, next_number: null });
    const res = await edit(owner.client, p, { quant_precedent: 8 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.patent).toMatchObject({
      quant_precedent: 8,
      date_precedente_annuite: expected.date_precedente_annuite,
      next_number: null,
      date_prochaine_annuite: null,
      limite_date_prochaine_annuite: null,
      dechu: true,
      colour: expected.colour,
    });
    await t.drainQueue();
    const exported = (await exportRows(owner.client, await settled(owner.client, file._id))).find((r) => r['Reference'] === 'FR-LAPSE')!;
    expect([exported['quant_precedent'], exported['Quantième suivant / next_number'], exported['date_prochaine_annuite'], exported['dechu'], exported['Couleur / Colour']]).toEqual([
      8,
      null,
      null,
      true,
      expected.colour,
    ]);
  });

  it('an edited previous date gives the number of the annuity due then, and the next one from the engine', async () => {
    const p = byRef('FR-PREVDATE');
    const expected = engine(9);
    const res = await edit(owner.client, p, { date_precedente_annuite: expected.date_precedente_annuite, quant_precedent: p.quant_precedent });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.patent).toMatchObject({
      quant_precedent: 9,
      date_precedente_annuite: expected.date_precedente_annuite,
      next_number: 10,
      date_prochaine_annuite: expected.date_prochaine_annuite,
      limite_date_prochaine_annuite: expected.limite_date_prochaine_annuite,
    });
  });

  it('a next date typed in the same edit is kept; the next number and the rest follow the engine', async () => {
    const p = byRef('FR-TYPED');
    const res = await edit(owner.client, p, {
      quant_precedent: 9,
      date_precedente_annuite: p.date_precedente_annuite,
      date_prochaine_annuite: '2025-08-31',
      limite_date_prochaine_annuite: p.limite_date_prochaine_annuite,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.patent).toMatchObject({
      quant_precedent: 9,
      date_precedente_annuite: engine(9).date_precedente_annuite,
      next_number: 10,
      date_prochaine_annuite: '2025-08-31',
      instruction_limit: '2025-08-24',
      limite_date_prochaine_annuite: engine(9).limite_date_prochaine_annuite,
      colour: 'ok',
      dechu: false,
    });
  });

  it('a row without a filing date keeps the dates the user typed; only the colour is recomputed', async () => {
    const p = byRef('FR-NODATE');
    const res = await edit(owner.client, p, { quant_precedent: 9, date_precedente_annuite: '2024-03-31', date_prochaine_annuite: '2025-03-31', limite_date_prochaine_annuite: '2025-09-30' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.patent).toMatchObject({
      quant_precedent: 9,
      date_precedente_annuite: '2024-03-31',
      date_prochaine_annuite: '2025-03-31',
      limite_date_prochaine_annuite: '2025-09-30',
      next_number: null,
      // 2025-03-31 is before the check's day: due, red.
      colour: 'nok',
    });
    // The export shows the same values (it used to drop the edits of a row without a filing date).
    await t.drainQueue();
    const exported = (await exportRows(owner.client, await settled(owner.client, file._id))).find((r) => r['Reference'] === 'FR-NODATE')!;
    expect([exported['quant_precedent'], exported['date_precedente_annuite'], exported['date_prochaine_annuite'], exported['limite_date_prochaine_annuite'], exported['Couleur / Colour']]).toEqual([
      9,
      '2024-03-31',
      '2025-03-31',
      '2025-09-30',
      'nok',
    ]);
  });
});
