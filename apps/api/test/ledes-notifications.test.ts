import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { multipart } from './support/multipart.ts';
import { enqueueCommitted, ledesDayFigures, rowsOf, runLedesDigest } from '@portal/jobs';

/**
 * Issue 31 §3: the mails a user opts in to from their account — one of their LEDES files refused, one delivered to
 * step 2 — each sent once per event, to the uploader only when opted in; the settings' API, and the digest for admins.
 */
const SAMPLES = new URL('../../../packages/ledes/test/fixtures/samples/', import.meta.url);
const sample = (name: string) => readFileSync(new URL(name, SAMPLES));
const VALID = 'travisbashor-ledes-parser_tests-data-ledes_98B.txt';
const INVALID = 'mikewagner-ledes_parser_spec-fixtures-ledes.txt';

/** The valid sample as another invoice (a second upload of the same invoice is refused as a duplicate). */
const OTHER_VALID = 'other-invoice.txt';
const otherInvoices = (text: string) =>
  text
    .split('\n')
    .map((line, i) => (i < 2 ? line : line.replace(/^([^|]*)\|([^|]*)\|/, '$1|$2-2|')))
    .join('\n');
const contentOf = (name: string) => (name === OTHER_VALID ? Buffer.from(otherInvoices(sample(VALID).toString('utf8'))) : sample(name));

async function upload(client: TestClient, path: string, fields: Record<string, string>, name: string) {
  const { body, contentType } = multipart(fields, [{ filename: name, content: contentOf(name) }]);
  const res = await fetch(`${(client as unknown as { baseUrl: string }).baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: client.cookieHeader(), origin: (client as any).options.origin, 'x-api-key': (client as any).options.apiKey },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runs: Array<{ _id: string }> }).runs[0]!._id;
}

describe.each(databaseKinds())('LEDES notifications (%s)', (kind) => {
  let t: TestPortal;
  let agent: { client: TestClient; id: string; email: string };
  let quiet: { client: TestClient; id: string; email: string };
  let admin: { client: TestClient; id: string; email: string };

  beforeAll(async () => {
    t = await startTestPortal(kind);
    agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-N'] });
    quiet = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-Q'] });
    admin = await t.loginAs('admin');
  });
  afterAll(async () => t.close());

  /** The mails of the outbox to `email` since `from`: .eml text with folded headers and quoted-printable soft breaks undone. */
  const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/\r?\n[ \t]+/g, ' ');
  const mailsTo = (email: string, from: number) => t.outbox().slice(from).map((m) => readable(m.raw)).filter((raw) => raw.includes(`To: ${email}`));

  it('settings: all off at first, changed one at a time, the digest for admins only', async () => {
    const first = await agent.client.get('/api/account/notifications');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, settings: { ledes_refused: false, ledes_delivered: false, ledes_digest: false }, digest_available: false });
    const on = await agent.client.put('/api/account/notifications', { ledes_refused: true });
    expect(on.body.settings).toEqual({ ledes_refused: true, ledes_delivered: false, ledes_digest: false });
    expect((await agent.client.put('/api/account/notifications', { ledes_delivered: true })).body.settings).toEqual({ ledes_refused: true, ledes_delivered: true, ledes_digest: false });
    const digest = await agent.client.put('/api/account/notifications', { ledes_digest: true });
    expect(digest.status).toBe(403);
    expect(digest.body).toMatchObject({ success: false, code: 'forbidden' });
    expect((await agent.client.put('/api/account/notifications', { ledes_refused: 'yes' })).status).toBe(400);
    expect((await agent.client.put('/api/account/notifications', { other: true })).status).toBe(400);
    const adminDigest = await admin.client.put('/api/account/notifications', { ledes_digest: true });
    expect(adminDigest.body).toMatchObject({ settings: { ledes_digest: true }, digest_available: true });
    expect((await t.client().get('/api/account/notifications')).status).toBe(401);
  });

  it('a refused file mails its uploader once, with the lines in error and the result link; one who did not opt in gets nothing', async () => {
    await agent.client.put('/api/account/notifications', { ledes_refused: true, ledes_delivered: false });
    const before = t.outbox().length;
    const runId = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, INVALID);
    const silent = await upload(quiet.client, '/api/ledes/file/patent/PAR', {}, INVALID);
    await t.drainQueue();
    const mails = mailsTo(agent.email, before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Subject: LEDES file refused: ${INVALID}`);
    expect(mails[0]).toContain(`/result-ledes?runs=${runId}`);
    expect(mails[0]).toContain('/account/notifications');
    const run = await agent.client.get(`/api/ledes/runs/${runId}`);
    expect(run.body.run).toMatchObject({ state: 'Done', accepted: false });
    expect(mails[0]).toMatch(/found errors on \d+ line\(s\)/);
    expect(mailsTo(quiet.email, before)).toEqual([]);
    expect(silent).toBeTruthy();
    // Once per event: the queue drained again, the sweep run, no second mail.
    await t.drainQueue();
    expect(mailsTo(agent.email, before)).toHaveLength(1);
  });

  it('a file delivered to step 2 mails its uploader once when opted in; an accepted file kept from step 2 does not', async () => {
    await agent.client.put('/api/account/notifications', { ledes_refused: false, ledes_delivered: true });
    const before = t.outbox().length;
    const delivered = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, VALID);
    await t.drainQueue();
    const mails = mailsTo(agent.email, before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Subject: LEDES file delivered to step 2: ${VALID}`);
    expect(mails[0]).toContain(`/result-ledes?runs=${delivered}`);
    // Refused mails are off now; an accepted file not sent to step 2 is no delivery.
    const kept = await upload(admin.client, '/api/ledes/file/patent/PAR', { user_id: agent.id, send_server: 'false' }, OTHER_VALID);
    await upload(agent.client, '/api/ledes/file/patent/PAR', {}, INVALID);
    await t.drainQueue();
    const keptRun = await agent.client.get(`/api/ledes/runs/${kept}`);
    expect(keptRun.body.run).toMatchObject({ state: 'Done', accepted: true, delivered: false });
    expect(mailsTo(agent.email, before)).toHaveLength(1);
  });

  it('the daily digest: one mail per opted-in admin and day with the day’s figures and top findings, never twice, nothing to the others', async () => {
    const other = await t.loginAs('admin');
    await admin.client.put('/api/account/notifications', { ledes_digest: true });
    await agent.client.put('/api/account/notifications', { ledes_refused: false, ledes_delivered: false });
    const runId = await upload(agent.client, '/api/ledes/file/patent/PAR', {}, INVALID);
    await t.drainQueue();
    const run = await agent.client.get(`/api/ledes/runs/${runId}`);
    const day = String(run.body.run.created).slice(0, 10);
    const figures = await ledesDayFigures(t.portal.ctx.db, day);
    // Every run of this file's tests is of that day: the figures are the database's own count of them.
    const [counted] = rowsOf<{ n: number }>(await t.portal.ctx.db.execute(sql`select count(*)::int as n from ledes_runs where (created_at at time zone 'UTC')::date = ${day}::date`));
    expect(figures.runs).toBe(counted!.n);
    expect(figures.refused).toBeGreaterThan(0);
    expect(figures.top.length).toBeGreaterThan(0);
    const before = t.outbox().length;
    await enqueueCommitted(t.portal.ctx, 'ledes-digest', [{ day }]);
    await t.drainQueue();
    const mails = mailsTo(admin.email, before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Subject: LEDES digest of ${day}`);
    expect(mails[0]).toContain(`${figures.runs} file(s), ${figures.accepted} accepted, ${figures.refused} refused, ${figures.failed} not checked`);
    expect(mails[0]).toContain(`${figures.top[0]!.code}: `);
    expect(mails[0]).toContain('/ledes/history/admin');
    expect(mailsTo(other.email, before)).toEqual([]);
    expect(mailsTo(agent.email, before)).toEqual([]);
    // The same day again (a retry, the embedded timer's next hour, another worker): the sent log says it went.
    const again = await runLedesDigest({ db: t.portal.ctx.db, logger: t.portal.ctx.logger, publicUrl: 'http://localhost' }, day);
    expect(again.mails).toBe(0);
    await t.drainQueue();
    expect(mailsTo(admin.email, before)).toHaveLength(1);
    // A day without runs: no digest.
    await enqueueCommitted(t.portal.ctx, 'ledes-digest', [{ day: '2001-01-01' }]);
    await t.drainQueue();
    expect(mailsTo(admin.email, before)).toHaveLength(1);
  });

  it('a French uploader reads the mail in French', async () => {
    await agent.client.put('/api/account/notifications', { ledes_refused: true });
    await t.portal.ctx.db.execute(sql`update users set langue = 'fr' where id = ${agent.id}`);
    const before = t.outbox().length;
    await upload(agent.client, '/api/ledes/file/patent/PAR', {}, INVALID);
    await t.drainQueue();
    const [mail] = mailsTo(agent.email, before);
    expect(mail).toBeDefined();
    expect(mail).toContain('Subject: =?UTF-8?');
    expect(mail).not.toContain('LEDES file refused');
  });
});
