import type { EventEmitter } from 'node:events';
import type { ServerToClientEvents } from '@portal/contracts';
import type { Server } from 'socket.io';

export type RealtimeEvent = keyof ServerToClientEvents;
export type RealtimeArgs<E extends RealtimeEvent> = Parameters<ServerToClientEvents[E]>;

/** Sends typed events to rooms; each driver reaches every socket server of the deployment. */
export interface RealtimePublisher {
  toUser<E extends RealtimeEvent>(userId: string, event: E, ...args: RealtimeArgs<E>): void;
  toAdmins<E extends RealtimeEvent>(event: E, ...args: RealtimeArgs<E>): void;
  /** One emit to several rooms: a socket in more than one of them receives it once. */
  toRooms<E extends RealtimeEvent>(rooms: readonly string[], event: E, ...args: RealtimeArgs<E>): void;
  close(): Promise<void>;
}

/** What travels on the in-process bus (embedded mode). */
export interface BusMessage {
  room: string;
  /** Further rooms of the same emit (`toRooms`): a socket in several of them receives it once. */
  alsoRooms?: string[];
  event: RealtimeEvent;
  args: unknown[];
}

export type InProcessPublisher = RealtimePublisher & { bus: EventEmitter };

/** Who a socket belongs to, resolved from the session cookie at handshake. */
export interface SocketIdentity {
  userId: string;
  isAdmin: boolean;
  /**
   * Identifies the session for `disconnectSession` (logout, password reset, disabling a user).
   * Use the session row id, never the cookie's secret token: room names travel through Redis.
   */
  sessionId: string;
  /** Further rooms the server decided at handshake from the user's rights (e.g. the patent rooms of its cabinets and codes). */
  rooms?: string[];
}

/** Clients send nothing the server listens to: every client → server event is ignored (WS-04). */
export type ClientToServerEvents = Record<string, never>;
export type InterServerEvents = Record<string, never>;
export interface SocketData {
  identity: SocketIdentity;
}
/** The socket server (here, not in server.ts, so the Redis adapter's module does not import the server's). */
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
