import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { REALTIME_PATH } from '@portal/contracts';
import { startTestPortal, type TestPortal } from './support/portal.ts';

function connect(t: TestPortal, headers: Record<string, string>): Promise<{ socket: Socket; error?: Error }> {
  return new Promise((resolve) => {
    const socket = io(t.url, { path: REALTIME_PATH, transports: ['websocket'], extraHeaders: headers, reconnection: false, timeout: 5000 });
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (error) => resolve({ socket, error }));
  });
}

describe('socket.io on the API, authenticated by the session cookie', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal('pglite');
  });
  afterAll(async () => t.close());

  it('WS-01 refuses a socket without a valid session', async () => {
    const anonymous = await connect(t, { origin: t.origin });
    expect(anonymous.error?.message).toBe('unauthorized');
    anonymous.socket.close();
    const forged = await connect(t, { origin: t.origin, cookie: `portal_sid=${'A'.repeat(43)}` });
    expect(forged.error?.message).toBe('unauthorized');
    forged.socket.close();
  });

  it('WS-02 refuses a valid cookie from a foreign origin', async () => {
    const { client } = await t.loginAs('user_agent_ledes');
    const hijack = await connect(t, { origin: 'https://evil.example', cookie: client.cookieHeader() });
    expect(hijack.error).toBeDefined();
    hijack.socket.close();
  });

  it('delivers a user only their own events, and closes the socket at logout (WS-03, WS-05)', async () => {
    const a = await t.loginAs('user_agent_ledes');
    const b = await t.loginAs('user_agent_ledes');
    const sa = await connect(t, { origin: t.origin, cookie: a.client.cookieHeader() });
    const sb = await connect(t, { origin: t.origin, cookie: b.client.cookieHeader() });
    expect(sa.error).toBeUndefined();
    const receivedByB: unknown[] = [];
    sb.socket.on('ledes:run', (run) => receivedByB.push(run));
    const forA = new Promise((resolve) => sa.socket.once('ledes:run', resolve));
    t.portal.ctx.realtime.toUser(a.id, 'ledes:run', { _id: 'r1', owner_id: a.id } as never);
    expect(await forA).toMatchObject({ _id: 'r1' });
    await new Promise((r) => setTimeout(r, 200));
    expect(receivedByB).toEqual([]);

    const closed = new Promise((resolve) => sa.socket.once('disconnect', resolve));
    await a.client.post('/api/auth/logout');
    await expect(closed).resolves.toBeDefined();
    sb.socket.close();
  });
});
