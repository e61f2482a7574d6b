import { EventEmitter } from 'node:events';
import { rooms, type ServerToClientEvents } from '@portal/contracts';
import type { Server } from 'socket.io';
import type { BusMessage, InProcessPublisher, RealtimeArgs, RealtimeEvent, RealtimePublisher } from './types.ts';

export const BUS_EVENT = 'publish';

/** Builds a publisher from a single "send to room" primitive. */
export function publisherFrom(send: (room: string | string[], event: RealtimeEvent, args: unknown[]) => void, close: () => Promise<void>): RealtimePublisher {
  return {
    toUser<E extends RealtimeEvent>(userId: string, event: E, ...args: RealtimeArgs<E>) {
      send(rooms.user(userId), event, args);
    },
    toAdmins<E extends RealtimeEvent>(event: E, ...args: RealtimeArgs<E>) {
      send(rooms.admins, event, args);
    },
    toRooms<E extends RealtimeEvent>(targets: readonly string[], event: E, ...args: RealtimeArgs<E>) {
      if (targets.length > 0) send([...new Set(targets)], event, args);
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
    (room, event, args) =>
      void bus.emit(BUS_EVENT, (typeof room === 'string' ? { room, event, args } : { room: room[0]!, alsoRooms: room.slice(1), event, args }) satisfies BusMessage),
    async () => void bus.removeAllListeners(),
  );
  return Object.assign(publisher, { bus });
}

/** Publisher for code running next to the socket server (e.g. the API itself); crosses nodes via the adapter. */
export function createServerPublisher(io: Server<Record<string, never>, ServerToClientEvents>): RealtimePublisher {
  return publisherFrom(
    (room, event, args) => void io.to(room).emit(event, ...(args as RealtimeArgs<typeof event>)),
    async () => {},
  );
}
