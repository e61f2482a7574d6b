import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { allows, type Access, type HttpMethod, type PolicyTable, type RouteKey } from './access.ts';
import { AppError } from './errors.ts';

export interface Route {
  method: HttpMethod;
  /** Express path under /api, e.g. '/user/:id'. */
  path: string;
  handler(req: Request, res: Response): unknown;
}

export interface ApiModule {
  routes(ctx: AppContext): Route[];
  policy: PolicyTable;
}

export const routeKey = (route: Pick<Route, 'method' | 'path'>): RouteKey => `${route.method} ${route.path}` as RouteKey;

/**
 * Mounts every module's routes behind its policy entry. A route without an entry, or an entry without
 * a route, stops the server at start-up: access rules cannot be forgotten.
 */
export function mountModules(ctx: AppContext, modules: ApiModule[]): { router: Router; policy: Map<RouteKey, Access> } {
  const router = Router();
  const policy = new Map<RouteKey, Access>();
  for (const module of modules) for (const [key, access] of Object.entries(module.policy)) policy.set(key as RouteKey, access);

  const mounted = new Set<RouteKey>();
  for (const module of modules) {
    for (const route of module.routes(ctx)) {
      const key = routeKey(route);
      const access = policy.get(key);
      if (!access) throw new Error(`Route ${key} has no access policy entry`);
      if (mounted.has(key)) throw new Error(`Route ${key} is declared twice`);
      mounted.add(key);
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      router[method](route.path, async (req, res) => {
        const verdict = allows(access, req.auth?.roles ?? null);
        if (verdict === 'unauthenticated') throw new AppError('unauthorized');
        if (verdict === 'forbidden') {
          req.log.warn({ event: 'authz_denied', route: key, userId: req.auth?.userId }, 'access denied');
          throw new AppError('forbidden');
        }
        const body = await route.handler(req, res);
        if (body !== undefined && !res.headersSent) res.json(body);
      });
    }
  }
  const unused = [...policy.keys()].filter((key) => !mounted.has(key));
  if (unused.length > 0) throw new Error(`Policy entries without a route: ${unused.join(', ')}`);
  return { router, policy };
}
