import { eq } from 'drizzle-orm';
import { SESSION_DAYS } from '@portal/contracts';
import { sessions } from '@portal/db';
import type { AppContext } from '../context.ts';
import type { IssuedToken } from '../domain/auth.ts';
import { newToken, sha256 } from './tokens.ts';

// The session rows: opened by a sign-in, revoked by a new sign-in or a logout. Their cookies are the
// HTTP layer's (`http/session-cookies.ts`).

const SESSION_MS = SESSION_DAYS * 24 * 60 * 60_000;

/** Creates a new session row; the caller has already ended any previous one. */
export async function openSession(ctx: AppContext, userId: string): Promise<IssuedToken> {
  const token = newToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await ctx.db.insert(sessions).values({ tokenHash: sha256(token), userId, createdAt: now, lastSeenAt: now, expiresAt });
  return { token, expiresAt };
}

/** Deletes the session of a presented token, if any, and closes its sockets. */
export async function revokeSession(ctx: AppContext, token: string | undefined): Promise<void> {
  if (!token) return;
  const sessionId = sha256(token);
  await ctx.db.delete(sessions).where(eq(sessions.tokenHash, sessionId));
  ctx.disconnectSession(sessionId);
}
