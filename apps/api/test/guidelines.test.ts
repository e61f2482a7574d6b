import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, fileText, type Rec } from '../../../packages/ledes/test/helpers.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

// Files built from the engine's valid base invoice (packages/ledes/test/helpers.ts): firm 12-3456789, billing period
// 20250101–20250131, fee line 0 (TK1, PARTNR, 2 units × 350 on 20250115, "Research prior art"), expense line 1.
function invoice(number: string, edit: Partial<Rec> = {}): string {
  return fileText(baseRecords().map((r) => ({ ...r, INVOICE_NUMBER: number, ...edit })));
}

async function upload(t: TestPortal, client: TestClient, idClient: string, filename: string, content: string) {
  // One upload after the other, as people make them: the preview orders and dates files by their upload.
  t.clock.advance(60_000);
  const res = await client.upload('/api/ledes/file/patent/PAR?wait=30', [{ filename, content }], { id_client: idClient });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { run: res.body.runs[0], result: res.body.ledes[0] };
}

type Item = Record<string, unknown> & { code_ledes: string };
const guidelineItems = (result: { errors: Array<{ line: unknown; items: Item[] }>; warnings: Array<{ line: unknown; items: Item[] }> }) =>
  [...result.errors, ...result.warnings].flatMap((l) => l.items.filter((i) => i.code_ledes.startsWith('GDL-1')).map((i) => ({ line: l.line, ...i })));
const values = ({ line, code_ledes, champ, found, expected, difference, over, reference }: Record<string, unknown>) =>
  Object.fromEntries(Object.entries({ line, code_ledes, champ, found, expected, difference, over, reference }).filter(([, v]) => v !== undefined));

describe.each(databaseKinds())('client billing guidelines (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_MAX_BYTES: '200000' });
    agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A', 'CLIENT-B'] });
    admin = await t.loginAs('admin');
  });
  afterAll(async () => t.close());

  const cap = (max: string, severity: 'error' | 'warning', ref: string) => [{ kind: 'max_rate', ref, severity, classification: 'PARTNR', max }];

  it('admins save versions; a second version on the same day, conflicting rules and bad amounts are translated 4xx; others get 403', async () => {
    const v1 = await admin.client.post('/api/ledes/guidelines/CLIENT-A', { effective_from: '2024-01-01', rules: cap('400', 'warning', '§2') });
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    expect(v1.body.version).toMatchObject({ id_client: 'CLIENT-A', version: 1, effective_from: '2024-01-01' });
    const v2 = await admin.client.post('/api/ledes/guidelines/CLIENT-A', { effective_from: '2025-01-01', rules: cap('300', 'error', '§2.1'), note: 'rate increase refused' });
    expect(v2.body.version).toMatchObject({ version: 2, effective_from: '2025-01-01' });

    const sameDay = await admin.client.post('/api/ledes/guidelines/CLIENT-A', { effective_from: '2025-01-01', rules: cap('1', 'error', 'x') });
    expect(sameDay.status).toBe(409);
    expect(sameDay.body).toMatchObject({ success: false, code: 'guideline_date_taken' });
    const sameDayFr = await admin.client.post('/api/ledes/guidelines/CLIENT-A', { effective_from: '2025-01-01', rules: cap('1', 'error', 'x') }, { 'accept-language': 'fr' });
    expect(sameDayFr.body.message).toMatch(/Ce client a déjà une version/);
    const conflict = await admin.client.post('/api/ledes/guidelines/CLIENT-A', {
      effective_from: '2026-01-01',
      rules: [...cap('300', 'error', 'a'), { kind: 'max_rate', ref: 'b', severity: 'error', classification: 'PARTNR', max: '310', from: '2025-06-01' }],
    });
    expect(conflict.status).toBe(400);
    expect(conflict.body.code).toBe('guideline_rules_conflict');
    for (const bad of [cap('3,5', 'error', 'a'), cap('-1', 'error', 'a'), [{ kind: 'max_units_per_day', ref: 'a', severity: 'fatal', max: '8' }], [{ kind: 'nope', ref: 'a', severity: 'error' }], []]) {
      const res = await admin.client.post('/api/ledes/guidelines/CLIENT-A', { effective_from: '2026-01-01', rules: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await agent.client.get('/api/ledes/guidelines/CLIENT-A')).status).toBe(403);
    const history = await admin.client.get('/api/ledes/guidelines/CLIENT-A');
    expect(history.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const clients = await admin.client.get('/api/ledes/guidelines');
    expect(clients.body.clients).toContainEqual({ id_client: 'CLIENT-A', versions: 2, latest_effective_from: '2025-01-01' });
  });

  it('checks an invoice against the version in force on its billing period, and names it', async () => {
    // January 2025: version 2 (cap 300, error): 350 − 300 = 50 per unit, × 2 units = 100 over the cap.
    const jan = await upload(t, agent.client, 'CLIENT-A', 'jan.txt', invoice('A-1'));
    expect(jan.run).toMatchObject({ state: 'Done', accepted: false, guidelines: [expect.objectContaining({ version: 2, effective_from: '2025-01-01' })] });
    expect(guidelineItems(jan.result).map(values)).toEqual([
      { line: 0, code_ledes: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', found: '350', expected: '300', difference: '50', over: '100', reference: '§2.1' },
    ]);
    // The same lines billed in 2024: version 1 (cap 400) is in force, and 350 is under it.
    const dates = { BILLING_START_DATE: '20240101', BILLING_END_DATE: '20240131', INVOICE_DATE: '20240210', LINE_ITEM_DATE: '20240115' };
    const y2024 = await upload(t, agent.client, 'CLIENT-A', '2024.txt', invoice('A-2', dates));
    expect(y2024.run).toMatchObject({ accepted: true, guidelines: [expect.objectContaining({ version: 1, effective_from: '2024-01-01' })] });
    expect(guidelineItems(y2024.result)).toEqual([]);
    // The run keeps the version it was checked against.
    const stored = await agent.client.get(`/api/ledes/runs/${y2024.run._id}`);
    expect(stored.body.run.guidelines).toHaveLength(1);
  });

  it('units per timekeeper and day, and duplicate lines, across the invoices of the same firm (and only that firm)', async () => {
    const set = await admin.client.post('/api/ledes/guidelines/CLIENT-B', {
      effective_from: '2020-01-01',
      rules: [
        { kind: 'max_units_per_day', ref: '§3', severity: 'error', max: '3' },
        { kind: 'duplicate_line', ref: '§4', severity: 'error' },
      ],
    });
    expect(set.status).toBe(200);
    // First invoice: TK1 bills 2 units on 20250115; accepted, its lines join the firm's history.
    const first = await upload(t, agent.client, 'CLIENT-B', 'b1.txt', invoice('B-1'));
    expect(first.run.accepted).toBe(true);
    // A second invoice of the firm bills the same line again: 2 + 2 = 4 units that day, one over 3, and a duplicate.
    const second = await upload(t, agent.client, 'CLIENT-B', 'b2.txt', invoice('B-2'));
    expect(second.run.accepted).toBe(false);
    expect(guidelineItems(second.result).map(values)).toEqual([
      { line: 0, code_ledes: 'GDL-102', champ: 'LINE_ITEM_NUMBER_OF_UNITS', found: '4', expected: '3', difference: '1', reference: '§3' },
      { line: 0, code_ledes: 'GDL-111', champ: 'LINE_ITEM_DESCRIPTION', reference: '§4' },
    ]);
    // A refused invoice adds nothing to the history: a third try of another line that day (1 unit) makes 3, at the cap.
    const third = await upload(t, agent.client, 'CLIENT-B', 'b3.txt', invoice('B-3', { LINE_ITEM_NUMBER_OF_UNITS: '1', LINE_ITEM_TOTAL: '350', INVOICE_TOTAL: '355', LINE_ITEM_DESCRIPTION: 'Call with client' }));
    const thirdFindings = guidelineItems(third.result);
    // The expense line's units (10) are not a timekeeper's: only line 0 counts; expense line total stays 5.
    expect(thirdFindings, JSON.stringify(third.result.errors)).toEqual([]);
    // Another firm's identical invoice: no history of its own yet.
    const other = await upload(t, agent.client, 'CLIENT-B', 'other.txt', invoice('B-4', { LAW_FIRM_ID: '99-0000000' }));
    expect(guidelineItems(other.result)).toEqual([]);
    expect(other.run.accepted).toBe(true);

    // The treated workbook of the refused invoice carries the cross-invoice findings with their values and reference.
    const page = await agent.client.get('/api/historique?page=1&limit=50');
    const item = page.body.data.find((h: { _id: string }) => h._id === second.run._id);
    expect(item.path_treated).toBeTruthy();
    const res = await fetch(`${(agent.client as unknown as { baseUrl: string }).baseUrl}/api/ledes/file/download`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: agent.client.cookieHeader(), origin: (agent.client as any).options.origin, 'x-api-key': (agent.client as any).options.apiKey },
      body: JSON.stringify({ file_path: item.path_treated }),
    });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const file = book.getWorksheet('File and invoices')!;
    expect(file.getRow(2).values).toEqual([undefined, 'Line', 'Code', 'Severity', 'Field', 'Label', 'Found', 'Expected', 'Difference', 'Total over the cap', 'Guideline']);
    const rows = file.getSheetValues().slice(3).map((r) => (r as unknown[]).slice(1, 11));
    expect(rows).toContainEqual([1, 'GDL-102', 'Error', 'LINE_ITEM_NUMBER_OF_UNITS', expect.stringMatching(/units in one day/), 4, 3, 1, undefined, '§3']);
    expect(rows.some((r) => r[1] === 'GDL-111' && r[9] === '§4')).toBe(true);
  });

  it('previews a set as edited against the client\'s last files, each with the firm\'s history as it stood then', async () => {
    const res = await admin.client.post('/api/ledes/guidelines/CLIENT-B/preview', {
      rules: [...cap('300', 'error', '§9'), { kind: 'duplicate_line', ref: '§4', severity: 'warning' }],
      last: 10,
    });
    expect(res.status, t.logs.filter((l) => l.includes('"level":50')).join('\n')).toBe(200);
    const byName = Object.fromEntries(res.body.runs.map((r: { filename: string }) => [r.filename, r]));
    expect(res.body.runs.map((r: { filename: string }) => r.filename)).toEqual(['other.txt', 'b3.txt', 'b2.txt', 'b1.txt']);
    // Small files: all checked within the preview's time budget.
    expect(res.body).toMatchObject({ unchecked: 0, budget_seconds: 10 });
    // Every file bills PARTNR at 350: refused by the new cap (b3 bills 1 unit: 50 over; the others 2: 100).
    expect(byName['b1.txt']).toMatchObject({ accepted_then: true, refused_by_guidelines: true, errors: 1, warnings: 0 });
    expect(byName['b1.txt'].findings).toEqual([
      expect.objectContaining({ line: 0, code: 'GDL-101', severity: 'error', found: '350', expected: '300', difference: '50', over: '100', reference: '§9', libelle_fr: expect.stringMatching(/plafond/) }),
    ]);
    expect(byName['b3.txt'].findings[0]).toMatchObject({ over: '50' });
    // b2 repeats b1's line (accepted before it): the duplicate shows; b1 has nothing earlier; the other firm neither.
    expect(byName['b2.txt'].findings.map((f: { code: string }) => f.code)).toEqual(['GDL-101', 'GDL-111']);
    expect(byName['other.txt'].findings.map((f: { code: string }) => f.code)).toEqual(['GDL-101']);
    const limited = await admin.client.post('/api/ledes/guidelines/CLIENT-B/preview', { rules: cap('300', 'error', '§9'), last: 1 });
    expect(limited.body.runs).toHaveLength(1);
    expect((await admin.client.post('/api/ledes/guidelines/CLIENT-B/preview', { rules: cap('300', 'error', '§9'), last: 51 })).status).toBe(400);
    expect((await agent.client.post('/api/ledes/guidelines/CLIENT-B/preview', { rules: cap('300', 'error', '§9') })).status).toBe(403);
  });
});
