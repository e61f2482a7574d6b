import { queryOptions } from '@tanstack/react-query';
import type {
  AgentAddressBody,
  AgentAddressCreatedResponse,
  CabinetsResponse,
  CreateUserBody,
  MessageResponse,
  RolesResponse,
  UserCreatedResponse,
  UsersResponse,
} from '@portal/contracts';
import { api, apiPath } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const rolesQuery = queryOptions({
  queryKey: queryKeys.users.roles(),
  queryFn: ({ signal }) => api<RolesResponse>('/role', { signal }).then((r) => r.roles),
  staleTime: 5 * 60_000,
});

export const cabinetsQuery = queryOptions({
  queryKey: queryKeys.users.cabinets(),
  queryFn: ({ signal }) => api<CabinetsResponse>('/cabinet', { signal }).then((r) => r.cabinet),
  staleTime: 5 * 60_000,
});

export const usersQuery = queryOptions({
  queryKey: queryKeys.users.list(),
  queryFn: ({ signal }) => api<UsersResponse>('/user', { signal }).then((r) => r.users),
});

export function createUser(body: CreateUserBody) {
  return api<UserCreatedResponse>('/admin/user', { method: 'POST', body });
}

export function sendFirstConnection(email: string) {
  return api<MessageResponse>(apiPath`/auth/first_connection/${email}`);
}

export function createAddress(body: AgentAddressBody) {
  return api<AgentAddressCreatedResponse>('/adresse_agent_ledes/create', { method: 'POST', body });
}
