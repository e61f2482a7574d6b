import type { Request, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import type { AppContext } from '../context.ts';
import type { IssuedToken, SignInClient } from '../domain/auth.ts';

// The cookies of the session and of the second-factor challenge: read from the request, set and
// cleared on the response. The rows behind them are the services' (security/sessions.ts, mfa).

function cookieOptions(ctx: AppContext) {
  const { cookie } = ctx.config.security;
  return { httpOnly: true, secure: cookie.secure, sameSite: cookie.sameSite, path: '/' } as const;
}

export function readSessionToken(ctx: AppContext, cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const token = parseCookies(cookieHeader)[ctx.config.security.cookie.name];
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

export function setSessionCookie(ctx: AppContext, res: Response, session: IssuedToken): void {
  res.cookie(ctx.config.security.cookie.name, session.token, { ...cookieOptions(ctx), expires: session.expiresAt });
}

export function clearSessionCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(ctx.config.security.cookie.name, cookieOptions(ctx));
}

/** The challenge cookie: like the session's, __Host- when Secure (SESS-12), never readable by scripts. */
export function challengeCookieName(ctx: AppContext): string {
  return ctx.config.security.cookie.secure ? '__Host-portal_mfa' : 'portal_mfa';
}

export function setChallengeCookie(ctx: AppContext, res: Response, challenge: IssuedToken): void {
  res.cookie(challengeCookieName(ctx), challenge.token, { ...cookieOptions(ctx), expires: challenge.expiresAt });
}

export function clearChallengeCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(challengeCookieName(ctx), cookieOptions(ctx));
}

/** What the sign-in services read of a request: address, logger, and the tokens its cookies present. */
export function signInClient(ctx: AppContext, req: Request): SignInClient {
  const header = req.get('cookie');
  return {
    ip: req.ip ?? 'unknown',
    log: req.log,
    sessionToken: readSessionToken(ctx, header),
    challengeToken: header ? parseCookies(header)[challengeCookieName(ctx)] : undefined,
  };
}
