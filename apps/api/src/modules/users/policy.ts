import type { PolicyTable } from '../../http/access.ts';

export const usersPolicy = {
  // One's own mails (issue 31 §3); the digest's admin rule is in the handler.
  'GET /account/notifications': 'authenticated',
  'PUT /account/notifications': 'authenticated',
  'GET /user': ['admin'],
  // Object-level rule in the handler: oneself or an admin.
  'GET /user/:id': 'authenticated',
  'GET /user_ledes': ['admin'],
  'POST /user': ['admin'],
  'POST /admin/user': ['admin'],
  // Object-level rule in the service: one's own client ids, or any for an admin.
  'POST /user/id_client/name': 'authenticated',
  'GET /cabinet': 'authenticated',
  'GET /cabinet/user/list': 'authenticated',
  'POST /adresse_agent_ledes/create': ['admin'],
} satisfies PolicyTable;
