import type { PolicyTable } from '../../http/access.ts';

export const opsPolicy = {
  // The queue dashboard: bull-board in the production mode (the same rule, http/queue-dashboard.ts).
  'GET /admin/queues': ['admin'],
} satisfies PolicyTable;
