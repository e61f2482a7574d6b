import { EventEmitter } from 'node:events';
import { rooms, type ServerToClientEvents } from '@portal/contracts';
import { Emitter } from '@socket.io/redis-emitter';
import { Redis } from 'ioredis';
import type { Server } from 'socket.io';
import type { BusMessage, InProcessPublisher, RealtimeArgs, RealtimeEvent, RealtimePublisher } from './types.ts';

export const BUS_EVENT = 'publish';

/** Builds a publisher from a single "send to room" primitive. */
function publisherFrom(send: (room: string, event: RealtimeEvent, args: unknown[]) => void, close: () => Promise<void>): RealtimePublisher {
  return {
    toUser<E extends RealtimeEvent>(userId: string, event: E, ...args: RealtimeArgs<E>) {
      send(rooms.user(userId), event, args);
    },
    toAdmins<E extends RealtimeEvent>(event: E, ...args: RealtimeArgs<E>) {
      send(rooms.admins, event, args);
    },
    close,
  };
}

/**
 * EMBEDDED mode: processors and the socket server share one process; the server started with
 * `attachRealtimeServer({ inProcess })` relays `bus` messages to its rooms.
 */
export function createInProcessPublisher(): InProcessPublisher {
  const bus = new EventEmitter();
  const publisher = publisherFrom(
    (room, event, args) => void bus.emit(BUS_EVENT, { room, event, args } satisfies BusMessage),
    async () => void bus.removeAllListeners(),
  );
  return Object.assign(publisher, { bus });
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

/** Publisher for code running next to the socket server (e.g. the API itself); crosses nodes via the adapter. */
export function createServerPublisher(io: Server<Record<string, never>, ServerToClientEvents>): RealtimePublisher {
  return publisherFrom(
    (room, event, args) => void io.to(room).emit(event, ...(args as RealtimeArgs<typeof event>)),
    async () => {},
  );
}
