import type { PolicyTable } from '../../http/access.ts';

/**
 * Receipts (spec §2 "Receipts", §7): the patent users upload and list them (the "patent annuities"
 * menu's users: agents, admin_test, admins). Object-level rule in `service.ts`: a receipt is seen by
 * whoever may read its cabinet or client code (the patents' read scope), by its uploader, and by admins.
 */
const RECEIPT_USERS = ['user_agent_annuites', 'admin_test', 'admin'] as const;

export const receiptsPolicy = {
  'POST /recepisse': RECEIPT_USERS,
  'GET /recepisse': RECEIPT_USERS,
  'GET /recepisse/uploads': RECEIPT_USERS,
  'GET /recepisse/:id': RECEIPT_USERS,
  'GET /download/recepisse': RECEIPT_USERS,
  'GET /brevet_eptane/:id/recepisse': RECEIPT_USERS,
  // Linking by hand is staff's (decision 192): an admin decides which patent an unlinked receipt pays.
  'POST /receipts/:id/link': ['admin'],
} satisfies PolicyTable;
