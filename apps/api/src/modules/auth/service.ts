import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  FIRST_CONNECTION_TOKEN_HOURS,
  RESET_TOKEN_MINUTES,
  type LoginBody,
  type MfaStep,
  type PasswordLinkPurpose,
  type PublicUser,
} from '@portal/contracts';
import { passwordTokens, sessions, users } from '@portal/db';
import { toLocale } from '@portal/i18n';
import type { AppContext } from '../../context.ts';
import type { IssuedToken, SignInClient } from '../../domain/auth.ts';
import { AppError } from '../../domain/errors.ts';
import { openSession, revokeSession } from '../../security/sessions.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { newToken, sha256 } from '../../security/tokens.ts';
import { enqueueCommitted } from '@portal/jobs';
import { recordMail } from '../mail/index.ts';
import { startChallenge, stepAfterPassword } from '../mfa/index.ts';
import { loadPublicUser } from '../users/index.ts';

const LINK_LIFETIME_MS = {
  reset: RESET_TOKEN_MINUTES * 60_000,
  first_connection: FIRST_CONNECTION_TOKEN_HOURS * 60 * 60_000,
} as const;

/**
 * The signed-in user and their new session, or the second-factor step the password leads to and its
 * challenge (no session yet). The HTTP layer puts the issued token in its cookie.
 */
export async function login(
  ctx: AppContext,
  client: SignInClient,
  body: LoginBody,
): Promise<{ user: PublicUser; session: IssuedToken } | { mfa: MfaStep; challenge: IssuedToken }> {
  const { ip } = client;
  const blockedFor = await ctx.limits.login.blockedFor(body.email, ip);
  if (blockedFor > 0) {
    client.log.warn({ event: 'login_locked', email: sha256(body.email) }, 'login refused: locked');
    throw new AppError('too_many_attempts', { retryAfterSeconds: blockedFor });
  }
  const [user] = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash, langue: users.langue, langueChosen: users.langueChosen })
    .from(users)
    .where(eq(users.email, body.email));
  // verifyPassword spends the same time when the account does not exist (AUTH-18).
  const valid = await verifyPassword(user?.passwordHash, body.password);
  if (!user || !valid) {
    await ctx.limits.login.recordFailure(body.email, ip);
    client.log.info({ event: 'login_failed', email: sha256(body.email) }, 'login failed');
    throw new AppError('login_failed');
  }
  // The language chosen on the login screen wins over the account's and is kept as the account's from now on,
  // as a choice: from then on it applies at login over the browser's (a default or an admin's pick never does).
  if (body.langue && (body.langue !== user.langue || !user.langueChosen)) {
    await ctx.db.update(users).set({ langue: body.langue, langueChosen: true }).where(eq(users.id, user.id));
  }
  // A second factor to give (or, for an admin, to enrol): no session yet, and the lockout pair is not
  // cleared until the code is right, so wrong codes and wrong passwords add up (decision 136).
  const mfa = await stepAfterPassword(ctx, user.id);
  if (mfa) {
    const challenge = await startChallenge(ctx, user.id, mfa);
    client.log.info({ event: 'login_second_factor', userId: user.id, step: mfa }, 'password accepted, second factor needed');
    return { mfa, challenge };
  }
  await ctx.limits.login.recordSuccess(body.email, ip);
  // A new session id at every login; the one presented before (if any) is ended (SESS-02).
  await revokeSession(ctx, client.sessionToken);
  const session = await openSession(ctx, user.id);
  client.log.info({ event: 'login_succeeded', userId: user.id }, 'login');
  return { user: (await loadPublicUser(ctx.db, user.id))!, session };
}

/** Issues a single-use link and records its mail in one transaction; returns the mail id to enqueue. */
async function issueLink(ctx: AppContext, user: { id: string; email: string; langue: 'en' | 'fr'; companyAgent: string }, purpose: 'reset' | 'first_connection') {
  const token = newToken();
  const now = ctx.clock.now();
  const link = `${ctx.config.http.publicUrl}/password_reset?id=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`;
  return ctx.db.transaction(async (tx) => {
    // Only the newest link works (HARD-03).
    await tx
      .update(passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordTokens.userId, user.id), isNull(passwordTokens.usedAt)));
    await tx.insert(passwordTokens).values({
      userId: user.id,
      tokenHash: sha256(token),
      purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[purpose]),
    });
    return recordMail(tx, {
      recipient: user.email,
      template: purpose === 'reset' ? 'reset_password' : 'first_connection',
      locale: toLocale(user.langue),
      params:
        purpose === 'reset'
          ? { link, minutes: String(RESET_TOKEN_MINUTES) }
          : { link, hours: String(FIRST_CONNECTION_TOKEN_HOURS), name: user.companyAgent },
    });
  });
}

const RESET_REQUESTS_PER_ACCOUNT = 3;
const RESET_REQUEST_WINDOW_MS = 15 * 60_000;

/**
 * Always answers the same way after the same work: the e-mail is looked up after the answer, off the
 * request path, so neither the answer nor its timing tells whether an account exists (AUTH-18).
 * Mail goes out only for a known account and at most three times per quarter of an hour, so the
 * endpoint neither enumerates accounts nor floods a mailbox (HARD-04, HARD-08).
 */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  // The same for every address: with the database down the caller gets a 503 now, not a mail never sent.
  await ctx.database.ping();
  ctx.deferred.run('password reset request', () => issueResetLink(ctx, email));
}

async function issueResetLink(ctx: AppContext, email: string): Promise<void> {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, langue: users.langue, companyAgent: users.companyAgent })
    .from(users)
    .where(eq(users.email, email));
  if (!user) return;
  const since = new Date(ctx.clock.now().getTime() - RESET_REQUEST_WINDOW_MS);
  const [recent] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(passwordTokens)
    .where(and(eq(passwordTokens.userId, user.id), eq(passwordTokens.purpose, 'reset'), gt(passwordTokens.createdAt, since)));
  if ((recent?.count ?? 0) >= RESET_REQUESTS_PER_ACCOUNT) return;
  const mailId = await issueLink(ctx, user, 'reset');
  await enqueueCommitted(ctx, 'mail', [{ mailId }]);
}

export async function sendFirstConnection(ctx: AppContext, email: string): Promise<void> {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, langue: users.langue, companyAgent: users.companyAgent })
    .from(users)
    .where(eq(users.email, email));
  if (!user) throw new AppError('not_found');
  const mailId = await issueLink(ctx, user, 'first_connection');
  await enqueueCommitted(ctx, 'mail', [{ mailId }]);
}

async function findUsableToken(ctx: AppContext, userId: string, token: string) {
  const [row] = await ctx.db
    .select()
    .from(passwordTokens)
    .where(
      and(
        eq(passwordTokens.tokenHash, sha256(token)),
        eq(passwordTokens.userId, userId),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, ctx.clock.now()),
      ),
    )
    .orderBy(desc(passwordTokens.createdAt))
    .limit(1);
  return row ?? null;
}

/** The kind of a link that still works (reset or first connection), or null. */
export async function usableLinkPurpose(ctx: AppContext, userId: string, token: string): Promise<PasswordLinkPurpose | null> {
  return (await findUsableToken(ctx, userId, token))?.purpose ?? null;
}

/** Sets the new password, spends the link and ends every session of the user (HARD-09, SESS-06). */
export async function resetPassword(ctx: AppContext, userId: string, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    // The guarded update is the check: two concurrent uses cannot both succeed.
    const spent = await tx
      .update(passwordTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordTokens.tokenHash, sha256(token)),
          eq(passwordTokens.userId, userId),
          isNull(passwordTokens.usedAt),
          gt(passwordTokens.expiresAt, now),
        ),
      )
      .returning({ id: passwordTokens.id });
    if (spent.length === 0) throw new AppError('link_expired');
    await tx.update(passwordTokens).set({ usedAt: now }).where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.tokenHash });
    for (const { id } of ended) ctx.disconnectSession(id);
  });
}
