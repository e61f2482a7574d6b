import { eq } from 'drizzle-orm';
import type { InstructionSource, PatentRecordDto } from '@portal/contracts';
import { userCabinets, users } from '@portal/db';
import { patentRoomsFor, publishPatentsChanged } from '@portal/realtime';
import type { AppContext } from '../../context.ts';
import type { AuthState } from '../../domain/auth.ts';

/** The patent rooms of a socket, joined at handshake: its cabinets and client codes, and all changes for admin_test. */
export async function patentSocketRooms(ctx: Pick<AppContext, 'db'>, auth: Pick<AuthState, 'userId' | 'roles'>): Promise<string[]> {
  if (!auth.roles.some((role) => role === 'user_agent_annuites' || role === 'admin_test')) return [];
  const [user] = await ctx.db.select({ code: users.code }).from(users).where(eq(users.id, auth.userId));
  const cabinetRows = await ctx.db.select({ cabinetId: userCabinets.cabinetId }).from(userCabinets).where(eq(userCabinets.userId, auth.userId));
  return patentRoomsFor({ roles: auth.roles, cabinetIds: cabinetRows.map((r) => r.cabinetId), codes: user?.code ?? [] });
}

/** After a commit: `patents:changed` for these patents to their cabinets' and codes' rooms, admin_test and admins. */
export function announcePatents(ctx: AppContext, patents: ReadonlyArray<{ id: string; cabinetId: string; clientCode: string }>, source: InstructionSource): void {
  publishPatentsChanged(
    ctx.realtime,
    [...new Set(patents.map((p) => p.cabinetId))],
    [...new Set(patents.map((p) => p.clientCode))],
    patents.map((p) => p.id),
    source,
  );
}

/** The same from the records an answer carries. */
export function announceRecords(ctx: AppContext, records: ReadonlyArray<Pick<PatentRecordDto, '_id' | 'cabinet' | 'code_client'>>, source: InstructionSource): void {
  announcePatents(
    ctx,
    records.map((r) => ({ id: r._id, cabinetId: r.cabinet._id, clientCode: r.code_client })),
    source,
  );
}
