import type { PolicyTable } from '../../http/access.ts';

export const authPolicy = {
  'GET /auth/verify_token_': 'public',
  'GET /auth/check_token': 'public',
  'POST /auth/login': 'public',
  'POST /auth/logout': 'public',
  'GET /auth/request_reset_password/:email': 'public',
  'GET /verify_token': 'public',
  'PUT /auth/reset_password/:token/:id': 'public',
  'GET /auth/first_connection/:email': ['admin'],
  'GET /role': ['admin'],
  'GET /role/:id': ['admin'],
  // Object-level rule in the handler: a user reads their own roles, an admin anyone's.
  'GET /user/:id/roles/slug': 'authenticated',
} satisfies PolicyTable;
