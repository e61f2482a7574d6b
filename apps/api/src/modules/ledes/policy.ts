import type { PolicyTable } from '../../http/access.ts';

const LEDES_USERS = ['user_agent_ledes', 'admin'] as const;

export const ledesPolicy = {
  'GET /ledes/offices': LEDES_USERS,
  'POST /ledes/file/:type/:office': LEDES_USERS,
  // Object-level rules in the service: one's own runs and files, any for an admin.
  'GET /ledes/runs/:id': LEDES_USERS,
  'POST /ledes/file/download': LEDES_USERS,
  'GET /historique': LEDES_USERS,
  'GET /searchHistorique': LEDES_USERS,
  'GET /historique/admin/:id': ['admin'],
} satisfies PolicyTable;
