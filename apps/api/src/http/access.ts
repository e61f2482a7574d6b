import type { RoleSlug } from '@portal/contracts';

/**
 * Who may call a route: anyone ('public'), any logged-in user ('authenticated'), or holders of one
 * of the listed roles. Every route must have an entry: the server refuses to start otherwise.
 */
export type Access = 'public' | 'authenticated' | readonly RoleSlug[];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RouteKey = `${HttpMethod} /${string}`;
export type PolicyTable = Record<RouteKey, Access>;

export function allows(access: Access, roles: readonly RoleSlug[] | null): 'ok' | 'unauthenticated' | 'forbidden' {
  if (access === 'public') return 'ok';
  if (!roles) return 'unauthenticated';
  if (access === 'authenticated') return 'ok';
  return access.some((role) => roles.includes(role)) ? 'ok' : 'forbidden';
}
