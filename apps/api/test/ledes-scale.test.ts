import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ledesFindings, ledesRuns } from '@portal/db';
import { manyInvoices } from '../../../packages/ledes/test/generate.ts';
import { multipart } from './support/multipart.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal, type TestResponse } from './support/portal.ts';
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

  it('#8 the run detail is paged: at most 50,000 findings a page, cut on a line, pages chained by next_line, the run\'s totals on each', async () => {
    const [run] = await t.portal.ctx.db
      .insert(ledesRuns)
      .values({
        ownerId: agentB.id, name: 'paged-run', originalName: 'paged.txt', originalKey: `ledes/original/paged-${kind}.txt`, size: 1, sha256: 'x',
        office: 'PAR', type: 'patent', state: 'Done', accepted: false, linesChecked: 60_000, refusedLineCount: 54_000, errorLineCount: 54_000, warningCount: 60_000,
      })
      .returning();
    // A warning on every line, an error on every line but each tenth: 114,000 findings.
    await t.portal.ctx.db.execute(sql`
      insert into ledes_findings (run_id, line, code, champ, severity)
      select ${run!.id}::uuid, g, 'FMT-006', 'LINE_ITEM_DESCRIPTION', 'warning' from generate_series(0, 59999) g
      union all
      select ${run!.id}::uuid, g, 'CON-001', 'INVOICE_TOTAL', 'error' from generate_series(0, 59999) g where g % 10 <> 0`);

    expect((await agentB.client.get(`/api/ledes/runs/${run!.id}?from_line=x`)).status).toBe(400);
    const errorLines = new Set<number>();
    const okLines: number[] = [];
    let fromLine: number | null = -2;
    let pages = 0;
    while (fromLine !== null) {
      const res: TestResponse = await agentB.client.get(`/api/ledes/runs/${run!.id}${fromLine === -2 ? '' : `?from_line=${fromLine}`}`);
      expect(res.status).toBe(200);
      const result = res.body.result;
      pages++;
      expect(result.page.from_line).toBe(fromLine);
      const findings = [...result.errors, ...result.warnings].reduce((n: number, l: { items: unknown[] }) => n + l.items.length, 0);
      expect(findings).toBeLessThanOrEqual(50_000);
      for (const l of result.errors) {
        expect(errorLines.has(l.line)).toBe(false);
        if (result.page.next_line !== null) expect(l.line).toBeLessThan(result.page.next_line);
        errorLines.add(l.line);
      }
      okLines.push(...result.format_ok.map((l: { line: number }) => l.line));
      expect(result.format_ok_total).toBe(6000);
      // Every page gives the whole run's counts (the screen's figures), not its own.
      expect(result.totals).toEqual({ errors: 54_000, warnings: 60_000, refused_lines: 54_000 });
      fromLine = result.page.next_line;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(errorLines.size).toBe(54_000);
    expect(okLines.every((line) => line % 10 === 0)).toBe(true);
    expect(okLines.length).toBeGreaterThan(0);
  }, 120_000);
});
