import type { PolicyTable } from '../../http/access.ts';

/**
 * The spec's patent menus (§6): agents (`user_agent_annuites`), `admin_test` and admins. Object-level
 * rules are in `service.ts` (`readScope` / `writeScope`): an agent reads and changes the patents of its
 * cabinets and client codes, `admin_test` reads any client code but changes only its own scope, an
 * admin reads and changes everything.
 */
const PATENT_USERS = ['user_agent_annuites', 'admin_test', 'admin'] as const;

export const patentsPolicy = {
  // Reference data of the add-patent form (any connected user) and of the portfolio screens.
  'GET /instruction_paiement': 'authenticated',
  'GET /instruction_paiement/:id': 'authenticated',
  'GET /brevet_eptane': PATENT_USERS,
  'GET /brevet_eptane/admin/:code': ['admin_test', 'admin'],
  'GET /brevet_eptane/:id': PATENT_USERS,
  'PUT /brevet_eptane/update/instruction_paiement/:id': PATENT_USERS,
  'PUT /brevet_eptane/many/update_instruction': PATENT_USERS,
  'GET /brevet_eptane/missing-information': ['admin'],
  'PUT /brevet_eptane/update-missing-info/:idagenda': ['admin'],
  'GET /brevet_eptane/to_validate': ['admin_test', 'admin'],
  'PUT /brevet_eptane/validate-instruction': ['admin_test', 'admin'],
  'GET /brevet_eptane/:id/events': PATENT_USERS,
  'GET /brevet_eptane/:id/schedule': PATENT_USERS,
  'PUT /brevet_eptane/update/:_id': ['admin'],
  // The add-patent form (spec §6 patent users); admins review what was submitted.
  'POST /brevet_eptane/create': PATENT_USERS,
  'GET /brevet_eptane/proposal': PATENT_USERS,
  'GET /patent_submissions': ['admin'],
  'PUT /patent_submissions/:id/accept': ['admin'],
  'PUT /patent_submissions/:id/reject': ['admin'],
  // The contact-us banner's new case (any patent user).
  'POST /file/send_email_for_new_case': PATENT_USERS,
} satisfies PolicyTable;
