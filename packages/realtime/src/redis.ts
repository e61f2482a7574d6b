/**
 * Socket.io across several API nodes and workers, through Redis: the adapter for the API's socket
 * server and the emitter for workers. A module (and a subpath, `@portal/realtime/redis`) of its own so
 * the embedded portal, which has no Redis, never loads ioredis, the adapter or the emitter.
 */
import type { ServerToClientEvents } from '@portal/contracts';
import { createAdapter } from '@socket.io/redis-adapter';
import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import { publisherFrom } from './publishers.ts';
import type { RealtimeArgs, RealtimePublisher, RealtimeServer } from './types.ts';

/** The Redis clients behind a socket server's adapter, for its close(). */
export type RedisClients = Redis[];

/**
 * Shares `io`'s rooms with the other nodes through Redis pub/sub (@socket.io/redis-adapter).
 * Events are fire-and-forget (the database is the truth, clients refetch): during an outage a
 * PUBLISH fails after one retry instead of queueing, and the subscriber waits for Redis to return.
 */
export function attachRedisAdapter(io: RealtimeServer, redisUrl: string, onError: (error: Error) => void): RedisClients {
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const sub = new Redis(redisUrl, { maxRetriesPerRequest: null });
  for (const client of [pub, sub]) client.on('error', onError);
  // Closed while Redis is away, the dropped subscriber fails the adapter's (UN)SUBSCRIBEs: nothing to report.
  io.adapter(createAdapter(withGuarded(pub, ['publish'], onError), withGuarded(sub, ['psubscribe', 'subscribe', 'punsubscribe', 'unsubscribe'], () => undefined)));
  return [pub, sub];
}

/**
 * PRODUCTION workers: publish through Redis to every API node running the Redis adapter
 * (@socket.io/redis-emitter, same default `socket.io` key prefix). Fire-and-forget: a lost event is
 * repaired by the client's refetch on reconnect; the DB stays the truth.
 */
export function createRedisPublisher(redisUrl: string, opts: { onError?: (error: Error) => void } = {}): RealtimePublisher {
  const onError = opts.onError ?? ((error: Error) => console.error('[realtime] redis error:', error.message));
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  client.on('error', onError);
  // The emitter ignores the promise PUBLISH returns; during an outage that rejection would be
  // unhandled and crash the worker. It only ever calls `publish`, so hand it a guarded one.
  const guarded = { publish: (channel: string, message: string | Buffer) => client.publish(channel, message).catch(onError) };
  const emitter = new Emitter<ServerToClientEvents>(guarded);
  return publisherFrom(
    (room, event, args) => void emitter.to(room).emit(event, ...(args as RealtimeArgs<typeof event>)),
    async () => {
      await client.quit().catch(() => client.disconnect());
    },
  );
}

/**
 * The Redis adapter ignores the promises some commands return: PUBLISH on every emit and
 * disconnectSockets, (UN)SUBSCRIBE when it starts and closes. While Redis is down each one would be an unhandled
 * rejection. Hand it a client whose `methods` report their failure to `onError` instead; everything
 * else goes to the real client.
 */
function withGuarded(client: Redis, methods: ReadonlyArray<'publish' | 'psubscribe' | 'subscribe' | 'punsubscribe' | 'unsubscribe'>, onError: (error: Error) => void): Redis {
  const guarded = new Map<PropertyKey, (...args: unknown[]) => Promise<unknown>>(
    methods.map((name) => [
      name,
      (...args: unknown[]) =>
        (client[name] as (...a: unknown[]) => Promise<unknown>).apply(client, args).catch((error: unknown) => {
          onError(error as Error);
          return 0;
        }),
    ]),
  );
  return new Proxy(client, {
    get(target, property) {
      const replacement = guarded.get(property);
      if (replacement) return replacement;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
