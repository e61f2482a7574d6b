import type { Request, RequestHandler, Response } from 'express';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { RoleSlug } from '@portal/contracts';
import { keepPreparedPlan, roles, sessions, userMfa, userRoles, users, type Database } from '@portal/db';
import type { AppContext } from '../context.ts';
import type { AuthState } from '../domain/auth.ts';
import { revokeSession } from '../security/sessions.ts';
import { sha256 } from '../security/tokens.ts';
import { clearSessionCookie, readSessionToken } from './session-cookies.ts';

export { readSessionToken } from './session-cookies.ts';

export type { AuthState } from '../domain/auth.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth: AuthState | null;
    }
  }
}

/** Sliding last-seen updates are throttled: one write per session per five minutes at most... */
const TOUCH_INTERVAL_MS = 5 * 60_000;
/** ...and per minute for admin sessions, whose idle timeout is measured from it (to the minute). */
const ADMIN_TOUCH_INTERVAL_MS = 60_000;

/** Resolves a session cookie to the user and their current roles; roles are read fresh every time (AC-11). */
export async function resolveSession(ctx: AppContext, token: string | undefined): Promise<AuthState | null> {
  if (!token) return null;
  const sessionId = sha256(token);
  const now = ctx.clock.now();
  const rows = await sessionLookup(ctx.db).execute({ tokenHash: sessionId, now: now.toISOString() });
  const first = rows[0];
  if (!first) return null;
  const roleSlugs = rows.map((r) => r.slug).filter((s): s is RoleSlug => s !== null);
  const isAdmin = roleSlugs.includes('admin');
  if (isAdmin && (adminSessionOver(ctx, first, now) || lacksSecondFactor(ctx, first))) {
    await ctx.db.delete(sessions).where(eq(sessions.tokenHash, sessionId));
    ctx.disconnectSession(sessionId);
    return null;
  }
  if (now.getTime() - first.lastSeenAt.getTime() > (isAdmin ? ADMIN_TOUCH_INTERVAL_MS : TOUCH_INTERVAL_MS)) {
    await ctx.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, sessionId));
  }
  return {
    sessionId,
    userId: first.userId,
    email: first.email,
    langue: first.langue,
    roles: roleSlugs,
    isAdmin,
  };
}

/**
 * The session lookup of every request, prepared once per database handle: PostgreSQL plans the
 * five-table join once per connection instead of on each request, and the SQL is built once.
 */
function sessionLookup(db: Database) {
  let statement = sessionLookups.get(db);
  if (!statement) sessionLookups.set(db, (statement = prepareSessionLookup(db)));
  return statement;
}

function prepareSessionLookup(db: Database) {
  const statement = db
    .select({
      userId: users.id,
      email: users.email,
      langue: users.langue,
      slug: roles.slug,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      mfaConfirmedAt: userMfa.confirmedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userMfa, eq(userMfa.userId, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`)))
    .prepare('session_lookup');
  return keepPreparedPlan(db, statement, 'session_lookup');
}

const sessionLookups = new WeakMap<Database, ReturnType<typeof prepareSessionLookup>>();

/**
 * Admin sessions end after an idle period and at an absolute age (SESS-05; 30 min and 12 h by
 * default). Roles are read fresh, so a user made admin mid-session falls under the rule at once.
 */
function adminSessionOver(ctx: AppContext, session: { createdAt: Date; lastSeenAt: Date }, now: Date): boolean {
  const { idleMs, maxMs } = ctx.config.security.adminSession;
  return now.getTime() - session.lastSeenAt.getTime() > idleMs || now.getTime() - session.createdAt.getTime() > maxMs;
}

/**
 * AUTH-19: while admins must use a second factor, an admin session must have been opened after the
 * factor was confirmed. A password-only session (a user made admin mid-session, a session older than
 * the enrolment) ends, and the next login asks for the code or the enrolment (decision 136).
 */
function lacksSecondFactor(ctx: AppContext, session: { createdAt: Date; mfaConfirmedAt: Date | null }): boolean {
  if (!ctx.config.mfa.requiredForAdmins) return false;
  return session.mfaConfirmedAt === null || session.createdAt.getTime() < session.mfaConfirmedAt.getTime();
}

export function sessionMiddleware(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    req.auth = await resolveSession(ctx, readSessionToken(ctx, req.get('cookie')));
    next();
  };
}

/** Logout: the session row goes, and so does the cookie. */
export async function endSession(ctx: AppContext, req: Request, res: Response): Promise<void> {
  await revokeSession(ctx, readSessionToken(ctx, req.get('cookie')));
  clearSessionCookie(ctx, res);
}
