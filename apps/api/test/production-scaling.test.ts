import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_PATH, type AnnuityFileDto, type LedesRunDto } from '@portal/contracts';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { FRENCH_HEADERS, rowsFrom, xlsxBuffer } from '../../../packages/annuities/test/support/workbooks.ts';
import { multipart } from './support/multipart.ts';
import { freePort, PRODUCTION_ADMIN, startProcess, startProductionServices, type ProductionServices, type RunningProcess } from './support/processes.ts';
import { TestClient } from './support/portal.ts';

const baseUrl = testDatabaseBaseUrl();
const UPLOADS = 50;
/** Uploads in flight at once (a browser tab sends one at a time; a few users at once). */
const PARALLEL = 10;

/** A valid three-line LEDES file with its own invoice number. */
function ledesFile(i: number): Buffer {
  const header =
    'LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\n';
  const line = (n: number) => `20240225|S${i}|C-1|0528|2100.00|20240101|20240131|For services rendered|${n}|F|2.00|0|700|20240115|L510||A102|22547|Research and drafting of the reply|24-6437381|350|Arnsley, Robert|PT|423-987[]`;
  return Buffer.from(header + [1, 2, 3].map(line).join('\n') + '\n');
}

async function inBatches<T>(count: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += PARALLEL) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(PARALLEL, count - start) }, (_, k) => task(start + k)))));
  }
  return results;
}

function connect(url: string, origin: string, cookie: string): Promise<Socket> {
  const socket = io(url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: { origin, cookie }, reconnection: false, timeout: 10_000 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/**
 * `docker compose up --scale api=2 --scale worker-ledes=2 --scale worker-annuities=2`, on loopback:
 * two API nodes and two workers of each kind sharing PostgreSQL, Redis and the store.
 */
describe.skipIf(!baseUrl)('production mode: two API nodes, two LEDES and two annuities workers on the same queues', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let services: ProductionServices;
  let nodes: string[];
  let db: pg.Client;
  const workers: Array<{ kind: 'ledes' | 'annuities'; process: RunningProcess }> = [];

  beforeAll(async () => {
    services = await startProductionServices(baseUrl!);
    cleanups.push(() => services.stop());
    // The first node migrates the schema and creates the bucket; the rest start together after it.
    const first = startProcess('apps/api/src/main.ts', services.env);
    cleanups.push(() => first.stop());
    await first.waitFor(/Portal ready on/, 90_000);
    const secondPort = await freePort();
    // Behind one proxy both nodes serve the same public origin.
    const second = startProcess('apps/api/src/main.ts', { ...services.env, PORT: String(secondPort) });
    cleanups.push(() => second.stop());
    for (const kind of ['ledes', 'annuities', 'ledes', 'annuities'] as const) {
      const worker = startProcess(`workers/src/entrypoints/${kind}.ts`, services.env);
      cleanups.push(() => worker.stop());
      workers.push({ kind, process: worker });
    }
    await Promise.all([second.waitFor(/Portal ready on/, 90_000), ...workers.map((w) => w.process.waitFor(new RegExp(`${w.kind} worker started`), 90_000))]);
    nodes = [services.url, `http://127.0.0.1:${secondPort}`];
    db = new pg.Client({ connectionString: services.databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(`${UPLOADS} LEDES and ${UPLOADS} annuity uploads spread over both nodes: each run processed exactly once, every Done event on a socket of either node`, { timeout: 120_000 }, async () => {
    const origin = services.url;
    const apiKey = services.apiKey;
    const admin = new TestClient(nodes[0]!, { origin, apiKey });
    expect((await admin.post('/api/auth/login', PRODUCTION_ADMIN)).status).toBe(200);
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    const roleId = (slug: string) => roles.find((r) => r.slug === slug)!._id;
    await admin.post('/api/admin/user', { company_agent: 'Agent', email: 'scale-ledes@portal.example.com', password: 'ledes-password-123', roles: [roleId('user_agent_ledes')], id_client: ['C-1'] });
    await admin.post('/api/admin/user', { company_agent: 'Annuities', email: 'scale-annuities@portal.example.com', password: 'annuities-password-123', roles: [roleId('user_annuites')] });
    const agent = new TestClient(nodes[0]!, { origin, apiKey });
    expect((await agent.post('/api/auth/login', { email: 'scale-ledes@portal.example.com', password: 'ledes-password-123' })).status).toBe(200);
    const annuitant = new TestClient(nodes[1]!, { origin, apiKey });
    expect((await annuitant.post('/api/auth/login', { email: 'scale-annuities@portal.example.com', password: 'annuities-password-123' })).status).toBe(200);

    // Each user has a socket on each node; each socket must see every one of its runs end.
    const ledesDone = nodes.map(() => new Set<string>());
    const annuitiesDone = nodes.map(() => new Set<string>());
    const sockets = await Promise.all(nodes.flatMap((node) => [connect(node, origin, agent.cookieHeader()), connect(node, origin, annuitant.cookieHeader())]));
    cleanups.push(() => sockets.forEach((s) => s.close()));
    nodes.forEach((_node, n) => {
      sockets[2 * n]!.on('ledes:run', (run: LedesRunDto) => {
        if (run.state === 'Done') ledesDone[n]!.add(run._id);
      });
      sockets[2 * n + 1]!.on('annuities:file:updated', (file: AnnuityFileDto) => {
        if (file.is_done === 'Done') annuitiesDone[n]!.add(file._id);
      });
    });

    const workbook = await xlsxBuffer([{ name: 'Brevets', headers: FRENCH_HEADERS, rows: rowsFrom(0, 3) }]);
    const post = async (node: string, path: string, cookie: string, fields: Record<string, string>, filename: string, content: Buffer) => {
      const { body, contentType } = multipart(fields, [{ filename, content }]);
      const res = await fetch(`${node}${path}`, { method: 'POST', headers: { 'content-type': contentType, cookie, origin, 'x-api-key': apiKey }, body });
      const json = (await res.json()) as { runs?: Array<{ _id: string }>; _id?: string };
      expect(res.status, JSON.stringify(json)).toBe(200);
      return (json.runs?.[0]?._id ?? json._id)!;
    };
    const [runIds, fileIds] = await Promise.all([
      inBatches(UPLOADS, (i) => post(nodes[i % 2]!, '/api/ledes/file/patent/PAR', agent.cookieHeader(), { user_id: '' }, `scale-${i}.txt`, ledesFile(i))),
      inBatches(UPLOADS, (i) => post(nodes[(i + 1) % 2]!, '/api/brevets/annuite', annuitant.cookieHeader(), { title: `scale ${i}` }, `scale-${i}.xlsx`, workbook)),
    ]);
    expect(new Set(runIds).size).toBe(UPLOADS);
    expect(new Set(fileIds).size).toBe(UPLOADS);

    const deadline = Date.now() + 90_000;
    const settled = async () => {
      const { rows } = await db.query("select (select count(*)::int from ledes_runs where state <> 'in_progress') as ledes, (select count(*)::int from annuity_files where state <> 'in_progress') as annuities");
      const events = [...ledesDone, ...annuitiesDone].every((seen) => seen.size >= UPLOADS);
      return rows[0].ledes === UPLOADS && rows[0].annuities === UPLOADS && events;
    };
    while (!(await settled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

    // Exactly once: every row Done after a single attempt, and one worker's "done" line per run.
    const ledesRows = (await db.query('select id, state, attempts from ledes_runs')).rows as Array<{ id: string; state: string; attempts: number }>;
    expect(ledesRows.filter((r) => r.state !== 'Done' || r.attempts !== 1)).toEqual([]);
    const annuityRows = (await db.query('select id, state, attempts from annuity_files')).rows as Array<{ id: string; state: string; attempts: number }>;
    expect(annuityRows.filter((r) => r.state !== 'Done' || r.attempts !== 1)).toEqual([]);
    const patents = (await db.query('select count(*)::int as n, count(distinct (file_id, row_index))::int as d from annuity_patents')).rows[0] as { n: number; d: number };
    expect(patents).toEqual({ n: UPLOADS * 3, d: UPLOADS * 3 });
    const doneLines = (kind: string, ids: string[]) => {
      const perWorker = workers.filter((w) => w.kind === kind).map((w) => ids.filter((id) => w.process.output().split('\n').some((line) => line.includes(`"jobId":"${kind}-${id}"`))).length);
      return perWorker;
    };
    const ledesPerWorker = doneLines('ledes', runIds);
    const annuitiesPerWorker = doneLines('annuities', fileIds);
    // Each job started by one worker only (a second start would be a second processing).
    expect(ledesPerWorker.reduce((a, b) => a + b, 0), `LEDES jobs per worker ${ledesPerWorker.join(' + ')}`).toBe(UPLOADS);
    expect(annuitiesPerWorker.reduce((a, b) => a + b, 0), `annuity jobs per worker ${annuitiesPerWorker.join(' + ')}`).toBe(UPLOADS);
    // Both workers of each kind took a share.
    expect(Math.min(...ledesPerWorker, ...annuitiesPerWorker), `per worker: LEDES ${ledesPerWorker.join('/')}, annuities ${annuitiesPerWorker.join('/')}`).toBeGreaterThan(0);

    // Every socket, whichever node it is on, received every Done of its user's runs.
    for (const [n, seen] of ledesDone.entries()) expect(runIds.filter((id) => !seen.has(id)), `LEDES Done events missing on node ${n + 1}`).toEqual([]);
    for (const [n, seen] of annuitiesDone.entries()) expect(fileIds.filter((id) => !seen.has(id)), `annuity Done events missing on node ${n + 1}`).toEqual([]);
  });
});
