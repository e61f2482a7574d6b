import { z } from 'zod';
import { eq } from 'drizzle-orm';
import {
  emailSchema,
  loginBody,
  resetPasswordBody,
  resetPasswordParams,
  verifyResetQuery,
  type VerifyResetResponse,
  type VerifyTokenResponse,
} from '@portal/contracts';
import { roles } from '@portal/db';
import { serverT } from '@portal/i18n';
import type { AppContext } from '../../context.ts';
import { AppError, requestLocale } from '../../http/errors.ts';
import type { Route } from '../../http/routes.ts';
import { endSession } from '../../http/session.ts';
import { parse } from '../../http/validate.ts';
import { loadPublicUser } from '../users/presenter.ts';
import { isResetLinkValid, login, requestPasswordReset, resetPassword, sendFirstConnection } from './service.ts';

const emailParam = z.strictObject({ email: emailSchema });
const idParam = z.strictObject({ id: z.uuid() });

export function authRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/auth/verify_token_',
      async handler(req): Promise<VerifyTokenResponse> {
        const user = req.auth ? await loadPublicUser(ctx.db, req.auth.userId) : null;
        return {
          success: true,
          isAuthenticated: user !== null,
          is_admin: req.auth?.isAdmin ?? false,
          user,
          roles: req.auth?.roles ?? [],
        };
      },
    },
    {
      method: 'GET',
      path: '/auth/check_token',
      handler: (req) => ({ success: true, isAuthenticated: req.auth !== null }),
    },
    {
      method: 'POST',
      path: '/auth/login',
      async handler(req, res) {
        const user = await login(ctx, req, res, parse(loginBody, req.body));
        return { success: true, message: serverT(requestLocale(req))('api:login_succeeded'), roles: user.roles.map((r) => r.slug), user };
      },
    },
    {
      method: 'POST',
      path: '/auth/logout',
      async handler(req, res) {
        await endSession(ctx, req, res);
        return { success: true, message: serverT(requestLocale(req))('api:logged_out') };
      },
    },
    {
      method: 'GET',
      path: '/auth/request_reset_password/:email',
      async handler(req) {
        const { email } = parse(emailParam, req.params);
        if (!(await ctx.limits.resetRequest.allow(req.ip ?? 'unknown'))) throw new AppError('rate_limited');
        await requestPasswordReset(ctx, email);
        return { success: true, message: serverT(requestLocale(req))('api:reset_requested') };
      },
    },
    {
      method: 'GET',
      path: '/verify_token',
      async handler(req): Promise<VerifyResetResponse> {
        const { id, token } = parse(verifyResetQuery, req.query);
        const valid = await isResetLinkValid(ctx, id, token);
        const t = serverT(requestLocale(req));
        return { success: valid, invalid: !valid, message: valid ? t('api:link_valid') : t('errors:link_expired') };
      },
    },
    {
      method: 'PUT',
      path: '/auth/reset_password/:token/:id',
      async handler(req) {
        const { token, id } = parse(resetPasswordParams, req.params);
        const { password } = parse(resetPasswordBody, req.body);
        await resetPassword(ctx, id, token, password);
        req.log.info({ event: 'password_reset', userId: id }, 'password reset');
        return { success: true, message: serverT(requestLocale(req))('api:password_reset') };
      },
    },
    {
      method: 'GET',
      path: '/auth/first_connection/:email',
      async handler(req) {
        const { email } = parse(emailParam, req.params);
        await sendFirstConnection(ctx, email);
        return { success: true, message: serverT(requestLocale(req))('api:first_connection_sent') };
      },
    },
    {
      method: 'GET',
      path: '/role',
      async handler() {
        const rows = await ctx.db.select().from(roles).orderBy(roles.slug);
        return { success: true, roles: rows.map((r) => ({ _id: r.id, slug: r.slug })) };
      },
    },
    {
      method: 'GET',
      path: '/role/:id',
      async handler(req) {
        const { id } = parse(idParam, req.params);
        const [role] = await ctx.db.select().from(roles).where(eq(roles.id, id));
        if (!role) throw new AppError('not_found');
        return { success: true, role: { _id: role.id, slug: role.slug } };
      },
    },
    {
      method: 'GET',
      path: '/user/:id/roles/slug',
      async handler(req) {
        const { id } = parse(idParam, req.params);
        if (!req.auth!.isAdmin && req.auth!.userId !== id) throw new AppError('not_found');
        const user = await loadPublicUser(ctx.db, id);
        if (!user) throw new AppError('not_found');
        return { success: true, roles: user.roles.map((r) => r.slug) };
      },
    },
  ];
}
