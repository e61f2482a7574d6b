import type { Server as HttpServer } from 'node:http';
import { REALTIME_PATH, type ServerToClientEvents } from '@portal/contracts';
import { Server, type Socket } from 'socket.io';
import { originGuard } from './origins.ts';
import { BUS_EVENT, createServerPublisher } from './publishers.ts';
import { roomsFor, sessionRoom } from './rooms.ts';
import type { RedisClients } from './redis.ts';
import type {
  BusMessage,
  ClientToServerEvents,
  InProcessPublisher,
  InterServerEvents,
  RealtimePublisher,
  RealtimeServer,
  SocketData,
  SocketIdentity,
} from './types.ts';

export type { RealtimeServer } from './types.ts';
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface RealtimeServerOptions {
  /** Exact origins of the web app, e.g. `https://portal.example.com` (WS-02). */
  allowedOrigins: string[];
  /** Default true: see `originGuard` for why a missing Origin is not a browser attack. */
  allowMissingOrigin?: boolean;
  /** Resolves the session cookie to an identity; null → `connect_error` "unauthorized" (WS-01). */
  authenticate(cookieHeader: string | undefined): Promise<SocketIdentity | null>;
  /** Several API nodes: share rooms through Redis pub/sub (@socket.io/redis-adapter). */
  redisUrl?: string;
  /** Embedded mode: relay this in-process publisher's events to the rooms. */
  inProcess?: InProcessPublisher;
  /** Largest accepted message; bigger ones close the connection (WS-10). Default 100 kB. */
  maxHttpBufferSize?: number;
  /**
   * Re-run `authenticate` with each socket's handshake cookie this often and disconnect sockets
   * whose session ended (expiry, disabling) even without an explicit `disconnectSession` (WS-05).
   * Default: off.
   */
  revalidateEveryMs?: number;
  /** Called for every client-emitted event, which is then dropped (for logging WS-04 attempts). */
  onIgnoredClientEvent?(identity: SocketIdentity, event: string): void;
  onError?(error: Error): void;
}

export interface AttachedRealtimeServer {
  io: RealtimeServer;
  /** Publishes from the API process itself (reaches other nodes through the adapter). */
  publisher: RealtimePublisher;
  /** Closes every socket of that session on every node (logout, password reset; WS-05). */
  disconnectSession(sessionId: string): void;
  /** Disconnects clients, closes Redis clients; socket.io also closes the HTTP server. */
  close(): Promise<void>;
}

export const UNAUTHORIZED = 'unauthorized';

/**
 * Socket.io on `REALTIME_PATH` for live job status. Sockets are server-to-client only: rooms are
 * joined from the authenticated session (user, admins, session) and never from client messages.
 */
export async function attachRealtimeServer(httpServer: HttpServer, opts: RealtimeServerOptions): Promise<AttachedRealtimeServer> {
  const onError = opts.onError ?? ((error: Error) => console.error('[realtime]', error.message));
  const io: RealtimeServer = new Server(httpServer, {
    path: REALTIME_PATH,
    serveClient: false,
    transports: ['websocket', 'polling'], // clients should try websocket first; polling stays as fallback
    maxHttpBufferSize: opts.maxHttpBufferSize ?? 1e5,
    allowRequest: originGuard(opts.allowedOrigins, opts.allowMissingOrigin ?? true),
    cors: { origin: opts.allowedOrigins, credentials: true }, // polling only; upgrades rely on allowRequest
  });

  // Loaded only with Redis: the embedded portal never loads ioredis and the adapter.
  const redisClients: RedisClients = opts.redisUrl ? (await import('./redis.ts')).attachRedisAdapter(io, opts.redisUrl, onError) : [];

  io.use((socket, next) => {
    opts.authenticate(socket.request.headers.cookie).then(
      (identity) => {
        if (!identity) return next(new Error(UNAUTHORIZED));
        socket.data.identity = identity;
        next();
      },
      (error: unknown) => {
        onError(error as Error);
        next(new Error(UNAUTHORIZED));
      },
    );
  });

  io.on('connection', (socket: RealtimeSocket) => {
    const { identity } = socket.data;
    // A socket that could not join its rooms would receive nothing: drop it so the client reconnects.
    Promise.resolve(socket.join(roomsFor(identity))).catch((error: unknown) => {
      onError(error as Error);
      socket.disconnect(true);
    });
    // Drop every client packet (join/subscribe/fake events): not calling next() discards it.
    socket.use(([event]) => opts.onIgnoredClientEvent?.(identity, String(event)));
  });

  const relay = (message: BusMessage) => {
    io.to(message.alsoRooms ? [message.room, ...message.alsoRooms] : message.room).emit(message.event, ...(message.args as Parameters<ServerToClientEvents[typeof message.event]>));
  };
  opts.inProcess?.bus.on(BUS_EVENT, relay);

  const revalidation = opts.revalidateEveryMs
    ? setInterval(() => {
        revalidateSockets(io, opts.authenticate, onError).catch(onError);
      }, opts.revalidateEveryMs)
    : undefined;
  revalidation?.unref();

  return {
    io,
    publisher: createServerPublisher(io),
    disconnectSession(sessionId) {
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    async close() {
      clearInterval(revalidation);
      opts.inProcess?.bus.off(BUS_EVENT, relay);
      // A client without a connection would hold QUIT (and the adapter's UNSUBSCRIBE) until Redis
      // returns, whatever its status ('connecting', 'connect', 'reconnecting', 'close'): drop it. The
      // adapter's commands on it then fail, guarded (below).
      const [connected, offline] = partition(redisClients, (client) => client.status === 'ready');
      for (const client of offline) client.disconnect();
      await io.close().catch(onError);
      await Promise.all(connected.map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

function partition<T>(items: T[], predicate: (item: T) => boolean): [T[], T[]] {
  return [items.filter(predicate), items.filter((item) => !predicate(item))];
}

async function revalidateSockets(io: RealtimeServer, authenticate: RealtimeServerOptions['authenticate'], onError: (e: Error) => void) {
  for (const socket of io.of('/').sockets.values()) {
    try {
      const identity = await authenticate(socket.request.headers.cookie);
      if (!identity || identity.sessionId !== socket.data.identity.sessionId) socket.disconnect(true);
    } catch (error) {
      onError(error as Error); // keep the socket: a DB hiccup must not drop every client at once
    }
  }
}
