import type { PolicyTable } from '../../http/access.ts';

export const mfaPolicy = {
  // The sign-in steps between the password and the session: public, the challenge cookie is the credential.
  'GET /auth/mfa/challenge': 'public',
  'POST /auth/mfa/verify': 'public',
  'POST /auth/mfa/enrol': 'public',
  'POST /auth/mfa/enrol/complete': 'public',
  // One's own second factor.
  'GET /account/mfa': 'authenticated',
  'POST /account/mfa/setup': 'authenticated',
  'POST /account/mfa/confirm': 'authenticated',
  'POST /account/mfa/disable': 'authenticated',
  // Another user's, after a lost phone: audited.
  'POST /admin/user/:id/mfa/reset': ['admin'],
} satisfies PolicyTable;
