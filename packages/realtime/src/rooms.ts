import { rooms } from '@portal/contracts';
import type { SocketIdentity } from './types.ts';

/** One room per session so logout can close exactly that session's sockets (WS-05). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** Rooms a socket joins, decided by the server from its identity only (WS-03/WS-04). */
export function roomsFor(identity: SocketIdentity): string[] {
  return [rooms.user(identity.userId), sessionRoom(identity.sessionId), ...(identity.isAdmin ? [rooms.admins] : []), ...(identity.rooms ?? [])];
}
