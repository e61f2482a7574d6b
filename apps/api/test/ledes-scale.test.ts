import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesFindings, ledesRuns } from '@portal/db';
import { manyInvoices } from '../../../packages/ledes/test/generate.ts';
import { multipart } from './support/multipart.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { listHistory } from '../src/modules/ledes/service.ts';

const VALID_98B = readFileSync(new URL('../../../packages/ledes/test/fixtures/samples/travisbashor-ledes-parser_tests-data-ledes_98B.txt', import.meta.url));

describe.each(databaseKinds())('LEDES at scale: history, invoices, duplicates (%s)', (kind) => {
  let t: TestPortal;
  let agentA: { client: TestClient; id: string };
  let agentB: { client: TestClient; id: string };

  async function check(client: TestClient, filename: string, content: Buffer | string) {
    const { body, contentType } = multipart({}, [{ filename, content }]);
    const res = await fetch(`${t.url}/api/ledes/file/patent/PAR?wait=110`, {
      method: 'POST',
      headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: t.origin, 'x-api-key': t.config.security.apiKey },
      body,
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { runs: Array<{ state: string; accepted: boolean | null }>; ledes?: Array<{ errors: Array<{ items: Array<{ code_ledes: string }> }> }> };
    const codes = (answer.ledes?.[0]?.errors ?? []).flatMap((l) => l.items.map((i) => i.code_ledes));
    return { run: answer.runs[0]!, codes };
  }

  beforeAll(async () => {
    t = await startTestPortal(kind, { UPLOAD_MAX_BYTES: '20000000' });
    agentA = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
    agentB = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-B'] });
  });
  afterAll(async () => t.close());

  it('#8 a file of 20,000 invoices is accepted and its invoice numbers stored (no 65,535-parameter statement)', async () => {
    const { run } = await check(agentA.client, 'twenty-thousand.txt', manyInvoices(20_000, 'big-'));
    expect(run).toMatchObject({ state: 'Done', accepted: true });
    const again = await check(agentA.client, 'twenty-thousand-again.txt', manyInvoices(20_000, 'big-'));
    expect(again.run).toMatchObject({ state: 'Done', accepted: false });
    expect(again.codes.filter((c) => c === 'CON-007')).toHaveLength(20_000);
  }, 240_000);

  it('#8 CON-007 matches invoice numbers accepted for the same client only, never another client', async () => {
    const first = await check(agentA.client, 'sample.txt', VALID_98B);
    expect(first.run).toMatchObject({ state: 'Done', accepted: true });
    const otherClient = await check(agentB.client, 'sample.txt', VALID_98B);
    expect(otherClient.codes).not.toContain('CON-007');
    expect(otherClient.run.accepted).toBe(true);
    const sameClient = await check(agentA.client, 'sample.txt', VALID_98B);
    expect(sameClient.codes).toContain('CON-007');
  }, 60_000);

  it('#8 the history list answers from the run row, not from the run findings', async () => {
    const now = t.clock.now();
    const [run] = await t.portal.ctx.db
      .insert(ledesRuns)
      .values({
        ownerId: agentB.id, name: 'summary-run', originalName: 'summary.txt', originalKey: `ledes/original/summary-${kind}.txt`, size: 1, sha256: 'x',
        office: 'PAR', type: 'patent', state: 'Done', accepted: false, linesChecked: 6000, createdAt: new Date(now.getTime() + 60_000),
        errorLineCount: 3, refusedLineCount: 2, warningCount: 1, firstErrorLines: [-2, 4, 7], firstOkLines: [0, 1, 2, 3, 5, 6],
      })
      .returning();
    // 5,000 error findings the summary does not describe: a list that read them would show them.
    const findings = Array.from({ length: 5000 }, (_, line) => ({ runId: run!.id, line, code: 'CON-001', champ: 'INVOICE_TOTAL', severity: 'error' as const }));
    for (let i = 0; i < findings.length; i += 1000) await t.portal.ctx.db.insert(ledesFindings).values(findings.slice(i, i + 1000));

    const page = await agentB.client.get('/api/historique?page=1&limit=20');
    expect(page.status).toBe(200);
    const item = page.body.data.find((h: { _id: string }) => h._id === run!.id);
    expect(item).toMatchObject({ error: [-2, 4, 7], error_count: 3, format_ok: [0, 1, 2, 3, 5, 6], format_ok_count: 5998 });
  });

  it('#8 the history list starts no query for a request whose client has gone', async () => {
    const db = t.portal.ctx.db;
    let selects = 0;
    const counting = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'select') selects++;
        return Reflect.get(target, key, receiver);
      },
    });
    const ctx = { ...t.portal.ctx, db: counting };
    expect(await listHistory(ctx, { ownerId: agentB.id, onlyShared: true }, 1, 20, AbortSignal.abort())).toBeUndefined();
    expect(selects).toBe(0);
    expect((await listHistory(ctx, { ownerId: agentB.id, onlyShared: true }, 1, 20))?.data.length).toBeGreaterThan(0);
    expect(selects).toBe(2);
  });
});
