import type { AgentAddress, AgentAddressBody, Cabinet, CreateUserBody, PublicUser, Role } from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';

export const rolesQuery = {
  queryKey: ['roles'] as const,
  queryFn: () => api<{ success: true; roles: Role[] }>('/role').then((r) => r.roles),
  staleTime: 5 * 60_000,
};

export const cabinetsQuery = {
  queryKey: ['cabinets'] as const,
  queryFn: () => api<{ success: true; cabinet: Cabinet[] }>('/cabinet').then((r) => r.cabinet),
  staleTime: 5 * 60_000,
};

export const usersQuery = {
  queryKey: ['users'] as const,
  queryFn: () => api<{ success: true; users: PublicUser[] }>('/user').then((r) => r.users),
};

export function createUser(body: CreateUserBody) {
  return api<{ success: true; message: string; user: PublicUser }>('/admin/user', { method: 'POST', body });
}

export function sendFirstConnection(email: string) {
  return api<{ success: true; message: string }>(apiPath`/auth/first_connection/${email}`);
}

export function createAddress(body: AgentAddressBody) {
  return api<{ success: true; message: string; adresse: AgentAddress }>('/adresse_agent_ledes/create', { method: 'POST', body });
}
