// The realtime names (rooms, path): plain values, re-exported by `constants.ts`. The events' payload
// types are in `realtime-events.ts`, which imports the DTOs (and so, through them, the constants).

/** Rooms are joined server-side from the session, never from a client message. */
export const rooms = {
  user: (userId: string) => `user:${userId}`,
  admins: 'role:admin',
  /** Patent changes: per cabinet, per client code, and all of them (admin_test). */
  patentCabinet: (cabinetId: string) => `patents:cabinet:${cabinetId}`,
  patentCode: (code: string) => `patents:code:${code}`,
  patentsAll: 'patents:all',
} as const;

export const REALTIME_PATH = '/realtime';
