import type { RoleSlug } from '@portal/contracts';
import type { Logger } from '@portal/logger';

/** Who a request or a socket acts for, as the session resolved it: what services receive as the actor. */
export interface AuthState {
  /** SHA-256 of the cookie token: the session row's key and the socket room of this session. */
  sessionId: string;
  userId: string;
  email: string;
  langue: 'en' | 'fr';
  roles: RoleSlug[];
  isAdmin: boolean;
}

/**
 * What a sign-in step knows of its caller, read from the request by the HTTP layer: the address the
 * lockout counts by, the request's logger, and the tokens its cookies present (already read, not checked).
 */
export interface SignInClient {
  ip: string;
  log: Logger;
  /** The session cookie's token, when one is presented: a new sign-in ends that session (SESS-02). */
  sessionToken: string | undefined;
  /** The second-factor challenge cookie's token, when one is presented. */
  challengeToken: string | undefined;
}

/** A token issued to the client and the moment it expires; the HTTP layer puts it in a cookie. */
export interface IssuedToken {
  token: string;
  expiresAt: Date;
}
