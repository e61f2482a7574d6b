import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledesFindings, ledesRuns } from '@portal/db';
import { createCheckLedesProcessor, runEngineInThread, type LedesEngine } from '@portal/jobs';
import type { JobContext } from '@portal/queue';
import { baseRecords, fileText, type Rec } from '../../../packages/ledes/test/helpers.ts';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';

/**
 * Issue 31, follow-up: LEDES XML invoices go through the client guidelines and the spend rollup like 98B files
 * (their items read as 98B records, in the same pass), and two uploads of one firm checked at the same moment see
 * each other's lines at commit (decision 220).
 *
 * The XML fixture (packages/ledes/test/fixtures/xml/guidelines-2.1.xml): firm 12-3456789, invoice INV-X1, period
 * 2025-01-01…01-31; item 0 fee TK1 PARTNR 2 × 350 = 700 (task L120), item 1 fee TK1 PARTNR 7.5 × 300 = 2250 (L130),
 * item 2 expense E101 10 × 0.50 = 5; net due 2955.
 */
const XML = readFileSync(new URL('../../../packages/ledes/test/fixtures/xml/guidelines-2.1.xml', import.meta.url), 'utf8');

async function upload(t: TestPortal, client: TestClient, idClient: string, filename: string, content: string) {
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

const jobContext = (): JobContext => ({ jobId: `ledes-${randomUUID()}`, attempt: 1, signal: new AbortController().signal, updateProgress: async () => {}, log: () => {} });

describe.each(databaseKinds())('LEDES XML guidelines and analytics, concurrent runs of a firm (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient; id: string };
  let admin: { client: TestClient; id: string };

  beforeAll(async () => {
    t = await startTestPortal(kind);
    agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-X', 'CLIENT-Y', 'CLIENT-C'] });
    admin = await t.loginAs('admin');
  });
  afterAll(async () => t.close());

  it('an XML invoice is refused by a rate cap, with the values that decide', async () => {
    const set = await admin.client.post('/api/ledes/guidelines/CLIENT-X', {
      effective_from: '2024-01-01',
      rules: [{ kind: 'max_rate', ref: '§2.1', severity: 'error', classification: 'PARTNR', max: '320' }],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const { run, result } = await upload(t, agent.client, 'CLIENT-X', 'capped.xml', XML);
    expect(run).toMatchObject({ state: 'Done', accepted: false, guidelines: [expect.objectContaining({ version: 1, effective_from: '2024-01-01' })] });
    // Item 0: 350 − 320 = 30 per unit, × 2 units = 60 over the cap; item 1 (300) is under it.
    expect(guidelineItems(result).map(values)).toEqual([
      { line: 0, code_ledes: 'GDL-101', champ: 'LINE_ITEM_UNIT_COST', found: '350', expected: '320', difference: '30', over: '60', reference: '§2.1' },
    ]);
  });

  it('the analytics of XML invoices equal the sums of their items (one refused above, one accepted here)', async () => {
    // CLIENT-Y has no guidelines: the same file is accepted.
    const { run } = await upload(t, agent.client, 'CLIENT-Y', 'plain.xml', XML.replace('INV-X1', 'INV-Y1'));
    expect(run).toMatchObject({ state: 'Done', accepted: true });
    const res = await admin.client.get('/api/ledes/analytics');
    expect(res.status).toBe(200);
    // 700 + 2250 + 5 = 2955 accepted and 2955 refused; over the guidelines: the refused file's 60.
    expect(res.body.totals).toEqual({ spend: '2955.0000', refused: '2955.0000', over_guidelines: '60.0000', lines: 3 });
    const byKey = (dim: string) => Object.fromEntries(res.body.groups[dim].top.map((g: { key: string; spend: string; refused: string }) => [g.key, [g.spend, g.refused]]));
    expect(byKey('task')).toEqual({ L130: ['2250.0000', '2250.0000'], L120: ['700.0000', '700.0000'], '': ['5.0000', '5.0000'] });
    expect(byKey('timekeeper')).toEqual({ TK1: ['2950.0000', '2950.0000'], '': ['5.0000', '5.0000'] });
    expect(byKey('month')).toEqual({ '2025-01': ['2955.0000', '2955.0000'] });
    expect(byKey('law_firm')).toEqual({ '12-3456789': ['2955.0000', '2955.0000'] });
    expect(byKey('matter')).toEqual({ 'M-100': ['2955.0000', '2955.0000'] });
  });

  it('two runs of one firm checked at the same moment, each holding one half of a duplicate line: one of them is refused', async () => {
    const set = await admin.client.post('/api/ledes/guidelines/CLIENT-C', { effective_from: '2020-01-01', rules: [{ kind: 'duplicate_line', ref: '§4', severity: 'error' }] });
    expect(set.status).toBe(200);
    const { db, storage, realtime, logger } = t.portal.ctx;
    // Both files bill TK1's line of 20250115 ("Research prior art", 2 units): each alone is fine.
    const file = (n: string, edit: Partial<Rec> = {}) => fileText(baseRecords().map((r) => ({ ...r, INVOICE_NUMBER: n, ...edit })));
    const runIds: string[] = [];
    for (const n of ['C-1', 'C-2']) {
      const key = `ledes/original/${randomUUID()}/${n}.txt`;
      const content = Buffer.from(file(n));
      await storage.put(key, content);
      const [row] = await db
        .insert(ledesRuns)
        .values({ ownerId: agent.id, name: `run_${randomUUID()}`, originalName: `${n}.txt`, originalKey: key, size: content.length, sha256: 'x', office: 'PAR', type: 'patent', sendServer: false, idClient: 'CLIENT-C' })
        .returning();
      runIds.push(row!.id);
    }
    // The moment: each run asks the firm's history, then waits until the other has asked too, before its commit.
    let asked = 0;
    let release!: () => void;
    const bothAsked = new Promise<void>((resolve) => (release = resolve));
    const engine: LedesEngine = (source, options) => {
      const history = options.guidelines?.history;
      if (!options.guidelines || !history) return runEngineInThread(source, options);
      return runEngineInThread(source, {
        ...options,
        guidelines: {
          ...options.guidelines,
          history: {
            ...history,
            lookup: async (units, lines) => {
              const answer = await history.lookup(units, lines);
              if (++asked === 2) release();
              await bothAsked;
              return answer;
            },
          },
        },
      });
    };
    const processor = createCheckLedesProcessor({ db, storage, realtime, logger, engine });
    await Promise.all(runIds.map((runId) => processor({ runId }, jobContext())));
    expect(asked).toBe(2);
    const runs = await Promise.all(runIds.map(async (id) => (await db.select().from(ledesRuns).where(eq(ledesRuns.id, id)))[0]!));
    expect(runs.map((r) => r.state)).toEqual(['Done', 'Done']);
    expect(runs.filter((r) => r.accepted === true)).toHaveLength(1);
    const refused = runs.find((r) => r.accepted === false)!;
    expect(refused).toBeDefined();
    const findings = await db.select().from(ledesFindings).where(eq(ledesFindings.runId, refused.id));
    expect(findings.map((f) => [f.line, f.code, f.severity, f.reference])).toEqual([[0, 'GDL-111', 'error', '§4']]);
    expect(refused.errorLineCount).toBe(1);
    // Its owner reads it refused, with the finding on line 0.
    const seen = await agent.client.get(`/api/ledes/runs/${refused.id}`);
    expect(seen.body.run).toMatchObject({ state: 'Done', accepted: false });
  });
});
