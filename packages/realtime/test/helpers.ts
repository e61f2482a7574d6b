import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REALTIME_PATH, type LedesRunDto, type ServerToClientEvents } from '@portal/contracts';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { attachRealtimeServer, type AttachedRealtimeServer, type RealtimeServerOptions, type SocketIdentity } from '../src/index.ts';

export const APP_ORIGIN = 'https://portal.example.com';

/** The API's session lookup, reduced to a table: cookie `sid=<token>` → identity. */
export class SessionTable {
  readonly sessions = new Map<string, SocketIdentity>();
  add(token: string, identity: SocketIdentity): string {
    this.sessions.set(token, identity);
    return `sid=${token}`;
  }
  revoke(token: string) {
    this.sessions.delete(token);
  }
  authenticate = async (cookieHeader: string | undefined): Promise<SocketIdentity | null> => {
    const token = /(?:^|;\s*)sid=([^;]+)/.exec(cookieHeader ?? '')?.[1];
    return (token && this.sessions.get(token)) || null;
  };
}

export interface TestServer {
  url: string;
  http: HttpServer;
  realtime: AttachedRealtimeServer;
  close(): Promise<void>;
}

export async function startServer(options: Omit<RealtimeServerOptions, 'allowedOrigins'> & { allowedOrigins?: string[] }): Promise<TestServer> {
  const http = createServer((_req, res) => res.writeHead(404).end());
  const realtime = await attachRealtimeServer(http, { allowedOrigins: [APP_ORIGIN], ...options });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, http, realtime, close: () => realtime.close() };
}

export type TestClient = ClientSocket<ServerToClientEvents, Record<string, (...args: unknown[]) => void>>;

export interface ConnectOptions {
  cookie?: string;
  origin?: string | null;
  transports?: Array<'websocket' | 'polling'>;
}

/** A real socket.io-client over HTTP; resolves on `connect`, rejects with the `connect_error`. */
export function connect(url: string, { cookie, origin = APP_ORIGIN, transports = ['websocket'] }: ConnectOptions = {}): Promise<TestClient> {
  const extraHeaders: Record<string, string> = {};
  if (cookie) extraHeaders['Cookie'] = cookie;
  if (origin) extraHeaders['Origin'] = origin;
  const socket: TestClient = connectClient(url, { path: REALTIME_PATH, transports, extraHeaders, reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

export function collect(socket: TestClient): LedesRunDto[] {
  const received: LedesRunDto[] = [];
  socket.on('ledes:run', (run) => received.push(run));
  return received;
}

export const run = (id: string, ownerId: string): LedesRunDto => ({
  _id: id,
  name: '20261121-invoice.txt',
  filename: 'invoice.txt',
  state: 'Done',
  accepted: true,
  lines_checked: 12,
  office: 'FR',
  type: 'patent',
  owner_id: ownerId,
  created: '2026-11-21T12:00:00.000Z',
  finished: '2026-11-21T12:00:01.000Z',
  delivered: false,
  treated: true,
  error_code: null,
});

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Resolves with the disconnect reason. */
export function disconnected(socket: TestClient): Promise<string> {
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}
