import type { PolicyTable } from '../../http/access.ts';

/** Clients' billing guidelines (issue 31 §1): the group's admins keep them. */
export const guidelinesPolicy = {
  'GET /ledes/guidelines': ['admin'],
  'GET /ledes/guidelines/:id_client': ['admin'],
  'POST /ledes/guidelines/:id_client': ['admin'],
  'POST /ledes/guidelines/:id_client/preview': ['admin'],
} satisfies PolicyTable;
