import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import {
  MFA_CHALLENGE_MAX_FAILURES,
  MFA_CHALLENGE_MINUTES,
  type MfaEnrolment,
  type MfaStep,
  type PublicUser,
} from '@portal/contracts';
import { mfaChallenges, mfaRecoveryCodes, roles, securityEvents, sessions, userMfa, userRoles, users, type Database } from '@portal/db';
import type { AppContext } from '../../context.ts';
import type { IssuedToken, SignInClient } from '../../domain/auth.ts';
import { AppError } from '../../domain/errors.ts';
import { openSession, revokeSession } from '../../security/sessions.ts';
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrDataUrl,
} from '../../security/mfa.ts';
import { newToken, sha256 } from '../../security/tokens.ts';
import { loadPublicUser } from '../users/index.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Db = Database | Tx;

const CHALLENGE_MS = MFA_CHALLENGE_MINUTES * 60_000;

/** What the caller of a step needs for rate and logs (not the tokens of a sign-in). */
type Caller = Pick<SignInClient, 'ip' | 'log'>;

/** A finished sign-in: the user, and the new session whose token the HTTP layer puts in the cookie (the challenge's is cleared). */
export interface SignedIn {
  user: PublicUser;
  session: IssuedToken;
}

async function isAdmin(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ slug: roles.slug })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), eq(roles.slug, 'admin')));
  return rows.length > 0;
}

async function confirmedFactor(db: Db, userId: string) {
  const [row] = await db.select().from(userMfa).where(and(eq(userMfa.userId, userId), isNotNull(userMfa.confirmedAt)));
  return row ?? null;
}

/** What a correct password leads to: a code (a confirmed factor), an enrolment (an admin without one, when required), or the session. */
export async function stepAfterPassword(ctx: AppContext, userId: string): Promise<MfaStep | null> {
  if (await confirmedFactor(ctx.db, userId)) return 'verify';
  if (ctx.config.mfa.requiredForAdmins && (await isAdmin(ctx.db, userId))) return 'enrol';
  return null;
}

/** Opens the step between the password and the session: one pending challenge per user, its token for a cookie, its hash in the row. */
export async function startChallenge(ctx: AppContext, userId: string, purpose: MfaStep): Promise<IssuedToken> {
  const token = newToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CHALLENGE_MS);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
    await tx.insert(mfaChallenges).values({ tokenHash: sha256(token), userId, purpose, expiresAt, createdAt: now });
  });
  return { token, expiresAt };
}

interface Challenge {
  tokenHash: string;
  userId: string;
  email: string;
  purpose: MfaStep;
}

/** The caller's pending challenge; missing, unknown, expired or of another step: 401 mfa_challenge_expired. */
async function readChallenge(ctx: AppContext, token: string | undefined, purpose?: MfaStep): Promise<Challenge> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AppError('mfa_challenge_expired');
  const [row] = await ctx.db
    .select({ tokenHash: mfaChallenges.tokenHash, userId: mfaChallenges.userId, purpose: mfaChallenges.purpose, email: users.email })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .where(and(eq(mfaChallenges.tokenHash, sha256(token)), gt(mfaChallenges.expiresAt, ctx.clock.now())));
  if (!row || (purpose && row.purpose !== purpose)) throw new AppError('mfa_challenge_expired');
  return row;
}

async function refuseWhileLocked(ctx: AppContext, caller: Caller, email: string): Promise<void> {
  const blockedFor = await ctx.limits.login.blockedFor(email, caller.ip);
  if (blockedFor > 0) {
    caller.log.warn({ event: 'login_locked', email: sha256(email) }, 'second factor refused: locked');
    throw new AppError('too_many_attempts', { retryAfterSeconds: blockedFor });
  }
}

/**
 * A wrong code counts in the login lockout like a wrong password, and in the challenge's own budget:
 * past it the challenge is deleted and the sign-in starts again from the password.
 */
async function refuseCode(ctx: AppContext, caller: Caller, challenge: Challenge, code: MfaRefusal = 'mfa_code_invalid'): Promise<never> {
  await ctx.limits.login.recordFailure(challenge.email, caller.ip);
  const [row] = await ctx.db
    .update(mfaChallenges)
    .set({ failedAttempts: sql`${mfaChallenges.failedAttempts} + 1` })
    .where(eq(mfaChallenges.tokenHash, challenge.tokenHash))
    .returning({ failedAttempts: mfaChallenges.failedAttempts });
  if (row && row.failedAttempts >= MFA_CHALLENGE_MAX_FAILURES) await ctx.db.delete(mfaChallenges).where(eq(mfaChallenges.tokenHash, challenge.tokenHash));
  caller.log.info({ event: 'mfa_failed', userId: challenge.userId, code }, 'second factor refused');
  throw new AppError(code);
}

/** Why a code is refused: wrong, already used in its step (decision 155), or wrong while enrolling. */
type MfaRefusal = 'mfa_code_invalid' | 'mfa_code_reused' | 'mfa_enrol_code_invalid';

/**
 * Checks a code against a confirmed factor: a TOTP code is accepted once (its step must be later than
 * the last accepted one: the guarded update is the check, so two concurrent uses cannot both pass), a
 * recovery code is spent and its use recorded.
 */
async function acceptCode(ctx: AppContext, userId: string, code: string): Promise<'accepted' | MfaRefusal> {
  const factor = await confirmedFactor(ctx.db, userId);
  if (!factor) return 'mfa_code_invalid';
  const now = ctx.clock.now();
  if (/^\d{6}$/.test(code)) {
    const step = matchTotp(decryptSecret(ctx.mfaKeys, userId, factor.secretEncrypted), code, now);
    if (step === null) return 'mfa_code_invalid';
    const spent = await ctx.db
      .update(userMfa)
      .set({ lastUsedStep: step })
      .where(and(eq(userMfa.userId, userId), or(isNull(userMfa.lastUsedStep), lt(userMfa.lastUsedStep, step))))
      .returning({ userId: userMfa.userId });
    // A right code whose step was already taken: the phone's clock is fine, the code was simply used.
    return spent.length > 0 ? 'accepted' : 'mfa_code_reused';
  }
  if (!looksLikeRecoveryCode(code)) return 'mfa_code_invalid';
  return ctx.db.transaction(async (tx) => {
    const used = await tx
      .update(mfaRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(ctx.mfaKeys, code)), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ id: mfaRecoveryCodes.id });
    if (used.length === 0) return 'mfa_code_invalid' as const;
    await tx.insert(securityEvents).values({ kind: 'mfa_recovery_code_used', actorId: userId, targetId: userId, createdAt: now });
    return 'accepted' as const;
  });
}

/** The end of every sign-in: the lockout pair is cleared, the challenge goes (the caller clears its cookie), a new session starts. */
async function finishSignIn(ctx: AppContext, client: SignInClient, challenge: Challenge): Promise<SignedIn> {
  await ctx.db.delete(mfaChallenges).where(eq(mfaChallenges.userId, challenge.userId));
  await ctx.limits.login.recordSuccess(challenge.email, client.ip);
  await revokeSession(ctx, client.sessionToken);
  const session = await openSession(ctx, challenge.userId);
  client.log.info({ event: 'login_succeeded', userId: challenge.userId, mfa: true }, 'login');
  return { user: (await loadPublicUser(ctx.db, challenge.userId))!, session };
}

/** The pending step, with what the authenticator app needs while an enrolment waits for its first code. */
export async function describeChallenge(ctx: AppContext, challengeToken: string | undefined): Promise<{ purpose: MfaStep; enrolment: MfaEnrolment | null }> {
  const challenge = await readChallenge(ctx, challengeToken);
  if (challenge.purpose === 'verify') return { purpose: 'verify', enrolment: null };
  if (await confirmedFactor(ctx.db, challenge.userId)) return { purpose: 'enrol', enrolment: null };
  return { purpose: 'enrol', enrolment: await pendingEnrolment(ctx, challenge.userId, challenge.email, false) };
}

/** The unconfirmed secret of a user (kept, so a reload shows the same QR code), or a new one; `fresh` always draws a new one. */
async function pendingEnrolment(ctx: AppContext, userId: string, email: string, fresh: boolean): Promise<MfaEnrolment> {
  const [existing] = await ctx.db.select().from(userMfa).where(eq(userMfa.userId, userId));
  if (existing?.confirmedAt) throw new AppError('mfa_already_enabled');
  let secret: string;
  if (existing && !fresh) {
    secret = decryptSecret(ctx.mfaKeys, userId, existing.secretEncrypted);
  } else {
    secret = newTotpSecret();
    const secretEncrypted = encryptSecret(ctx.mfaKeys, userId, secret);
    await ctx.db
      .insert(userMfa)
      .values({ userId, secretEncrypted, createdAt: ctx.clock.now() })
      .onConflictDoUpdate({ target: userMfa.userId, set: { secretEncrypted, lastUsedStep: null }, setWhere: isNull(userMfa.confirmedAt) });
  }
  const uri = otpauthUri(secret, email);
  return { secret, otpauth_uri: uri, qr: await qrDataUrl(uri) };
}

/**
 * Confirms a pending enrolment with its first code and issues ten recovery codes (returned once, kept
 * hashed); null when the code is wrong. A second confirmation cannot succeed: the update is guarded.
 */
async function confirmEnrolment(ctx: AppContext, userId: string, code: string): Promise<string[] | null> {
  const [pending] = await ctx.db.select().from(userMfa).where(eq(userMfa.userId, userId));
  if (!pending) throw new AppError('mfa_not_enabled');
  if (pending.confirmedAt) throw new AppError('mfa_already_enabled');
  const now = ctx.clock.now();
  const step = matchTotp(decryptSecret(ctx.mfaKeys, userId, pending.secretEncrypted), code, now);
  if (step === null) return null;
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    const confirmed = await tx
      .update(userMfa)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(and(eq(userMfa.userId, userId), isNull(userMfa.confirmedAt), eq(userMfa.secretEncrypted, pending.secretEncrypted)))
      .returning({ userId: userMfa.userId });
    if (confirmed.length === 0) throw new AppError('mfa_already_enabled');
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await tx.insert(mfaRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(ctx.mfaKeys, c), createdAt: now })));
    await tx.insert(securityEvents).values({ kind: 'mfa_enrolled', actorId: userId, targetId: userId, createdAt: now });
  });
  return codes;
}

/** POST /auth/mfa/verify: the code (or a recovery code) of a sign-in; the session starts when it is right. */
export async function verifySignIn(ctx: AppContext, client: SignInClient, code: string): Promise<SignedIn> {
  const challenge = await readChallenge(ctx, client.challengeToken, 'verify');
  await refuseWhileLocked(ctx, client, challenge.email);
  const outcome = await acceptCode(ctx, challenge.userId, code);
  if (outcome !== 'accepted') return refuseCode(ctx, client, challenge, outcome);
  return finishSignIn(ctx, client, challenge);
}

/** POST /auth/mfa/enrol: the first code of an admin's forced enrolment; answers the recovery codes, the session waits for their acknowledgement. */
export async function confirmSignInEnrolment(ctx: AppContext, client: SignInClient, code: string): Promise<string[]> {
  const challenge = await readChallenge(ctx, client.challengeToken, 'enrol');
  await refuseWhileLocked(ctx, client, challenge.email);
  const codes = /^\d{6}$/.test(code) ? await confirmEnrolment(ctx, challenge.userId, code) : null;
  if (!codes) return refuseCode(ctx, client, challenge, 'mfa_enrol_code_invalid');
  client.log.info({ event: 'mfa_enrolled', userId: challenge.userId }, 'second factor enrolled');
  return codes;
}

/** POST /auth/mfa/enrol/complete: the recovery codes are saved; the enrolment is confirmed, so the session starts. */
export async function completeSignInEnrolment(ctx: AppContext, client: SignInClient): Promise<SignedIn> {
  const challenge = await readChallenge(ctx, client.challengeToken, 'enrol');
  if (!(await confirmedFactor(ctx.db, challenge.userId))) throw new AppError('mfa_not_enabled');
  return finishSignIn(ctx, client, challenge);
}

export async function mfaStatus(ctx: AppContext, userId: string, admin: boolean) {
  const factor = await confirmedFactor(ctx.db, userId);
  const [left] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return { enabled: factor !== null, required: admin && ctx.config.mfa.requiredForAdmins, recovery_codes_left: factor ? (left?.count ?? 0) : 0 };
}

/** POST /account/mfa/setup: a new secret for a signed-in user turning the second factor on. */
export function setupForAccount(ctx: AppContext, userId: string, email: string): Promise<MfaEnrolment> {
  return pendingEnrolment(ctx, userId, email, true);
}

/** POST /account/mfa/confirm */
export async function confirmForAccount(ctx: AppContext, userId: string, code: string): Promise<string[]> {
  const codes = /^\d{6}$/.test(code) ? await confirmEnrolment(ctx, userId, code) : null;
  if (!codes) throw new AppError('mfa_enrol_code_invalid');
  return codes;
}

/** POST /account/mfa/disable: needs a current code (or a recovery code), counted by the lockout; admins keep theirs while it is required. */
export async function disableForAccount(ctx: AppContext, caller: Caller, user: { userId: string; email: string; isAdmin: boolean }, code: string): Promise<void> {
  if (user.isAdmin && ctx.config.mfa.requiredForAdmins) throw new AppError('mfa_required');
  if (!(await confirmedFactor(ctx.db, user.userId))) throw new AppError('mfa_not_enabled');
  await refuseWhileLocked(ctx, caller, user.email);
  const outcome = await acceptCode(ctx, user.userId, code);
  if (outcome !== 'accepted') {
    await ctx.limits.login.recordFailure(user.email, caller.ip);
    throw new AppError(outcome);
  }
  await ctx.db.transaction(async (tx) => {
    await removeFactor(tx, user.userId);
    await tx.insert(securityEvents).values({ kind: 'mfa_disabled', actorId: user.userId, targetId: user.userId, createdAt: ctx.clock.now() });
  });
}

async function removeFactor(tx: Db, userId: string): Promise<boolean> {
  const removed = await tx.delete(userMfa).where(eq(userMfa.userId, userId)).returning({ userId: userMfa.userId });
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  return removed.length > 0;
}

/**
 * An admin resets another user's second factor (a lost phone): the factor, its recovery codes and any
 * pending sign-in go, the user's sessions end, and the reset is audited (actor, target). An admin
 * enrols again at the next login; anyone else simply has none.
 */
export async function resetFactor(ctx: AppContext, actorId: string, targetId: string): Promise<void> {
  const [target] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, targetId));
  if (!target) throw new AppError('not_found');
  const ended = await ctx.db.transaction(async (tx) => {
    if (!(await removeFactor(tx, targetId))) throw new AppError('mfa_not_enabled');
    await tx.insert(securityEvents).values({ kind: 'mfa_reset', actorId, targetId, createdAt: ctx.clock.now() });
    return tx.delete(sessions).where(eq(sessions.userId, targetId)).returning({ id: sessions.tokenHash });
  });
  for (const { id } of ended) ctx.disconnectSession(id);
}
