import { eq } from 'drizzle-orm';
import {
  checkTokenResponse,
  emailParam,
  idParam,
  loginBody,
  loginMfaResponse,
  loginResponse,
  messageResponse,
  resetPasswordBody,
  resetPasswordParams,
  roleResponse,
  roleSlugsResponse,
  rolesResponse,
  verifyResetQuery,
  verifyResetResponse,
  verifyTokenResponse,
  RESET_TOKEN_MINUTES,
  type RoleSlug,
} from '@portal/contracts';
import { roles } from '@portal/db';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { endSession } from '../../http/session.ts';
import { setChallengeCookie, setSessionCookie, signInClient } from '../../http/session-cookies.ts';
import { loadPublicUser } from '../users/index.ts';
import { usableLinkPurpose, login, requestPasswordReset, resetPassword, sendFirstConnection } from './service.ts';

export function authRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/verify_token_',
      summary: 'The session of the caller: user, roles, admin or not',
      response: verifyTokenResponse,
      async handler(_input, { auth }) {
        const user = auth ? await loadPublicUser(ctx.db, auth.userId) : null;
        return { success: true, isAuthenticated: user !== null, is_admin: auth?.isAdmin ?? false, user, roles: auth?.roles ?? [] };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/check_token',
      summary: 'Whether the caller has a session',
      response: checkTokenResponse,
      handler: (_input, { auth }) => ({ success: true, isAuthenticated: auth !== null }),
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/login',
      summary: 'Signs in with e-mail and password; sets the session cookie, or, when a second factor is due, the challenge cookie and `mfa`',
      body: loginBody,
      response: z.union([loginResponse, loginMfaResponse]),
      async handler({ body }, { req, res, t }) {
        const result = await login(ctx, signInClient(ctx, req), body);
        if ('mfa' in result) {
          setChallengeCookie(ctx, res, result.challenge);
          return { success: true as const, message: t(result.mfa === 'verify' ? 'api:mfa_code_needed' : 'api:mfa_enrolment_needed'), mfa: result.mfa };
        }
        const { user, session } = result;
        setSessionCookie(ctx, res, session);
        return { success: true as const, message: t('api:login_succeeded'), roles: user.roles.map((r) => r.slug), user };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/logout',
      summary: 'Ends the session and clears its cookie',
      response: messageResponse,
      async handler(_input, { req, res, t }) {
        await endSession(ctx, req, res);
        return { success: true, message: t('api:logged_out') };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/request_reset_password/:email',
      summary: 'Sends a password-reset link when the account exists; the same answer either way',
      params: emailParam,
      response: messageResponse,
      async handler({ params }, { req, t }) {
        await ctx.limits.resetRequest.consume(req.ip ?? 'unknown');
        await requestPasswordReset(ctx, params.email);
        return { success: true, message: t('api:reset_requested', { count: RESET_TOKEN_MINUTES }) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/verify_token',
      summary: 'Whether a reset or first-connection link still works',
      query: verifyResetQuery,
      response: verifyResetResponse,
      async handler({ query }, { t }) {
        const purpose = query.id === null ? null : await usableLinkPurpose(ctx, query.id, query.token);
        const valid = purpose !== null;
        return { success: valid, invalid: !valid, purpose, message: valid ? t('api:link_valid') : t('errors:link_expired') };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/auth/reset_password/:token/:id',
      summary: 'Sets a new password with a reset link; ends every session of the user',
      params: resetPasswordParams,
      body: resetPasswordBody,
      response: messageResponse,
      async handler({ params, body }, { log, t }) {
        await resetPassword(ctx, params.id, params.token, body.password);
        log.info({ event: 'password_reset', userId: params.id }, 'password reset');
        return { success: true, message: t('api:password_reset') };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/first_connection/:email',
      summary: 'Sends a user their first-connection link',
      params: emailParam,
      response: messageResponse,
      async handler({ params }, { t }) {
        await sendFirstConnection(ctx, params.email);
        return { success: true, message: t('api:first_connection_sent') };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/role',
      summary: 'Every role',
      response: rolesResponse,
      async handler() {
        const rows = await ctx.db.select().from(roles).orderBy(roles.slug);
        return { success: true, roles: rows.map((r) => ({ _id: r.id, slug: r.slug as RoleSlug })) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/role/:id',
      summary: 'One role',
      params: idParam,
      response: roleResponse,
      async handler({ params }) {
        const [role] = await ctx.db.select().from(roles).where(eq(roles.id, params.id));
        if (!role) throw new AppError('not_found');
        return { success: true, role: { _id: role.id, slug: role.slug as RoleSlug } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user/:id/roles/slug',
      summary: "A user's role slugs: one's own, or anyone's for an admin",
      params: idParam,
      response: roleSlugsResponse,
      async handler({ params }, http) {
        const actor = http.actor();
        if (!actor.isAdmin && actor.userId !== params.id) throw new AppError('not_found');
        const user = await loadPublicUser(ctx.db, params.id);
        if (!user) throw new AppError('not_found');
        return { success: true, roles: user.roles.map((r) => r.slug) };
      },
    }),
  ];
}
