import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisServer, type TestRedis } from '@portal/queue/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessPublisher } from '../src/index.ts';
import { createRedisPublisher } from '../src/redis.ts';
import { APP_ORIGIN, SessionTable, collect, connect, disconnected, run, sleep, startServer, waitFor, type TestClient, type TestServer } from './helpers.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

let open: Array<TestClient | TestServer> = [];
const track = <T extends TestClient | TestServer>(thing: T): T => (open.push(thing), thing);
afterEach(async () => {
  for (const thing of open.reverse()) await ('close' in thing && typeof thing.close === 'function' ? thing.close() : undefined);
  open = [];
});

describe('embedded server (in-process publisher)', () => {
  let sessions: SessionTable;
  let server: TestServer;
  let publisher: ReturnType<typeof createInProcessPublisher>;
  const ignored: string[] = [];

  const boot = async (extra: { revalidateEveryMs?: number } = {}) => {
    sessions = new SessionTable();
    publisher = createInProcessPublisher();
    server = track(await startServer({
      authenticate: sessions.authenticate,
      inProcess: publisher,
      onIgnoredClientEvent: (identity, event) => ignored.push(`${identity.userId}:${event}`),
      ...extra,
    }));
  };

  it('WS-01 rejects a handshake without a cookie or with an unknown session', async () => {
    await boot();
    await expect(connect(server.url)).rejects.toMatchObject({ message: 'unauthorized' });
    await expect(connect(server.url, { cookie: 'sid=forged' })).rejects.toMatchObject({ message: 'unauthorized' });
    await expect(connect(server.url, { cookie: 'sid=forged', transports: ['polling'] })).rejects.toMatchObject({ message: 'unauthorized' });
  });

  it('WS-02 rejects a valid cookie from a foreign Origin, accepts the app origin', async () => {
    await boot();
    const cookie = sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' });
    await expect(connect(server.url, { cookie, origin: 'https://evil.example' })).rejects.toThrow();
    await expect(connect(server.url, { cookie, origin: 'https://evil.example', transports: ['polling'] })).rejects.toThrow();
    await expect(connect(server.url, { cookie, origin: 'null' })).rejects.toThrow();
    await expect(connect(server.url, { cookie, origin: `${APP_ORIGIN}.evil.example` })).rejects.toThrow();
    const socket = track(await connect(server.url, { cookie, origin: APP_ORIGIN }));
    expect(socket.connected).toBe(true);
    // Documented choice: no Origin = not a browser cross-site request; the cookie still decides.
    track(await connect(server.url, { cookie, origin: null }));
  });

  it('WS-03 delivers user events only to that user, admin events only to admins', async () => {
    await boot();
    const alice = track(await connect(server.url, { cookie: sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' }) }));
    const bob = track(await connect(server.url, { cookie: sessions.add('b', { userId: 'bob', isAdmin: true, sessionId: 's-b' }) }));
    const toAlice = collect(alice);
    const toBob = collect(bob);
    for (let i = 0; i < 50; i += 1) {
      publisher.toUser('alice', 'ledes:run', run(`alice-${i}`, 'alice'));
      publisher.toUser('bob', 'ledes:run', run(`bob-${i}`, 'bob'));
    }
    publisher.toAdmins('ledes:run', run('admin-feed', 'alice'));
    await waitFor(() => toAlice.length >= 50 && toBob.length >= 51, 5000, 'events');
    await sleep(100);
    expect(toAlice.map((r) => r._id).every((id) => id.startsWith('alice-'))).toBe(true);
    expect(toAlice).toHaveLength(50);
    expect(toBob.filter((r) => r._id.startsWith('alice-'))).toHaveLength(0);
    expect(toBob.map((r) => r._id)).toContain('admin-feed');
    expect(toBob).toHaveLength(51);
  });

  it('WS-04 ignores client-emitted join/subscribe and fake events', async () => {
    await boot();
    const alice = track(await connect(server.url, { cookie: sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' }) }));
    const bob = track(await connect(server.url, { cookie: sessions.add('b', { userId: 'bob', isAdmin: false, sessionId: 's-b' }) }));
    const toAlice = collect(alice);
    const toBob = collect(bob);
    alice.emit('join', { room: 'user:bob' });
    alice.emit('join', 'role:admin');
    alice.emit('subscribe', 'user:bob');
    alice.emit('ledes:run', run('spoofed', 'bob'));
    await waitFor(() => ignored.filter((e) => e.startsWith('alice:')).length >= 4, 2000, 'ignored events');
    publisher.toUser('bob', 'ledes:run', run('for-bob', 'bob'));
    publisher.toAdmins('ledes:run', run('for-admins', 'bob'));
    await waitFor(() => toBob.length >= 1);
    await sleep(100);
    expect(toAlice).toEqual([]);
    expect(toBob.map((r) => r._id)).toEqual(['for-bob']); // the spoofed event was not relayed
    const rooms = [...(server.realtime.io.of('/').sockets.get(alice.id!)?.rooms ?? [])];
    expect(rooms.sort()).toEqual([alice.id, 'session:s-a', 'user:alice'].sort());
  });

  it('WS-05 disconnectSession closes that session’s sockets only', async () => {
    await boot();
    const phone = track(await connect(server.url, { cookie: sessions.add('a1', { userId: 'alice', isAdmin: false, sessionId: 's-a1' }) }));
    const laptop = track(await connect(server.url, { cookie: sessions.add('a2', { userId: 'alice', isAdmin: false, sessionId: 's-a2' }) }));
    const closed = disconnected(phone);
    server.realtime.disconnectSession('s-a1');
    const reason = await closed;
    expect(reason).toBe('io server disconnect');
    await sleep(50);
    expect(laptop.connected).toBe(true);
  });

  it('WS-05 revalidation disconnects a socket whose session has expired', async () => {
    await boot({ revalidateEveryMs: 100 });
    const alice = track(await connect(server.url, { cookie: sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' }) }));
    const closed = disconnected(alice);
    sessions.revoke('a');
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('WS-10 closes the connection on an oversized message and keeps serving', async () => {
    await boot();
    const cookie = sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' });
    const alice = track(await connect(server.url, { cookie }));
    const closed = disconnected(alice);
    alice.emit('ledes:run', 'x'.repeat(2 * 1024 * 1024));
    await closed;
    const again = track(await connect(server.url, { cookie }));
    expect(again.connected).toBe(true);
  });
});

describe('multi-node (redis adapter + redis emitter)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a worker publishing while Redis is down logs the error instead of crashing', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const errors: Error[] = [];
    const publisher = createRedisPublisher(gone.url, { onError: (error) => errors.push(error) });
    publisher.toUser('alice', 'ledes:run', run('lost', 'alice'));
    // Connection errors arrive too; wait for the rejected PUBLISH itself.
    await waitFor(() => errors.some((e) => /max retries|closed/i.test(e.message)), 10_000, 'the rejected publish');
    await publisher.close();
  });

  it('an API node emitting through the adapter while Redis is down hands the error to onError, no unhandled rejection', async () => {
    const gone = await startRedisServer();
    const errors: Error[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const node = track(await startServer({ authenticate: new SessionTable().authenticate, redisUrl: gone.url, onError: (error) => errors.push(error) }));
      await gone.stop();
      node.realtime.publisher.toUser('alice', 'ledes:run', run('lost', 'alice'));
      await waitFor(() => errors.some((e) => /max retries/i.test(e.message)), 30_000, 'the rejected publish reported to onError');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 40_000);

  it('closes at once when Redis went away and a reconnection attempt hangs (a port that accepts and never answers)', async () => {
    const gone = await startRedisServer();
    const node = await startServer({ authenticate: new SessionTable().authenticate, redisUrl: gone.url, onError: () => undefined });
    // The adapter's subscriber is connected: the node has joined Redis.
    await sleep(300);
    await gone.stop();
    // Whatever listens on Redis's port now accepts connections and never says a word.
    const port = Number(new URL(gone.url).port);
    const silent: Socket[] = [];
    const blackhole = createServer((socket) => void silent.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(port, '127.0.0.1', resolve));
    try {
      await sleep(1500); // a reconnection attempt is under way, 'connecting' to the silent port
      const closed = await Promise.race([node.close().then(() => 'closed'), sleep(5000).then(() => 'still closing')]);
      expect(closed).toBe('closed');
    } finally {
      for (const socket of silent) socket.destroy();
      blackhole.close();
    }
  }, 30_000);

  it('closes at once, without an unhandled rejection, when Redis never answered its first connection', async () => {
    const silent: Socket[] = [];
    const blackhole = createServer((socket) => void silent.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { port } = blackhole.address() as AddressInfo;
      const node = await startServer({ authenticate: new SessionTable().authenticate, redisUrl: `redis://127.0.0.1:${port}`, onError: () => undefined });
      await sleep(300);
      const closed = await Promise.race([node.close().then(() => 'closed'), sleep(5000).then(() => 'still closing')]);
      expect(closed).toBe('closed');
      await sleep(200);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      for (const socket of silent) socket.destroy();
      blackhole.close();
    }
  }, 30_000);

  it('WS-08 an event published by a worker process reaches the client on node 2 exactly once', async () => {
    const sessions = new SessionTable();
    const node1 = track(await startServer({ authenticate: sessions.authenticate, redisUrl: redis.url }));
    const node2 = track(await startServer({ authenticate: sessions.authenticate, redisUrl: redis.url }));
    const cookie = sessions.add('a', { userId: 'alice', isAdmin: false, sessionId: 's-a' });
    const onNode1 = track(await connect(node1.url, { cookie }));
    const onNode2 = track(await connect(node2.url, { cookie: sessions.add('b', { userId: 'bob', isAdmin: true, sessionId: 's-b' }) }));
    const alice = collect(onNode1);
    const bob = collect(onNode2);

    // Another process, another Redis connection: exactly how a BullMQ worker publishes.
    const worker = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/publish-from-worker.ts'), redis.url, 'bob'], { cwd: here, stdio: 'inherit' });
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
    await waitFor(() => bob.length >= 1, 5000, 'the worker event on node 2');
    await sleep(200);
    expect(bob.map((r) => r._id)).toEqual(['run-from-worker']);
    expect(alice).toEqual([]);

    // Same through an in-test publisher, and across nodes via the server publisher and disconnectSession.
    const publisher = createRedisPublisher(redis.url);
    publisher.toAdmins('ledes:run', run('admin-feed', 'alice'));
    node1.realtime.publisher.toUser('bob', 'ledes:run', run('from-node1', 'bob'));
    await waitFor(() => bob.length >= 3, 5000, 'events from node 1 and the publisher');
    await sleep(200);
    expect(bob.map((r) => r._id).sort()).toEqual(['admin-feed', 'from-node1', 'run-from-worker']);
    await publisher.close();

    const closed = disconnected(onNode2);
    node1.realtime.disconnectSession('s-b');
    await closed;
    expect(onNode1.connected).toBe(true);
  });
});
