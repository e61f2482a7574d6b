import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedesRunDto } from '@portal/contracts';
import { BUS_EVENT, type BusMessage } from '@portal/realtime';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { multipart } from './support/multipart.ts';
import { NOT_STARTED_AFTER_MS, sweepJobs } from '@portal/jobs';

const SAMPLES = new URL('../../../packages/ledes/test/fixtures/samples/', import.meta.url);
const sample = (name: string) => readFileSync(new URL(name, SAMPLES));
const VALID_98B = 'travisbashor-ledes-parser_tests-data-ledes_98B.txt';
const INVALID = 'mikewagner-ledes_parser_spec-fixtures-ledes.txt';

async function upload(client: TestClient, path: string, fields: Record<string, string>, files: Array<{ filename: string; content: Buffer | string }>) {
  const { body, contentType } = multipart(fields, files);
  const res = await fetch(`${(client as unknown as { baseUrl: string }).baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: (client as any).options.origin, 'x-api-key': (client as any).options.apiKey },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.each(databaseKinds())('LEDES flow (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };
  const events: Array<{ room: string; run: LedesRunDto }> = [];

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_MAX_BYTES: '200000' });
    agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
    admin = await t.loginAs('admin');
    const bus = (t.portal.ctx.realtime as unknown as { bus: import('node:events').EventEmitter }).bus;
    bus.on(BUS_EVENT, (message: BusMessage) => {
      if (message.event === 'ledes:run') events.push({ room: message.room, run: message.args[0] as LedesRunDto });
    });
  });
  afterAll(async () => t.close());

  it('checks an uploaded file in the background and publishes the transition to the owner and the admins', async () => {
    const res = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [{ filename: VALID_98B, content: sample(VALID_98B) }]);
    expect(res.status).toBe(200);
    expect(res.body.runs).toHaveLength(1);
    const run = res.body.runs[0] as LedesRunDto;
    expect(run).toMatchObject({ state: 'in_progress', filename: VALID_98B, office: 'PAR', type: 'patent' });
    await t.drainQueue();
    const done = await agent.client.get(`/api/ledes/runs/${run._id}`);
    expect(done.body.run).toMatchObject({ state: 'Done', accepted: true, delivered: true });
    const result = done.body.result;
    expect(result.filename).toBe(VALID_98B);
    expect(result.errors).toEqual([]);
    expect(result.warnings[0]).toMatchObject({ line: 0, items: [expect.objectContaining({ code_ledes: 'FMT-006', libelle_en: expect.any(String), libelle_fr: expect.any(String) })] });
    expect(result.format_ok.length).toBeGreaterThan(0);
    // The transition to Done, then the run with its treated workbook (decision 182): each once, to both.
    const finals = events.filter((e) => e.run._id === run._id && e.run.state === 'Done' && !e.run.treated);
    expect(finals.map((e) => e.room).sort()).toEqual([`role:admin`, `user:${agent.id}`]);
    const treated = events.filter((e) => e.run._id === run._id && e.run.state === 'Done' && e.run.treated);
    expect(treated.map((e) => e.room).sort()).toEqual([`role:admin`, `user:${agent.id}`]);
    expect(done.body.run).toMatchObject({ treated: true });
  });

  it('refuses an invalid file with per-line findings, and keeps the original', async () => {
    const res = await upload(agent.client, '/api/ledes/file/patent/PAR?wait=30', {}, [{ filename: INVALID, content: sample(INVALID) }]);
    expect(res.status).toBe(200);
    expect(res.body.runs[0]).toMatchObject({ state: 'Done', accepted: false, delivered: false });
    const [entity] = res.body.ledes;
    expect(entity.errors.some((l: { items: Array<{ code_ledes: string; champ: string }> }) => l.items.some((i) => i.code_ledes === 'CON-001' && i.champ === 'INVOICE_TOTAL'))).toBe(true);
    // Issue 12: a finding keeps the value that decided it through the database (the unknown classification).
    const stored = await agent.client.get(`/api/ledes/runs/${res.body.runs[0]._id}`);
    const classification = stored.body.result.warnings.flatMap((l: { items: Array<Record<string, unknown>> }) => l.items).find((i: Record<string, unknown>) => i.code_ledes === 'TK-003');
    expect(classification).toMatchObject({ champ: 'TIMEKEEPER_CLASSIFICATION', found: 'PT' });
    expect(classification).not.toHaveProperty('expected');
    const history = await agent.client.get('/api/historique?page=1&limit=500');
    const item = history.body.data.find((h: { _id: string }) => h._id === res.body.runs[0]._id);
    const original = await agent.client.post('/api/ledes/file/download', { file_path: item.path });
    expect(original.status).toBe(200);
    expect(original.text).toBe(sample(INVALID).toString('utf8'));
  });

  it('Q-12 a lost enqueue keeps the upload and its file; the sweep gets the run done', async () => {
    const queue = t.portal.ctx.queue;
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = async () => {
      throw new Error('Redis is down');
    };
    const res = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [{ filename: INVALID, content: sample(INVALID) }]);
    queue.enqueue = enqueue;
    expect(res.status).toBe(200);
    const runId = res.body.runs[0]._id as string;
    await t.drainQueue();
    expect((await agent.client.get(`/api/ledes/runs/${runId}`)).body.run.state).toBe('in_progress');

    t.clock.advance(NOT_STARTED_AFTER_MS + 1000);
    expect((await sweepJobs(t.portal.ctx)).ledes).toBeGreaterThanOrEqual(1);
    await t.drainQueue();
    expect((await agent.client.get(`/api/ledes/runs/${runId}`)).body.run).toMatchObject({ state: 'Done', accepted: false });
  });

  it('validates in the spec order: file, type, office, user', async () => {
    const file = [{ filename: VALID_98B, content: sample(VALID_98B) }];
    expect((await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [])).body).toMatchObject({ code: 'error_file', message: 'Please select at least one file.' });
    expect((await upload(agent.client, '/api/ledes/file/undefined/undefined', {}, file)).body.code).toBe('missing_type');
    expect((await upload(agent.client, '/api/ledes/file/patent/NOPE', {}, file)).body.code).toBe('missing_office');
    expect((await upload(admin.client, '/api/ledes/file/patent/PAR', {}, file)).body.code).toBe('missing_id_user');
    const onBehalf = await upload(admin.client, '/api/ledes/file/trademark/LON', { user_id: agent.id, send_history: 'true', send_server: 'false' }, file);
    expect(onBehalf.status).toBe(200);
    expect(onBehalf.body.runs[0]).toMatchObject({ owner_id: agent.id, type: 'trademark', office: 'LON' });
  });

  it('refuses a wrong extension (415), an oversized file (413) and more than 10 files, in the caller language', async () => {
    const wrong = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [{ filename: 'invoice.exe', content: 'MZ' }]);
    expect(wrong.status).toBe(415);
    expect(wrong.body.code).toBe('wrong_extension');
    const big = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [{ filename: 'big.txt', content: Buffer.alloc(200_001, 65) }]);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    const many = Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.txt`, content: sample(VALID_98B) }));
    expect((await upload(agent.client, '/api/ledes/file/patent/PAR', {}, many)).body.code).toBe('too_many_files');
    const ten = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, many.slice(0, 10));
    expect(ten.body.runs).toHaveLength(10);
    await t.drainQueue();
  });

  it('turns empty, binary and NUL-laden files into refused results, not failures', async () => {
    const res = await upload(agent.client, '/api/ledes/file/patent/PAR?wait=30', {}, [
      { filename: 'empty.txt', content: '' },
      { filename: 'binary.txt', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe, 0x00, 0x01]) },
      { filename: 'nul.txt', content: `LEDES1998B[]\n${'A|'.repeat(23)}\u0000[]\n` },
    ]);
    expect(res.status).toBe(200);
    for (const run of res.body.runs) expect(run).toMatchObject({ state: 'Done', accepted: false });
    for (const entity of res.body.ledes) expect(entity.errors.length).toBeGreaterThan(0);
  });

  it('refuses an XML file with a DOCTYPE and a file whose pipe count varies, with findings', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><ledesxmlebilling version="2.1">&e;</ledesxmlebilling>';
    const ragged = sample(VALID_98B).toString('utf8').replace('|1|F|', '|1|F|extra|');
    const res = await upload(agent.client, '/api/ledes/file/patent/PAR?wait=30', {}, [
      { filename: 'xxe.xml', content: xxe },
      { filename: 'ragged.txt', content: ragged },
    ]);
    expect(res.status).toBe(200);
    for (const run of res.body.runs) expect(run).toMatchObject({ state: 'Done', accepted: false });
    const codes = (i: number) => res.body.ledes[i].errors.flatMap((l: { items: Array<{ code_ledes: string }> }) => l.items.map((it) => it.code_ledes));
    expect(codes(0).length).toBeGreaterThan(0);
    expect(JSON.stringify(res.body.ledes[0])).not.toContain('root:');
    expect(codes(1).length).toBeGreaterThan(0);
  });

  it('reports an invoice number already accepted for the same client (CON-007)', async () => {
    await t.drainQueue();
    const again = await upload(agent.client, '/api/ledes/file/patent/PAR?wait=30', {}, [{ filename: VALID_98B, content: sample(VALID_98B) }]);
    const [entity] = again.body.ledes;
    expect(entity.errors.some((l: { items: Array<{ code_ledes: string }> }) => l.items.some((i) => i.code_ledes === 'CON-007'))).toBe(true);
  });

  it('history: 400 without paging, 204 when empty, pages with the spec meta; admins see everyone', async () => {
    const noMeta = await agent.client.get('/api/historique');
    expect(noMeta.status).toBe(400);
    expect(noMeta.body.message).toBe('The paging parameters (page and limit) are missing.');
    const fresh = await t.loginAs('user_agent_ledes');
    expect((await fresh.client.get('/api/historique?page=1&limit=20')).status).toBe(204);
    const page = await agent.client.get('/api/historique?page=1&limit=2');
    expect(page.body.meta).toMatchObject({ currentPage: 1, pageSize: 2 });
    expect(page.body.meta.total).toBeGreaterThan(2);
    expect(page.body.data[0]).toMatchObject({ name: expect.stringMatching(/^\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}_/), user_info: { company_agent: expect.any(String) } });
    const all = await admin.client.get(`/api/historique/admin/${admin.id}?page=1&limit=600`);
    expect(all.body.data.every((h: { user_info: { _id: string } }) => h.user_info._id === agent.id)).toBe(true);
    expect((await agent.client.get(`/api/historique/admin/${agent.id}?page=1&limit=600`)).status).toBe(403);
    const search = await admin.client.get('/api/searchHistorique?search_query=mikewagner&page=1&limit=20');
    expect(search.body.data.length).toBeGreaterThan(0);
    expect(search.body.data.every((h: { name: string }) => h.name.includes('mikewagner'))).toBe(true);
  });

  it('admin log: sorts and pages on the server (whitelisted columns, bounded page size) and searches displayed office and type names', async () => {
    const trademark = await upload(agent.client, '/api/ledes/file/trademark/LON', {}, [{ filename: `sort-${VALID_98B}`, content: sample(VALID_98B) }]);
    expect(trademark.status).toBe(200);
    const patent = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, [{ filename: `sort-${INVALID}`, content: sample(INVALID) }]);
    expect(patent.status).toBe(200);
    await t.drainQueue();
    type Row = { name: string; office: string; type: string; filename: string; created: string; user_info: { company_agent: string } };
    const rows = async (qs: string, lang = 'en') => {
      const res = await admin.client.get(`/api/historique/admin/all?${qs}`, { 'accept-language': lang });
      expect(res.status).toBe(200);
      return res.body.data as Row[];
    };

    // The whole log sorted by the displayed office label: "Bureau de Londres" < "Bureau de Paris" in French,
    // "London office" < "Paris office" in English; the order holds across pages.
    const byOffice = await rows('page=1&limit=600&sort=office&order=asc', 'fr');
    expect(byOffice.map((r) => r.office)).toEqual([...byOffice.map((r) => r.office)].sort());
    const firstPage = await rows('page=1&limit=1&sort=office&order=desc', 'fr');
    const secondPage = await rows('page=2&limit=1&sort=office&order=desc', 'fr');
    expect(firstPage[0]?.office).toBe('PAR');
    const byOfficeDesc = await rows('page=1&limit=600&sort=office&order=desc', 'fr');
    expect([firstPage[0]?.name, secondPage[0]?.name]).toEqual(byOfficeDesc.slice(0, 2).map((r) => r.name));
    expect(byOfficeDesc.at(-1)?.office).toBe('LON');
    // Type by label: "Brevet" < "Marque" in French, "Patent" < "Trademark" in English.
    expect((await rows('page=1&limit=600&sort=type&order=asc', 'fr'))[0]?.type).toBe('patent');
    expect((await rows('page=1&limit=600&sort=type&order=desc', 'en'))[0]?.type).toBe('trademark');
    const byName = await rows('page=1&limit=600&sort=name&order=asc');
    expect(byName.map((r) => r.filename.toLowerCase())).toEqual(byName.map((r) => r.filename.toLowerCase()).sort());
    const oldest = await rows('page=1&limit=600&sort=date&order=asc');
    expect(oldest.map((r) => r.created)).toEqual([...oldest.map((r) => r.created)].sort());

    // Only whitelisted columns and orders, and a bounded page size.
    expect((await admin.client.get('/api/historique/admin/all?page=1&limit=20&sort=path')).status).toBe(400);
    expect((await admin.client.get('/api/historique/admin/all?page=1&limit=20&sort=date&order=sideways')).status).toBe(400);
    expect((await admin.client.get('/api/historique/admin/all?page=1&limit=601')).status).toBe(400);

    // The search matches what the table shows, not only codes: office labels and type names in either language.
    const search = async (q: string) => {
      const res = await admin.client.get(`/api/searchHistorique?search_query=${encodeURIComponent(q)}&page=1&limit=600&sort=date&order=desc`);
      return res.status === 204 ? [] : (res.body.data as Row[]);
    };
    for (const q of ['London office', 'Londres', 'Marque', 'trademark']) {
      const found = await search(q);
      expect(found.length, q).toBeGreaterThan(0);
      expect(found.every((r) => r.office === 'LON' || r.type === 'trademark'), q).toBe(true);
    }
    expect((await search('Brevet')).every((r) => r.type === 'patent')).toBe(true);
    expect((await search('Brevet')).length).toBeGreaterThan(0);
    expect(await search('Bureau de Tombouctou')).toEqual([]);
  });

  it('the treated file is an xlsx workbook; another user cannot download it', async () => {
    const page = await agent.client.get('/api/historique?page=1&limit=1');
    const item = page.body.data[0];
    const treated = await fetch(`${t.url}/api/ledes/file/download`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: agent.client.cookieHeader(), origin: t.origin, 'x-api-key': t.config.security.apiKey },
      body: JSON.stringify({ file_path: item.path_treated }),
    });
    expect(treated.status).toBe(200);
    expect(treated.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+_treated\.xlsx"; filename\*=UTF-8''/);
    expect(Buffer.from(await treated.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    const stranger = await t.loginAs('user_agent_ledes');
    expect((await stranger.client.post('/api/ledes/file/download', { file_path: item.path })).status).toBe(404);
    expect((await stranger.client.get(`/api/ledes/runs/${item._id}`)).status).toBe(404);
    expect((await admin.client.post('/api/ledes/file/download', { file_path: item.path })).status).toBe(200);
  });

  it('UP-14 every traversal form of file_path is a 404 and nothing is read from storage', async () => {
    const storage = t.portal.ctx.storage;
    const original = storage.get.bind(storage);
    let reads = 0;
    storage.get = async (key: string) => {
      reads++;
      return original(key);
    };
    const page = await agent.client.get('/api/historique?page=1&limit=1');
    const realKey: string = page.body.data[0].path;
    const corpus = [
      '../', '../../etc/passwd', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%252e%252e%252f', '..\\..\\windows\\win.ini', '/etc/passwd',
      `${realKey}%00.txt`, `${realKey}\u0000`, '．．／．．／etc/passwd', './a/../b', `ledes/original/../../${realKey}`, `${realKey}/../../../etc/passwd`,
      'a'.repeat(2048), 'ledes/original/2026/01/00000000-0000-4000-8000-000000000000/x.txt', 'outbound/step2/x',
    ];
    const stranger = await t.loginAs('user_agent_ledes');
    for (const file_path of corpus) {
      const res = await agent.client.post('/api/ledes/file/download', { file_path });
      expect(res.status, file_path).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'not_found', message: 'The requested item could not be found. Please try again; if it persists, contact support.' });
    }
    expect((await stranger.client.post('/api/ledes/file/download', { file_path: realKey })).status).toBe(404);
    expect(reads).toBe(0);
    storage.get = original;
  });
});
