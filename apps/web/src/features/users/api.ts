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

export const rolesQuery = {
  queryKey: ['roles'] as const,
  queryFn: () => api<RolesResponse>('/role').then((r) => r.roles),
  staleTime: 5 * 60_000,
};

export const cabinetsQuery = {
  queryKey: ['cabinets'] as const,
  queryFn: () => api<CabinetsResponse>('/cabinet').then((r) => r.cabinet),
  staleTime: 5 * 60_000,
};

export const usersQuery = {
  queryKey: ['users'] as const,
  queryFn: () => api<UsersResponse>('/user').then((r) => r.users),
};

export function createUser(body: CreateUserBody) {
  return api<UserCreatedResponse>('/admin/user', { method: 'POST', body });
}

export function sendFirstConnection(email: string) {
  return api<MessageResponse>(apiPath`/auth/first_connection/${email}`);
}

export function createAddress(body: AgentAddressBody) {
  return api<AgentAddressCreatedResponse>('/adresse_agent_ledes/create', { method: 'POST', body });
}
