import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import type { LoginMfaResponse, LoginResponse, PublicUser, VerifyResetResponse, VerifyTokenResponse } from '@portal/contracts';
import { api, apiPath } from './api.ts';
import { queryKeys } from './queryKeys.ts';
import { decideAccess, type Access, type SessionSnapshot, LOGGED_OUT } from './access.ts';
import { chosenLanguage, forgetChosenLanguage } from './language.ts';

export interface Session extends SessionSnapshot {
  user: PublicUser | null;
}

export const SESSION_KEY = queryKeys.session;
/** Short enough that each navigation asks the server, long enough not to hammer it on quick clicks. */
const SESSION_STALE_MS = 1500;

async function fetchSession(): Promise<Session> {
  try {
    const r = await api<VerifyTokenResponse>('/auth/verify_token_');
    return { isAuthenticated: r.isAuthenticated, is_admin: r.is_admin, roles: r.roles ?? [], user: r.user ?? null };
  } catch {
    // A failed check counts as logged out (spec §4, session).
    return { ...LOGGED_OUT, user: null };
  }
}

export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: fetchSession,
  staleTime: SESSION_STALE_MS,
});

export function sessionFromLogin(r: LoginResponse): Session {
  const roles = r.roles ?? r.user.roles.map((role) => role.slug);
  return { isAuthenticated: true, is_admin: roles.includes('admin'), roles, user: r.user };
}

/** Logs in (or answers the second-factor step due); a language picked with the switcher before logging in goes along, wins and becomes the account's language. */
export async function login(body: { email: string; password: string }): Promise<LoginResponse | LoginMfaResponse> {
  const langue = chosenLanguage();
  const r = await api<LoginResponse | LoginMfaResponse>('/auth/login', { method: 'POST', body: langue ? { ...body, langue } : body });
  forgetChosenLanguage();
  return r;
}

export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await api('/auth/logout', { method: 'POST' });
  } finally {
    forgetChosenLanguage();
    queryClient.setQueryData<Session>(SESSION_KEY, { ...LOGGED_OUT, user: null });
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
  }
}

export function requestResetPassword(email: string): Promise<{ success: true; message: string }> {
  return api(apiPath`/auth/request_reset_password/${email}`);
}

export function verifyResetToken(id: string, token: string): Promise<VerifyResetResponse> {
  return api('/verify_token/', { query: { id, token } });
}

export function resetPassword(token: string, id: string, password: string): Promise<{ success: true; message: string }> {
  return api(apiPath`/auth/reset_password/${token}/${id}`, { method: 'PUT', body: { password } });
}

/** Route loader factory: the navigation guard, run before every navigation to the route. */
export function guard(queryClient: QueryClient, access: Access) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    if (access === 'open') {
      // Public screens still refresh the session in the background for the navigation bar.
      queryClient.prefetchQuery(sessionQuery);
      return null;
    }
    const session = await queryClient.fetchQuery(sessionQuery);
    const url = new URL(request.url);
    const decision = decideAccess(access, session, `${url.pathname}${url.search}`);
    if (decision.kind === 'redirect') throw redirect(decision.to);
    return null;
  };
}
