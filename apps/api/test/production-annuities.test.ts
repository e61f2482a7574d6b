import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../../../packages/annuities/test/support/workbooks.ts';
import { multipart } from './support/multipart.ts';
import { startProcess, startProductionPortal, waitForRowState } from './support/processes.ts';
import { TestClient } from './support/portal.ts';

const baseUrl = testDatabaseBaseUrl();
const ROWS = 30_000;

describe.skipIf(!baseUrl)('production mode: annuities worker killed mid-file (done-when 2)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let env: Record<string, string>;
  let url: string;
  let apiKey: string;
  let db: pg.Client;

  beforeAll(async () => {
    const portal = await startProductionPortal(baseUrl!, {
      // Short locks and stall checks so the killed worker's job is taken over within seconds.
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    });
    cleanups.push(() => portal.stop());
    ({ env, url, apiKey, db } = portal);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function submit(client: TestClient, file: Buffer, name: string): Promise<string> {
    const { body, contentType } = multipart({ title: name }, [{ filename: name, content: file }]);
    const res = await fetch(`${url}/api/brevets/annuite`, {
      method: 'POST',
      headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: url, 'x-api-key': apiKey },
      body,
    });
    const json = (await res.json()) as { _id: string };
    expect(res.status, JSON.stringify(json)).toBe(200);
    return json._id;
  }

  const waitForState = (id: string, state: string, timeoutMs: number) => waitForRowState<{ state: string; attempts: number; rows_total: number }>(db, 'select state, attempts, rows_total from annuity_files where id = $1', id, state, timeoutMs);

  it('ends Done after a restart, with exactly one patent per spreadsheet row', { timeout: 300_000 }, async () => {
    const client = new TestClient(url, { origin: url, apiKey });
    const email = 'annuities@portal.example.com';
    const admin = new TestClient(url, { origin: url, apiKey });
    await admin.post('/api/auth/login', { email: 'ops@portal.example.com', password: 'production-admin-password' });
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const created = await admin.post('/api/admin/user', { company_agent: 'Annuities', email, password: 'annuities-password-123', roles: [roles.find((r) => r.slug === 'user_annuites')!._id] });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    await client.post('/api/auth/login', { email, password: 'annuities-password-123' });

    const file = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, ROWS) }]);
    const killedFile = await submit(client, file, 'big.xlsx');
    const first = startProcess('workers/src/entrypoints/annuities.ts', env);
    cleanups.push(() => first.stop('SIGKILL'));
    const deadline = Date.now() + 60_000;
    // Killed once some rows, not all, are stored.
    for (;;) {
      const { rows } = await db.query('select count(*)::int as n from annuity_patents where file_id = $1', [killedFile]);
      if (rows[0].n >= 2000) break;
      if (Date.now() > deadline) throw new Error(`worker never stored rows:\n${first.output()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.stop('SIGKILL');
    const { rows: midway } = await db.query('select f.state, (select count(*)::int from annuity_patents p where p.file_id = f.id) as n from annuity_files f where f.id = $1', [killedFile]);
    expect(midway[0].state).toBe('in_progress');
    expect(midway[0].n).toBeLessThan(ROWS);

    const second = startProcess('workers/src/entrypoints/annuities.ts', env);
    cleanups.push(() => second.stop());
    await second.waitFor(/annuities worker started/);
    const done = await waitForState(killedFile, 'Done', 120_000).catch((error: Error) => {
      throw new Error(`${error.message}\n--- restarted worker ---\n${second.output().slice(-4000)}`);
    });
    expect(done.attempts).toBe(2);
    expect(done.rows_total).toBe(ROWS);
    const { rows: counted } = await db.query('select count(*)::int as n, count(distinct row_index)::int as d, min(row_index) as lo, max(row_index) as hi from annuity_patents where file_id = $1', [killedFile]);
    expect(counted[0]).toEqual({ n: ROWS, d: ROWS, lo: 0, hi: ROWS - 1 });
    // The export exists and the API serves it.
    const listed = await client.get('/api/annuite/files?limit=5');
    const dto = listed.body.data.find((f: { _id: string }) => f._id === killedFile);
    const exported = await client.get(`/api/annuite/files/download?file_path=${encodeURIComponent(dto.path_export)}`);
    expect(exported.status).toBe(200);
  });
});
