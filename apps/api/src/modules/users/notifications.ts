import { eq } from 'drizzle-orm';
import type { NotificationSettings } from '@portal/contracts';
import { users } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';

const columns = { ledes_refused: users.notifyLedesRefused, ledes_delivered: users.notifyLedesDelivered, ledes_digest: users.notifyLedesDigest };

/** The mails a user opted in to (issue 31 §3). */
export async function notificationSettings(ctx: AppContext, userId: string): Promise<NotificationSettings> {
  const [row] = await ctx.db.select(columns).from(users).where(eq(users.id, userId));
  if (!row) throw new AppError('not_found');
  return row;
}

/** Changes the settings given, keeps the others; answers them all. */
export async function updateNotificationSettings(ctx: AppContext, userId: string, change: Partial<NotificationSettings>, now: Date): Promise<NotificationSettings> {
  const [row] = await ctx.db
    .update(users)
    .set({
      ...(change.ledes_refused === undefined ? {} : { notifyLedesRefused: change.ledes_refused }),
      ...(change.ledes_delivered === undefined ? {} : { notifyLedesDelivered: change.ledes_delivered }),
      ...(change.ledes_digest === undefined ? {} : { notifyLedesDigest: change.ledes_digest }),
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning(columns);
  if (!row) throw new AppError('not_found');
  return row;
}
