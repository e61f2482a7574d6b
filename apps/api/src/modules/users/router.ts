import { eq } from 'drizzle-orm';
import {
  agentAddressBody,
  agentAddressCreatedResponse,
  cabinetsResponse,
  createUserBody,
  idClientNameBody,
  idClientNameResponse,
  idParam,
  ledesAgentsResponse,
  notificationSettingsBody,
  notificationSettingsResponse,
  userCreatedResponse,
  userResponse,
  usersResponse,
} from '@portal/contracts';
import { cabinets, userCabinets } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { loadPublicUser, loadPublicUsers } from './presenter.ts';
import { createAgentAddress, createUser, ledesAgents, recipientName } from './service.ts';
import { notificationSettings, updateNotificationSettings } from './notifications.ts';

export function usersRoutes(ctx: AppContext): Route[] {
  // The spec has two paths for the same creation.
  const createRoute = (path: string) =>
    defineRoute({
      method: 'POST',
      path,
      summary: 'Creates a user with their roles, cabinets and client ids',
      body: createUserBody,
      response: userCreatedResponse,
      async handler({ body }, http) {
        const user = await createUser(ctx, body);
        http.log.info({ event: 'user_created', userId: user._id, by: http.actor().userId }, 'user created');
        return { success: true, message: http.t('api:user_created'), user };
      },
    });
  return [
    defineRoute({
      method: 'GET',
      path: '/account/notifications',
      summary: 'The mails the caller opted in to: LEDES file refused, delivered to step 2, the daily digest (admins)',
      response: notificationSettingsResponse,
      async handler(_input, http) {
        const actor = http.actor();
        return { success: true, settings: await notificationSettings(ctx, actor.userId), digest_available: actor.isAdmin };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/account/notifications',
      summary: 'Turns the caller’s mails on or off; the digest is for admins only',
      body: notificationSettingsBody,
      response: notificationSettingsResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        if (body.ledes_digest === true && !actor.isAdmin) throw new AppError('forbidden');
        const settings = await updateNotificationSettings(ctx, actor.userId, body, ctx.clock.now());
        http.log.info({ event: 'notifications_changed', userId: actor.userId, ...body }, 'notification settings changed');
        return { success: true, settings, digest_available: actor.isAdmin };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user',
      summary: 'Every user',
      response: usersResponse,
      handler: async () => ({ success: true, users: await loadPublicUsers(ctx.db) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/user/:id',
      summary: 'One user: oneself, or anyone for an admin',
      params: idParam,
      response: userResponse,
      async handler({ params }, http) {
        const actor = http.actor();
        if (!actor.isAdmin && actor.userId !== params.id) throw new AppError('not_found');
        const user = await loadPublicUser(ctx.db, params.id);
        if (!user) throw new AppError('not_found');
        return { success: true, user };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/user_ledes',
      summary: 'The LEDES agents, for the admin upload form',
      response: ledesAgentsResponse,
      handler: async () => ({ success: true, users: await ledesAgents(ctx) }),
    }),
    createRoute('/user'),
    createRoute('/admin/user'),
    defineRoute({
      method: 'POST',
      path: '/user/id_client/name',
      summary: "The recipient name of a client id: one's own client ids, or any for an admin",
      body: idClientNameBody,
      response: idClientNameResponse,
      handler: async ({ body }, http) => ({ success: true, name: await recipientName(ctx, http.actor(), body.id_client) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/cabinet',
      summary: 'Every cabinet',
      response: cabinetsResponse,
      async handler() {
        const rows = await ctx.db.select().from(cabinets).orderBy(cabinets.name);
        return { success: true, cabinet: rows.map((c) => ({ _id: c.id, name: c.name })) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/cabinet/user/list',
      summary: "The caller's cabinets",
      response: cabinetsResponse,
      async handler(_input, http) {
        const rows = await ctx.db
          .select({ id: cabinets.id, name: cabinets.name })
          .from(userCabinets)
          .innerJoin(cabinets, eq(cabinets.id, userCabinets.cabinetId))
          .where(eq(userCabinets.userId, http.actor().userId))
          .orderBy(cabinets.name);
        return { success: true, cabinet: rows.map((c) => ({ _id: c.id, name: c.name })) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/adresse_agent_ledes/create',
      summary: "Creates a LEDES client's postal address",
      body: agentAddressBody,
      response: agentAddressCreatedResponse,
      async handler({ body }, http) {
        const adresse = await createAgentAddress(ctx, http.actor().userId, body);
        return { success: true, message: http.t('api:address_created'), adresse };
      },
    }),
  ];
}
