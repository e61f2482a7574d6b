import { rooms, type InstructionSource } from '@portal/contracts';
import type { RealtimePublisher } from './types.ts';

/**
 * The patent rooms a socket joins at handshake, from what the server knows of the user (never from a
 * client message): one per cabinet and per client code it holds, and every patent change for
 * admin_test (it searches any client code). Admins get them through `rooms.admins`.
 */
export function patentRoomsFor(user: { roles: readonly string[]; cabinetIds: readonly string[]; codes: readonly string[] }): string[] {
  return [...user.cabinetIds.map(rooms.patentCabinet), ...user.codes.map(rooms.patentCode), ...(user.roles.includes('admin_test') ? [rooms.patentsAll] : [])];
}

/**
 * `patents:changed` to the rooms of the cabinets and client codes of the changed patents, to
 * admin_test and to the admins: only the ids and the source travel, clients refetch what they show.
 * For the API and the jobs alike (imports, exports, resets).
 */
export function publishPatentsChanged(publisher: RealtimePublisher, cabinetIds: readonly string[], codes: readonly string[], ids: readonly string[], source: InstructionSource): void {
  if (ids.length === 0) return;
  const targets = [...cabinetIds.map(rooms.patentCabinet), ...codes.map(rooms.patentCode), rooms.patentsAll, rooms.admins];
  publisher.toRooms(targets, 'patents:changed', { ids: [...new Set(ids)], source });
}
