import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { agentAddressBody, createUserBody, idClientNameBody } from '@portal/contracts';
import { cabinets, userCabinets } from '@portal/db';
import { serverT } from '@portal/i18n';
import type { Request } from 'express';
import type { AppContext } from '../../context.ts';
import { AppError, requestLocale } from '../../http/errors.ts';
import type { Route } from '../../http/routes.ts';
import { parse } from '../../http/validate.ts';
import { loadPublicUser, loadPublicUsers } from './presenter.ts';
import { createAgentAddress, createUser, ledesAgents, recipientName } from './service.ts';

const idParam = z.strictObject({ id: z.uuid() });

export function usersRoutes(ctx: AppContext): Route[] {
  const create = async (req: Request) => {
    const user = await createUser(ctx, parse(createUserBody, req.body));
    req.log.info({ event: 'user_created', userId: user._id, by: req.auth!.userId }, 'user created');
    return { success: true, message: serverT(requestLocale(req))('api:user_created'), user };
  };
  return [
    { method: 'GET', path: '/user', handler: async () => ({ success: true, users: await loadPublicUsers(ctx.db) }) },
    {
      method: 'GET',
      path: '/user/:id',
      async handler(req) {
        const { id } = parse(idParam, req.params);
        if (!req.auth!.isAdmin && req.auth!.userId !== id) throw new AppError('not_found');
        const user = await loadPublicUser(ctx.db, id);
        if (!user) throw new AppError('not_found');
        return { success: true, user };
      },
    },
    { method: 'GET', path: '/user_ledes', handler: async () => ({ success: true, users: await ledesAgents(ctx) }) },
    { method: 'POST', path: '/user', handler: create },
    { method: 'POST', path: '/admin/user', handler: create },
    {
      method: 'POST',
      path: '/user/id_client/name',
      async handler(req) {
        const { id_client } = parse(idClientNameBody, req.body);
        return { success: true, name: await recipientName(ctx, req.auth!, id_client) };
      },
    },
    {
      method: 'GET',
      path: '/cabinet',
      async handler() {
        const rows = await ctx.db.select().from(cabinets).orderBy(cabinets.name);
        return { success: true, cabinet: rows.map((c) => ({ _id: c.id, name: c.name })) };
      },
    },
    {
      method: 'GET',
      path: '/cabinet/user/list',
      async handler(req) {
        const rows = await ctx.db
          .select({ id: cabinets.id, name: cabinets.name })
          .from(userCabinets)
          .innerJoin(cabinets, eq(cabinets.id, userCabinets.cabinetId))
          .where(eq(userCabinets.userId, req.auth!.userId))
          .orderBy(cabinets.name);
        return { success: true, cabinet: rows.map((c) => ({ _id: c.id, name: c.name })) };
      },
    },
    {
      method: 'POST',
      path: '/adresse_agent_ledes/create',
      async handler(req) {
        const adresse = await createAgentAddress(ctx, req.auth!.userId, parse(agentAddressBody, req.body));
        return { success: true, message: serverT(requestLocale(req))('api:address_created'), adresse };
      },
    },
  ];
}
