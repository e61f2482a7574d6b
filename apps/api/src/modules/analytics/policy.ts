import type { PolicyTable } from '../../http/access.ts';

/** LEDES spend analytics (issue 31 §2): the group's admins. */
export const analyticsPolicy = {
  'GET /ledes/analytics': ['admin'],
  'GET /ledes/analytics/export': ['admin'],
} satisfies PolicyTable;
