import type { RunState } from './jobs.ts';
import type { LedesRunDto } from './ledes.ts';

/** Rooms are joined server-side from the session, never from a client message. */
export const rooms = {
  user: (userId: string) => `user:${userId}`,
  admins: 'role:admin',
} as const;

export const REALTIME_PATH = '/realtime';

/** Server → client events; each carries the full new state so clients upsert idempotently. */
export interface ServerToClientEvents {
  'ledes:run': (run: LedesRunDto) => void;
  'annuities:file:updated': (file: { _id: string; is_done: RunState }) => void;
}
