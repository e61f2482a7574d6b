import { useEffect, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import type { ServerToClientEvents } from '@portal/contracts';
import { REALTIME_PATH } from '@portal/contracts/constants';

/**
 * The socket.io client of the portal's live updates (server → client only). One socket per tab,
 * opened while at least one screen uses it (`useRealtime`) and closed a little after the last one
 * leaves. The server joins the socket to its rooms from the session cookie; the client sends nothing.
 * socket.io-client itself is a separate chunk, fetched when the first screen listens: screens that
 * never listen (login, home, forms) never load it.
 *
 * Status: 'connecting' at first, 'connected', then 'interrupted' after a failed connection or a
 * disconnection (screens then show a notice and poll), back to 'connected' on reconnection.
 */
export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'interrupted';

type EventName = keyof ServerToClientEvents;
type ClientSocket = Socket<ServerToClientEvents, Record<string, never>>;

/** A first connection still pending after this long counts as interrupted (screens start polling). */
const CONNECT_GRACE_MS = 4000;
/** After the last user leaves, the socket stays open this long (navigating between live screens). */
const RELEASE_DELAY_MS = 5000;
/** Retries after a refused handshake or a server-side disconnection (socket.io does not retry those). */
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30_000;

let socket: ClientSocket | null = null;
/** socket.io-client's chunk is being fetched (the first time a screen listens). */
let loadingClient = false;
let status: RealtimeStatus = 'idle';
let users = 0;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;
let graceTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = RETRY_MIN_MS;

const statusListeners = new Set<() => void>();
const connectListeners = new Set<() => void>();
const eventListeners = new Map<EventName, Set<(payload: never) => void>>();

function setStatus(next: RealtimeStatus): void {
  if (next === status) return;
  status = next;
  for (const l of statusListeners) l();
}

function scheduleRetry(): void {
  if (retryTimer || !socket || users === 0) return;
  const delay = retryDelay;
  retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    if (socket && !socket.connected && users > 0) socket.connect();
  }, delay);
}

function open(): void {
  if (socket) return;
  if (status !== 'connecting') {
    setStatus('connecting');
    clearTimeout(graceTimer);
    graceTimer = setTimeout(() => {
      if (status === 'connecting') setStatus('interrupted');
    }, CONNECT_GRACE_MS);
  }
  if (loadingClient) return;
  loadingClient = true;
  import('socket.io-client').then(
    ({ io }) => {
      loadingClient = false;
      // Whoever wants the socket now (the screens may have left and come back meanwhile).
      if (users > 0 && !socket) connect(io);
    },
    () => {
      // The chunk did not load (offline, new deployment): screens poll; try again later.
      loadingClient = false;
      if (users === 0) return;
      clearTimeout(graceTimer);
      setStatus('interrupted');
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (users > 0) open();
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    },
  );
}

function connect(io: typeof import('socket.io-client').io): void {
  const s: ClientSocket = io(window.location.origin, {
    path: REALTIME_PATH,
    transports: ['websocket', 'polling'],
    withCredentials: true,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 10_000,
  });
  socket = s;

  s.on('connect', () => {
    clearTimeout(graceTimer);
    retryDelay = RETRY_MIN_MS;
    setStatus('connected');
    for (const l of connectListeners) l();
  });
  s.on('disconnect', () => {
    setStatus('interrupted');
    // 'io server disconnect' (session ended, server restart): socket.io leaves it to us.
    if (!s.active) scheduleRetry();
  });
  s.on('connect_error', () => {
    clearTimeout(graceTimer);
    setStatus('interrupted');
    // A refused handshake (e.g. the session is not valid yet) is not retried by socket.io itself.
    if (!s.active) scheduleRetry();
  });
  for (const [event, handlers] of eventListeners) {
    for (const h of handlers) s.on(event, h as never);
  }
}

function close(): void {
  clearTimeout(graceTimer);
  clearTimeout(retryTimer);
  retryTimer = undefined;
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  setStatus('idle');
}

/** Takes a share of the socket; the returned function gives it back. */
function acquireRealtime(): () => void {
  users++;
  clearTimeout(releaseTimer);
  open();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users = Math.max(0, users - 1);
    if (users === 0) {
      clearTimeout(releaseTimer);
      releaseTimer = setTimeout(() => {
        if (users === 0) close();
      }, RELEASE_DELAY_MS);
    }
  };
}

/** Listens to a server event on the shared socket (also across reconnections); returns the unsubscribe. */
export function onRealtime<E extends EventName>(event: E, handler: ServerToClientEvents[E]): () => void {
  const set = eventListeners.get(event) ?? new Set();
  set.add(handler);
  eventListeners.set(event, set);
  socket?.on(event, handler as never);
  return () => {
    set.delete(handler);
    socket?.off(event, handler as never);
  };
}

/** Called on each (re)connection, when missed events must be caught up by refetching. */
export function onRealtimeConnect(handler: () => void): () => void {
  connectListeners.add(handler);
  return () => connectListeners.delete(handler);
}

function realtimeStatus(): RealtimeStatus {
  return status;
}

function subscribeStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** Keeps the socket open while the calling screen is mounted and returns the live status. */
export function useRealtime(enabled = true): RealtimeStatus {
  useEffect(() => (enabled ? acquireRealtime() : undefined), [enabled]);
  return useSyncExternalStore(subscribeStatus, realtimeStatus, () => 'idle' as const);
}
