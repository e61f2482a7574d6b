import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseBaseUrl } from '@portal/db/testing';
import { multipart } from './support/multipart.ts';
import { startProcess, startProductionPortal, waitForRowState } from './support/processes.ts';
import { TestClient } from './support/portal.ts';

const baseUrl = testDatabaseBaseUrl();

/** A LEDES 1998B file of `lines` fee lines, invoice 1000 for client C-1 (totals deliberately off). */
function bigLedesFile(lines: number): Buffer {
  const header =
    'LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\n';
  const body: string[] = [];
  for (let i = 1; i <= lines; i++) {
    body.push(`20240225|1000|C-1|0528|700.00|20240101|20240131|For services rendered|${i}|F|2.00|0|700|20240115|L510||A102|22547|Research and drafting of the reply|24-6437381|350|Arnsley, Robert|PT|423-987[]`);
  }
  return Buffer.from(header + body.join('\n') + '\n');
}

describe.skipIf(!baseUrl)('production mode: LEDES worker killed mid-run', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let env: Record<string, string>;
  let url: string;
  let apiKey: string;
  let db: pg.Client;

  beforeAll(async () => {
    const portal = await startProductionPortal(baseUrl!, {
      UPLOAD_MAX_BYTES: String(200 * 1024 * 1024),
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
    const { body, contentType } = multipart({ user_id: '' }, [{ filename: name, content: file }]);
    const res = await fetch(`${url}/api/ledes/file/patent/PAR`, {
      method: 'POST',
      headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: url, 'x-api-key': apiKey },
      body,
    });
    const json = (await res.json()) as { runs: Array<{ _id: string }> };
    expect(res.status).toBe(200);
    return json.runs[0]!._id;
  }

  const waitForState = (id: string, state: string, timeoutMs: number) => waitForRowState<{ state: string; attempts: number }>(db, 'select state, attempts from ledes_runs where id = $1', id, state, timeoutMs);

  it('ends Done after a restart, with the findings stored once', { timeout: 300_000 }, async () => {
    const client = new TestClient(url, { origin: url, apiKey });
    const email = 'agent@portal.example.com';
    const admin = new TestClient(url, { origin: url, apiKey });
    await admin.post('/api/auth/login', { email: 'ops@portal.example.com', password: 'production-admin-password' });
    const roles = (await admin.get('/api/role')).body.roles as Array<{ _id: string; slug: string }>;
    await admin.post('/api/admin/user', { company_agent: 'Agent', email, password: 'agent-password-123', roles: [roles.find((r) => r.slug === 'user_agent_ledes')!._id], id_client: ['C-1'] });
    await client.post('/api/auth/login', { email, password: 'agent-password-123' });

    const file = bigLedesFile(60_000);
    const killedRun = await submit(client, file, 'big.txt');
    const first = startProcess('workers/src/entrypoints/ledes.ts', env);
    cleanups.push(() => first.stop('SIGKILL'));
    const started = Date.now() + 60_000;
    for (;;) {
      const { rows } = await db.query('select started_at from ledes_runs where id = $1', [killedRun]);
      if (rows[0]?.started_at) break;
      if (Date.now() > started) throw new Error(`worker never started the run:\n${first.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    await first.stop('SIGKILL');
    const { rows: midway } = await db.query('select state from ledes_runs where id = $1', [killedRun]);
    expect(midway[0].state).toBe('in_progress');

    const second = startProcess('workers/src/entrypoints/ledes.ts', env);
    cleanups.push(() => second.stop());
    await second.waitFor(/ledes worker started/);
    const done = await waitForState(killedRun, 'Done', 120_000).catch((error: Error) => {
      throw new Error(`${error.message}\n--- restarted worker ---\n${second.output().slice(-4000)}`);
    });
    expect(done.attempts).toBe(2);

    // A control run of the same file, never interrupted, gives the reference findings.
    const controlRun = await submit(client, file, 'big-control.txt');
    await waitForState(controlRun, 'Done', 90_000);
    const count = async (runId: string) =>
      (await db.query('select count(*)::int as n, count(distinct (line, code, champ))::int as d from ledes_findings where run_id = $1', [runId])).rows[0] as { n: number; d: number };
    const killed = await count(killedRun);
    const control = await count(controlRun);
    expect(killed.n).toBe(killed.d);
    expect(killed.n).toBe(control.n);
    expect(killed.n).toBeGreaterThan(0);
  });
});
