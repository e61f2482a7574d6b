import http from 'node:http';
import net from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestClient, type TestPortal } from './support/portal.ts';
import { multipart } from './support/multipart.ts';

const MiB = 1024 * 1024;
const UPLOAD_PATH = '/api/ledes/file/patent/PAR';

/** Everything under the storage root (files and folders): a refused upload must leave none of it. */
function storedEntries(t: TestPortal): string[] {
  const root = (t.config.storage as { root: string }).root;
  return existsSync(root) ? readdirSync(root, { recursive: true }).map(String) : [];
}

function uploadHeaders(t: TestPortal, client: TestClient, contentType: string, length: number): Record<string, string> {
  return { 'content-type': contentType, 'content-length': String(length), cookie: client.cookieHeader(), origin: t.origin, 'x-api-key': t.config.security.apiKey };
}

/** Sends a raw HTTP request, then either waits for the answer or closes the socket after `closeAfter` bytes. */
function rawRequest(port: number, head: string, body: Buffer, closeMidBody: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body, () => {
        if (closeMidBody) socket.destroy();
      });
    });
    if (!closeMidBody) socket.setTimeout(20_000, () => socket.destroy(new Error('no answer to a truncated body')));
  });
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('uploads: bad bodies (issue 8 §2)', () => {
  let t: TestPortal;
  let agent: { client: TestClient };
  let port: number;

  beforeAll(async () => {
    t = await startTestPortal('pglite', { UPLOAD_MAX_BYTES: String(20 * MiB), UPLOAD_RATE_LIMIT: '1000' });
    agent = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
    port = Number(new URL(t.url).port);
  });
  afterAll(async () => t.close());

  it('truncated multipart body: 100 in a row never crash the server, each ends in 400 or a closed socket, nothing stays in storage', async () => {
    const shapes = [
      { name: 'file', filename: 'invoice.txt' },
      // Parts the server skips (unknown field, refused extension) are cut short too.
      { name: 'other', filename: 'invoice.txt' },
      { name: 'file', filename: 'invoice.exe' },
    ];
    for (let i = 0; i < 100; i++) {
      const { body, contentType } = multipart({}, [{ ...shapes[i % shapes.length]!, content: Buffer.alloc(256 * 1024, 65) }]);
      const cut = body.subarray(0, 100 * 1024);
      // Half the time the declared length matches the cut body (busboy: "Unexpected end of form"),
      // half the time the client closes the socket mid-part.
      const closeMidBody = i % 2 === 1;
      const headers = uploadHeaders(t, agent.client, contentType, closeMidBody ? body.length : cut.length);
      const head = `POST ${UPLOAD_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
      const answer = await rawRequest(port, head, cut, closeMidBody);
      if (!closeMidBody) expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
      if (!closeMidBody && i % shapes.length === 0) expect(answer).toContain('"code":"validation_failed"');
    }
    expect((await t.client().get('/api/auth/check_token')).status).toBe(200);
    await until(() => storedEntries(t).filter((e) => e.startsWith('ledes')).length === 0, 'the partial objects to be deleted');
  });

  it('an upload far over the limit gets its 413 while the client is still sending, and leaves nothing behind', async () => {
    const before = storedEntries(t);
    const { body, contentType } = multipart({}, [{ filename: 'huge.txt', content: Buffer.alloc(43 * MiB, 65) }]);
    const req = http.request(`${t.url}${UPLOAD_PATH}`, { method: 'POST', headers: uploadHeaders(t, agent.client, contentType, body.length) });
    req.on('error', () => {}); // the server may close the connection once it has answered
    const answered = new Promise<{ status: number; body: string }>((resolve) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
    });
    // 24 MiB written, and the request is left open: a server that waits for the end of the body never answers.
    for (let sent = 0; sent < 24 * MiB; sent += MiB) {
      if (!req.write(body.subarray(sent, sent + MiB))) await new Promise((resolve) => req.once('drain', resolve));
    }
    const res = await Promise.race([answered, new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000))]);
    req.destroy();
    expect(res?.status).toBe(413);
    expect(JSON.parse(res!.body)).toMatchObject({ code: 'payload_too_large' });
    await until(() => storedEntries(t).length === before.length, 'the refused upload to be cleaned up');
    expect(storedEntries(t)).toEqual(before);
    expect((await t.client().get('/api/auth/check_token')).status).toBe(200);
  });
});

describe('uploads: rate limit per user (issue 8 §2)', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal('pglite', { UPLOAD_RATE_LIMIT: '3' });
  });
  afterAll(async () => t.close());

  it('upload rate limit: past the budget a user gets a translated 429, another user is unaffected', async () => {
    const first = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-A'] });
    const second = await t.loginAs('user_agent_ledes', { idClient: ['CLIENT-B'] });
    const send = async (client: TestClient) => {
      const { body, contentType } = multipart({}, [{ filename: 'wrong.exe', content: 'MZ' }]);
      const res = await fetch(`${t.url}${UPLOAD_PATH}`, { method: 'POST', headers: { ...uploadHeaders(t, client, contentType, body.length), 'accept-language': 'fr' }, body });
      return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
    };
    for (let i = 0; i < 3; i++) expect((await send(first.client)).status).toBe(415);
    const limited = await send(first.client);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, code: 'rate_limited', message: 'Trop de requêtes, veuillez réessayer plus tard.' });
    // The budget's window (10 minutes from the first upload) ends in 600 s: Retry-After says so.
    expect(limited.retryAfter).toBe('600');
    expect((await send(second.client)).status).toBe(415);
    t.clock.advance(10 * 60_000 + 1);
    expect((await send(first.client)).status).toBe(415);
  });
});
